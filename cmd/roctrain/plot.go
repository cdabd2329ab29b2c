package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/internal/plotkit"
)

// figure is one seed's runs as both PNGs show them: merge's groups (runs with equal
// test scores drawn once) and, with several seeds, a note naming the seed.
type figure struct {
	groups [][]seedResult
	note   string
	seeds  bool // several seeds: the legend's figures are this seed's, the table's are means
}

// legendWidth is the strip the legend takes on the right of both PNGs.
const legendWidth = 3.2 * vg.Inch

// plotROC draws the test ROC curves into a PNG at path: the whole curve and the low-FPR region
// (FPR ≤ min(1, 3α)), each with the chance diagonal, the line FPR = α and the deployed points;
// the title names the number of positive test rows.
func plotROC(path string, f figure, alpha float64, positives int) error {
	title := fmt.Sprintf("ROC curve: test part, %d positives", positives)
	if f.note != "" {
		title += " (" + f.note + ")"
	}
	legend := plotkit.NewLegend()
	full, err := rocPanel(f, alpha, 1, 0, title, legend)
	if err != nil {
		return err
	}
	zoomMax := math.Min(1, 3*alpha)
	zoom, err := rocPanel(f, alpha, zoomMax, zoomFloor(f.groups), fmt.Sprintf("low-FPR region (FPR ≤ %.3g)", zoomMax),
		plotkit.NewLegend()) // the same entries, not drawn
	if err != nil {
		return err
	}
	return plotkit.SaveGridLegend(path, [][]*plot.Plot{{full, zoom}}, legend, legendWidth, 14*vg.Inch, 5.5*vg.Inch)
}

// plotClassROC draws, for data of classes, one one-vs-rest ROC panel per class (for more
// than 6 classes the 6 with the fewest test rows and the macro-average curve), three a row; the
// legend gives each run's macro TPR@α.
func plotClassROC(path string, f figure, alpha float64) error {
	m := f.groups[0][0].Classes
	view := func(c int) figure {
		fc := figure{note: f.note, seeds: f.seeds, groups: make([][]seedResult, len(f.groups))}
		for i, g := range f.groups {
			fc.groups[i] = append([]seedResult{classView(g[0], c)}, g[1:]...)
		}
		return fc
	}
	positives := make([]int, len(m.Class))
	for c := range m.Class {
		positives[c] = m.Class[c].Positives
	}
	legend, classes, names := plotkit.NewLegend(), plottedClasses(positives), elide(m.Names, maxTitleName)
	if _, err := rocPanel(view(macroClass), alpha, 1, 0, "", legend); err != nil {
		return err
	}
	grid := make([][]*plot.Plot, (len(classes)+2)/3)
	for k, c := range classes {
		title := "macro average of the classes' curves"
		if c != macroClass {
			title = fmt.Sprintf("%q one-vs-rest: %d test rows", names[c], m.Class[c].Positives)
		}
		if k == 0 && f.note != "" {
			title += "\n(" + f.note + ")" // a line of its own: a panel is a third of the width
		}
		p, err := rocPanel(view(c), alpha, 1, 0, title, plotkit.NewLegend())
		if err != nil {
			return err
		}
		grid[k/3] = append(grid[k/3], p)
	}
	grid[len(grid)-1] = append(grid[len(grid)-1], make([]*plot.Plot, 3*len(grid)-len(classes))...)
	return plotkit.SaveGridLegend(path, grid, legend, legendWidth, 13*vg.Inch+legendWidth, vg.Length(len(grid))*4.2*vg.Inch)
}

// maxTitleName is the most runes of a class name in a panel's title: a title of a longer name
// would run into the next panel's.
const maxTitleName = 20

// elide returns names with each name of more than max runes cut to max: its first max − 1
// runes and "…", such as "averyveryverylongcl…" for "averyveryverylongclassname" at max 20.
// Names that would become one keep their last runes too, as many as it takes
// ("averyveryverylongc…A" beside "averyveryverylongc…B"), and a name that no cut of max runes
// sets apart stays whole, so distinct names stay distinct. The cut is by rune, never within
// one.
func elide(names []string, max int) []string {
	out, tails := slices.Clone(names), make([]int, len(names))
	cut := func(i int) {
		r := []rune(names[i])
		if len(r) <= max || tails[i] >= max-1 {
			out[i] = names[i]
			return
		}
		out[i] = string(r[:max-1-tails[i]]) + "…" + string(r[len(r)-tails[i]:])
	}
	for i := range names {
		cut(i)
	}
	for {
		seen := map[string]int{}
		for _, s := range out {
			seen[s]++
		}
		changed := false
		for i, s := range out {
			if seen[s] > 1 && s != names[i] {
				tails[i]++
				cut(i)
				changed = true
			}
		}
		if !changed {
			return out
		}
	}
}

// zoomFloor is the lower TPR limit of the low-FPR panel: a little below the lowest TPR any
// run reaches at FPR 0, so that the curves fill the panel.
func zoomFloor(groups [][]seedResult) float64 {
	low := 1.0
	for _, g := range groups {
		r, at0 := g[0], 0.0
		for k := range r.FPR {
			if r.FPR[k] == 0 {
				at0 = r.TPR[k]
			}
		}
		low = math.Min(low, at0)
	}
	return math.Max(0, math.Floor(low*10)/10-0.1)
}

// rocPanel plots every group's ROC curve for FPR in [0, xMax] and TPR in [yMin, 1], with the
// chance diagonal, a dashed line at FPR = α and a disc at each group's deployed operating
// point (concentric where several share one); it adds the entries to legend.
func rocPanel(f figure, alpha, xMax, yMin float64, title string, legend *plot.Legend) (*plot.Plot, error) {
	p := plotkit.NewPanel(title, "false-positive rate", "true-positive rate")
	add := legend.Add
	if f.seeds {
		add(fmt.Sprintf("TPR@α: %s's; the table's are means", strings.SplitN(f.note, " of ", 2)[0]))
	}
	var deployed []plotkit.Mark
	for i, g := range f.groups {
		r := g[0]
		pts := make(plotter.XYs, 0, len(r.FPR))
		for k := range r.FPR {
			pts = append(pts, plotter.XY{X: r.FPR[k], Y: r.TPR[k]})
			if r.FPR[k] > xMax {
				break // the segment that leaves the panel is clipped by the axes
			}
		}
		l, err := plotkit.Line(r.Name, pts, plotutil.Color(i), plotutil.Dashes(i))
		if err != nil {
			return nil, err
		}
		p.Add(l)
		add(fmt.Sprintf("%s (TPR@α %.3f)", label(g), r.TestTPR), l)
		if r.DeployedTestFPR <= xMax && r.DeployedTestTPR >= yMin {
			deployed = append(deployed, plotkit.Mark{X: r.DeployedTestFPR, Y: r.DeployedTestTPR, Color: plotutil.Color(i)})
		}
	}
	p.Add(plotkit.Discs(deployed)...)
	add("deployed (validation threshold)", plotkit.Disc(-1, -1, color.Gray{Y: 60})) // off the axes
	mark, err := plotkit.Line("FPR = α", plotter.XYs{{X: alpha, Y: 0}, {X: alpha, Y: 1}}, color.Gray{Y: 120},
		[]vg.Length{vg.Points(4), vg.Points(4)})
	if err != nil {
		return nil, err
	}
	chance, err := plotkit.Line("chance", plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, color.Gray{Y: 170},
		[]vg.Length{vg.Points(1), vg.Points(3)})
	if err != nil {
		return nil, err
	}
	p.Add(mark, chance)
	add(fmt.Sprintf("FPR = α = %g", alpha), mark)
	add("chance (a random score)", chance)
	// Set the ranges last: Add widens them to the data.
	p.X.Min, p.X.Max = 0, xMax
	p.Y.Min, p.Y.Max = yMin, 1
	return p, nil
}

// diagnosticsPath is the PNG of the diagnostics beside the ROC plot: "roc.png" gives
// "roc-diagnostics.png" in the same folder.
func diagnosticsPath(rocPath string) string {
	ext := filepath.Ext(rocPath)
	return strings.TrimSuffix(rocPath, ext) + "-diagnostics" + ext
}

// plotDiagnostics draws, for the runs of one seed, the misranking ratio on the logging pool
// (left) and the first-order share of the mini-batch noise along the severe-error direction
// (right) against the epoch, with the legend beside them. Each curve has its colour; runs
// with a first phase are dashed, and a dotted vertical line in their colour marks the epoch
// their next phase starts.
func plotDiagnostics(path string, f figure) error {
	title := "misranking ratio on a training pool (1 − AUC, log scale)"
	if f.note != "" {
		title += " (" + f.note + ")"
	}
	legend := plotkit.NewLegend()
	runs := mergeDiagnoses(f.groups)
	mis, err := diagnosticsPanel(runs, title+"\nshare of positive–negative pairs ranked the wrong way; lower = better\n"+
		"a curve ends at its run's last epoch",
		"misranking ratio", true, legend, func(d experiment.Diagnosis) float64 { return float64(d.Misranking) })
	if err != nil {
		return err
	}
	share, err := diagnosticsPanel(runs, "first-order share of the severe-direction noise; higher = better\n"+
		"near 1: the noise shrinks like 1/B (B the batch), a step still corrects; near 0: pair noise (1/B²) alone\n"+
		"a curve ends early once no severe pair is left to measure",
		"first-order share", false, plotkit.NewLegend(), func(d experiment.Diagnosis) float64 { return float64(d.FirstOrderShare) })
	if err != nil {
		return err
	}
	mis.Y.Scale, mis.Y.Tick.Marker = plot.LogScale{}, plotkit.LogTicks{}
	return plotkit.SaveGridLegend(path, [][]*plot.Plot{{mis, share}}, legend, legendWidth, 14*vg.Inch, 5.5*vg.Inch)
}

// diagnosticsPanel plots get(d) against the epoch for every series, with a marker where each
// series' next phase starts, over the epochs of every series (so that panels align); with logY
// only positive values, for a logarithmic axis. It adds the entries to legend.
func diagnosticsPanel(runs []series, title, ylabel string, logY bool, legend *plot.Legend,
	get func(experiment.Diagnosis) float64) (*plot.Plot, error) {
	p := plotkit.NewPanel(title, "epoch", ylabel)
	lo, hi := math.Inf(1), math.Inf(-1)
	var drawn []int // the series with a point in this panel
	p.X.Min, p.X.Max = 0, 1
	for c, s := range runs {
		p.X.Max = max(p.X.Max, float64(s.result.Diagnostics[len(s.result.Diagnostics)-1].Epoch))
		name := strings.Join(s.names, " = ")
		var pts plotter.XYs
		for _, d := range s.result.Diagnostics {
			if v := get(d); !math.IsNaN(v) && !math.IsInf(v, 0) && (v > 0 || !logY) {
				pts = append(pts, plotter.XY{X: float64(d.Epoch), Y: v})
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if len(pts) == 0 {
			continue
		}
		var dashes []vg.Length
		if s.result.Phases > 1 {
			dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		l, err := plotkit.Line(name, pts, plotutil.Color(c), dashes)
		if err != nil {
			return nil, err
		}
		p.Add(l)
		drawn = append(drawn, c)
		legend.Add(name, l)
	}
	if math.IsInf(lo, 0) {
		return p, nil
	}
	if !logY {
		lo, hi = 0, 1
		p.Y.Min, p.Y.Max = 0, 1
	}
	at := map[int]int{} // phase lines drawn at each epoch so far, set apart so that none hides another
	for _, c := range drawn {
		s, name := runs[c].result, strings.Join(runs[c].names, " = ")
		e := nextPhase(&s)
		if e == 0 {
			continue
		}
		x := float64(e) - 0.5 + 0.12*float64(at[e])
		at[e]++
		m, err := plotkit.Line(name, plotter.XYs{{X: x, Y: lo}, {X: x, Y: hi}},
			plotutil.Color(c), []vg.Length{vg.Points(1.5), vg.Points(2.5)})
		if err != nil {
			return nil, err
		}
		m.Width = vg.Points(1.2)
		p.Add(m)
		what := "fine-tuning"
		if s.WarmupEpochs > 0 {
			what = s.Loss
		}
		what = fmt.Sprintf("%s: %s from %d", name, what, e)
		if s.KeptPhases < s.Phases {
			what += ", not kept"
		}
		legend.Add(what, m)
	}
	return p, nil
}
