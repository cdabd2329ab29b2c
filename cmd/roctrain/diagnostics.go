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
// (right) against the epoch. Each loss has its colour; direct runs are solid lines and
// warm-started runs ("+wu") dashed, their first epochs being the cross-entropy warm-up.
func plotDiagnostics(path string, runs []seedResult, note string) error {
	title := "misranking ratio on a training pool (log scale)"
	if note != "" {
		title += " (" + note + ")"
	}
	mis, err := diagnosticsPanel(runs, title, "misranking ratio", true, func(d experiment.Diagnosis) float64 { return float64(d.Misranking) })
	if err != nil {
		return err
	}
	share, err := diagnosticsPanel(runs, "first-order share of the severe-direction noise", "first-order share", false,
		func(d experiment.Diagnosis) float64 { return float64(d.FirstOrderShare) })
	if err != nil {
		return err
	}
	share.Y.Min, share.Y.Max = 0, 1
	share.Legend.Top = false // the shares start near 1
	mis.Y.Scale, mis.Y.Tick.Marker = plot.LogScale{}, plotkit.LogTicks{}
	return plotkit.SaveGrid(path, [][]*plot.Plot{{mis, share}}, 12*vg.Inch, 5*vg.Inch)
}

// diagnosticsPanel plots get(d) against the epoch for every run; with logY only positive
// values, for a logarithmic axis.
func diagnosticsPanel(runs []seedResult, title, ylabel string, logY bool, get func(experiment.Diagnosis) float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	colours := map[string]int{}
	for _, r := range runs {
		if len(r.Diagnostics) == 0 {
			continue
		}
		c, ok := colours[r.Loss]
		if !ok {
			c = len(colours)
			colours[r.Loss] = c
		}
		var pts plotter.XYs
		for _, d := range r.Diagnostics {
			if v := get(d); !math.IsNaN(v) && !math.IsInf(v, 0) && (v > 0 || !logY) {
				pts = append(pts, plotter.XY{X: float64(d.Epoch), Y: v})
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("plotting %s: %w", r.Name, err)
		}
		l.Color = plotutil.Color(c)
		l.Width = vg.Points(1.8)
		label := r.Name + " (direct)"
		if r.WarmupEpochs > 0 {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
			label = fmt.Sprintf("%s (after %d CE epochs)", r.Loss, r.WarmupEpochs)
		}
		p.Add(l)
		p.Legend.Add(label, l)
	}
	return p, nil
}
