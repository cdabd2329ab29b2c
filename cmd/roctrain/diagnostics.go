package main

import (
	"fmt"
	"math"
	"path/filepath"
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
	runs := experiment.MergeDiagnoses(f.groups)
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
		last = max(last, s.Result.Diagnostics[len(s.Result.Diagnostics)-1].Epoch)
	}
	for _, p := range []*plot.Plot{mis, share} {
		p.X.Min, p.X.Max = 0, float64(last) // the same epochs in both panels
	}
	return plotkit.SaveGridLegend(path, [][]*plot.Plot{{mis, share}}, legend, legendWidth, 14*vg.Inch, 5.5*vg.Inch)
}

// diagnosticsPanel plots get(d) against the epoch for every series, with a marker where each
// series' next phase starts; with logY only positive values, for a logarithmic axis. With a
// legend it adds the entries there.
func diagnosticsPanel(runs []experiment.Series, title, ylabel string, logY bool, legend *plot.Legend,
	get func(experiment.Diagnosis) float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	lo, hi := math.Inf(1), math.Inf(-1)
	var starts []int
	for c, s := range runs {
		name := strings.Join(s.Names, " = ")
		var pts plotter.XYs
		for _, d := range s.Result.Diagnostics {
			if v := get(d); !math.IsNaN(v) && !math.IsInf(v, 0) && (v > 0 || !logY) {
				pts = append(pts, plotter.XY{X: float64(d.Epoch), Y: v})
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if len(pts) == 0 {
			continue
		}
		var dashes []vg.Length
		if s.Result.Phases > 1 {
			dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		l, err := plotkit.Line(name, pts, plotutil.Color(c), dashes)
		if err != nil {
			return nil, err
		}
		p.Add(l)
		starts = append(starts, s.Result.NextPhase())
		if legend != nil {
			legend.Add(name, l)
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
		s, name := runs[c].Result, strings.Join(runs[c].Names, " = ")
		m, err := plotkit.Line(name, plotter.XYs{{X: float64(e) - 0.5, Y: lo}, {X: float64(e) - 0.5, Y: hi}},
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
		if s.Fallback() {
			what += ", not kept"
		}
		if legend != nil {
			legend.Add(what, m)
		}
	}
	return p, nil
}
