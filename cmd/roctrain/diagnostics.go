package main

import (
	"fmt"
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

// diagnosticsPath is the PNG of the diagnostics beside the ROC plot: "roc.png" gives
// "roc-diagnostics.png" in the same folder.
func diagnosticsPath(rocPath string) string {
	ext := filepath.Ext(rocPath)
	return strings.TrimSuffix(rocPath, ext) + "-diagnostics" + ext
}

// series is one curve of the diagnostics plot: a run's diagnoses, named by the runs that
// share them.
type series struct {
	name    string
	r       seedResult
	warmups bool // the run starts with a warm-up or a cross-entropy phase
}

// diagnosticSeries draws a group's runs once when their diagnoses are a prefix of its longest
// run's, as a plain ce run's are of the first phase of a kde run that kept it.
func diagnosticSeries(f figure) []series {
	var out []series
	for _, g := range f.groups {
		g = slices.Clone(g)
		slices.SortStableFunc(g, func(a, b seedResult) int { return len(b.Diagnostics) - len(a.Diagnostics) })
		var names []string
		for _, r := range g[1:] {
			if n := len(r.Diagnostics); n > 0 && sameValues(r.Diagnostics, g[0].Diagnostics[:n]) {
				names = append(names, r.Name)
			} else if len(r.Diagnostics) > 0 {
				out = append(out, series{name: r.Name, r: r, warmups: r.Phases > 1})
			}
		}
		if len(g[0].Diagnostics) > 0 {
			out = append(out, series{name: strings.Join(append([]string{g[0].Name}, names...), " = "), r: g[0], warmups: g[0].Phases > 1})
		}
	}
	return out
}

// sameValues reports whether a and b hold the same diagnoses bit for bit, whatever phase
// they are labelled with (a ce run's main epochs are a kde run's warm-up). %v writes each
// float as the shortest text that reads back to it, and NaN as "NaN".
func sameValues(a, b []experiment.Diagnosis) bool {
	text := func(ds []experiment.Diagnosis) string {
		ds = slices.Clone(ds)
		for k := range ds {
			ds[k].Phase = ""
		}
		return fmt.Sprint(ds)
	}
	return text(a) == text(b)
}

// phaseStart is the epoch at which r's main phase follows its warm-up (or cross-entropy
// phase), 0 when it has none.
func phaseStart(r seedResult) int {
	for k := 1; k < len(r.Diagnostics); k++ {
		if r.Diagnostics[k-1].Phase == "warmup" && r.Diagnostics[k].Phase == "main" {
			return r.Diagnostics[k].Epoch
		}
	}
	return 0
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
	legend := newLegend()
	runs := diagnosticSeries(f)
	mis, err := diagnosticsPanel(runs, title+"\nshare of positive–negative pairs ranked the wrong way; lower = better",
		"misranking ratio", true, legend, func(d experiment.Diagnosis) float64 { return float64(d.Misranking) })
	if err != nil {
		return err
	}
	share, err := diagnosticsPanel(runs, "first-order share of the severe-direction noise\n"+
		"share that shrinks like 1/B in the batch size B; near 1 = healthy, near 0 = stalled",
		"first-order share", false, nil, func(d experiment.Diagnosis) float64 { return float64(d.FirstOrderShare) })
	if err != nil {
		return err
	}
	mis.Y.Scale, mis.Y.Tick.Marker = plot.LogScale{}, plotkit.LogTicks{}
	last := 1
	for _, s := range runs {
		last = max(last, s.r.Diagnostics[len(s.r.Diagnostics)-1].Epoch)
	}
	for _, p := range []*plot.Plot{mis, share} {
		p.X.Min, p.X.Max = 0, float64(last) // the same epochs in both panels
	}
	return plotkit.SaveGridLegend(path, [][]*plot.Plot{{mis, share}}, legend, legendWidth, 14*vg.Inch, 5.5*vg.Inch)
}

// diagnosticsPanel plots get(d) against the epoch for every series, with a marker where each
// series' next phase starts; with logY only positive values, for a logarithmic axis. With a
// legend it adds the entries there.
func diagnosticsPanel(runs []series, title, ylabel string, logY bool, legend *plot.Legend,
	get func(experiment.Diagnosis) float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	lo, hi := math.Inf(1), math.Inf(-1)
	var starts []int
	for c, s := range runs {
		var pts plotter.XYs
		for _, d := range s.r.Diagnostics {
			if v := get(d); !math.IsNaN(v) && !math.IsInf(v, 0) && (v > 0 || !logY) {
				pts = append(pts, plotter.XY{X: float64(d.Epoch), Y: v})
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if len(pts) == 0 {
			continue
		}
		var dashes []vg.Length
		if s.warmups {
			dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		l, err := line(s.name, pts, plotutil.Color(c), dashes)
		if err != nil {
			return nil, err
		}
		p.Add(l)
		starts = append(starts, phaseStart(s.r))
		if legend != nil {
			legend.Add(s.name, l)
		}
	}
	if math.IsInf(lo, 0) {
		return p, nil
	}
	if !logY {
		lo, hi = 0, 1
		p.Y.Min, p.Y.Max = 0, 1
	}
	for c, e := range starts {
		if e == 0 {
			continue
		}
		s := runs[c]
		m, err := line(s.name, plotter.XYs{{X: float64(e) - 0.5, Y: lo}, {X: float64(e) - 0.5, Y: hi}},
			plotutil.Color(c), []vg.Length{vg.Points(1.5), vg.Points(2.5)})
		if err != nil {
			return nil, err
		}
		m.Width = vg.Points(1.2)
		p.Add(m)
		what := "fine-tuning"
		if s.r.WarmupEpochs > 0 {
			what = s.r.Loss
		}
		what = fmt.Sprintf("%s: %s from %d", s.name, what, e)
		if s.r.Fallback() {
			what += ", not kept"
		}
		if legend != nil {
			legend.Add(what, m)
		}
	}
	return p, nil
}
