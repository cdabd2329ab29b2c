package main

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rocops/rocops/internal/plotkit"
	"github.com/rocops/rocops/ops/pairwise"
)

// plotTrajectories draws, for data set name, one panel per surrogate with the misranking
// ratio on the training pool against the epoch, averaged over the seeds: the direct run in
// black, the run after the cross-entropy warm-up in colour (dashed over its warm-up epochs),
// as Figure 5 of Chen et al. (arXiv 2610.21743) does; a sixth panel shows cross-entropy.
func plotTrajectories(path, name string, recs []record) error {
	var panels []*plot.Plot
	for _, sur := range append(pairwise.Surrogates(), -1) {
		p := plot.New()
		p.X.Label.Text = "epoch"
		p.Y.Label.Text = "misranking (log scale)"
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plotkit.LogTicks{}
		p.Add(plotter.NewGrid())
		runs := []struct {
			run    string
			colour color.Color
		}{{sur.String(), color.Black}, {sur.String() + "+wu", color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 255}}}
		p.Title.Text = fmt.Sprintf("%s: %v", name, sur)
		if sur < 0 {
			runs = runs[:1]
			runs[0].run = "ce"
			p.Title.Text = name + ": cross-entropy"
		}
		for _, r := range runs {
			pts, warm := meanTrajectory(recs, name, r.run)
			if len(pts) == 0 {
				continue
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			l.Color, l.Width = r.colour, vg.Points(1.8)
			p.Add(l)
			label := "direct"
			if warm > 0 {
				label = fmt.Sprintf("after %d CE epochs", warm)
				// Mark the warm-up part of the curve.
				w, err := plotter.NewLine(pts[:min(warm, len(pts))])
				if err != nil {
					return err
				}
				w.Color, w.Width = color.Gray{Y: 180}, vg.Points(4)
				p.Add(w)
				p.Add(l)
			}
			if r.run == "ce" {
				label = "cross-entropy"
			}
			p.Legend.Add(label, l)
		}
		p.Legend.Top = true
		panels = append(panels, p)
	}
	return plotkit.SaveGrid(path, [][]*plot.Plot{panels[:3], panels[3:]}, 13*vg.Inch, 8*vg.Inch)
}

// meanTrajectory returns the mean misranking over the seeds at each epoch of run on data set
// name, and the run's warm-up epochs.
func meanTrajectory(recs []record, name, run string) (plotter.XYs, int) {
	sum, n := map[int]float64{}, map[int]int{}
	warm, last := 0, 0
	for _, r := range recs {
		if r.Dataset != name || r.Run != run {
			continue
		}
		warm = r.Warmup
		for _, d := range r.Diagnoses {
			if d.Misranking > 0 {
				sum[d.Epoch] += d.Misranking
				n[d.Epoch]++
				last = max(last, d.Epoch)
			}
		}
	}
	var pts plotter.XYs
	for e := 1; e <= last; e++ {
		if n[e] > 0 {
			pts = append(pts, plotter.XY{X: float64(e), Y: sum[e] / float64(n[e])})
		}
	}
	return pts, warm
}
