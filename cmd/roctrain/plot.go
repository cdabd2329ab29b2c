package main

import (
	"fmt"
	"image/color"
	"math"

	"github.com/rocops/rocops/internal/plotkit"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plotROC draws the test ROC curves of the runs of one seed into a PNG at path: the whole
// curve on the left and the low false-positive region, FPR ≤ min(1, 3α), on the right, with
// the line FPR = α and each run's deployed operating point marked in both. note, if not
// empty, is added to the left panel's title.
func plotROC(path string, results []seedResult, alpha float64, note string) error {
	title := "ROC curve"
	if note != "" {
		title += " (" + note + ")"
	}
	full, err := rocPanel(results, alpha, 1, 0, title)
	if err != nil {
		return err
	}
	zoomMax := math.Min(1, 3*alpha)
	zoom, err := rocPanel(results, alpha, zoomMax, zoomFloor(results), fmt.Sprintf("low-FPR region (FPR ≤ %.3g)", zoomMax))
	if err != nil {
		return err
	}
	return plotkit.SaveGrid(path, [][]*plot.Plot{{full, zoom}}, 12*vg.Inch, 5.5*vg.Inch)
}

// zoomFloor is the lower TPR limit of the low-FPR panel: a little below the lowest TPR any
// run reaches at FPR 0, so that the curves fill the panel.
func zoomFloor(results []seedResult) float64 {
	low := 1.0
	for _, r := range results {
		at0 := 0.0
		for k := range r.FPR {
			if r.FPR[k] == 0 {
				at0 = r.TPR[k]
			}
		}
		low = math.Min(low, at0)
	}
	return math.Max(0, math.Floor(low*10)/10-0.1)
}

// rocPanel plots every run's ROC curve for FPR in [0, xMax] and TPR in [yMin, 1], with a
// dashed line at FPR = α and a disc at each run's deployed operating point.
func rocPanel(results []seedResult, alpha, xMax, yMin float64, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "false-positive rate"
	p.Y.Label.Text = "true-positive rate"
	p.Add(plotter.NewGrid())
	p.Legend.Top = false
	p.Legend.Left = false
	for i, r := range results {
		pts := make(plotter.XYs, 0, len(r.FPR))
		for k := range r.FPR {
			pts = append(pts, plotter.XY{X: r.FPR[k], Y: r.TPR[k]})
			if r.FPR[k] > xMax {
				break // the segment that leaves the panel is clipped by the axes
			}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("plotting %s: %w", r.Name, err)
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.8)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (TPR@α %.3f)", r.Name, r.TestTPR), l)
		if r.DeployedTestFPR <= xMax && r.DeployedTestTPR >= yMin {
			dot, err := plotter.NewScatter(plotter.XYs{{X: r.DeployedTestFPR, Y: r.DeployedTestTPR}})
			if err != nil {
				return nil, fmt.Errorf("plotting %s: %w", r.Name, err)
			}
			dot.Color = plotutil.Color(i)
			dot.Shape = draw.CircleGlyph{}
			dot.Radius = vg.Points(4)
			p.Add(dot)
		}
	}
	legendDot, err := plotter.NewScatter(plotter.XYs{{X: -1, Y: -1}}) // off the axes; legend only
	if err != nil {
		return nil, err
	}
	legendDot.Color = color.Gray{Y: 60}
	legendDot.Shape = draw.CircleGlyph{}
	legendDot.Radius = vg.Points(4)
	p.Legend.Add("deployed (validation threshold)", legendDot)
	mark, err := plotter.NewLine(plotter.XYs{{X: alpha, Y: 0}, {X: alpha, Y: 1}})
	if err != nil {
		return nil, err
	}
	mark.Color = color.Gray{Y: 120}
	mark.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(mark)
	p.Legend.Add(fmt.Sprintf("FPR = α = %g", alpha), mark)
	// Set the ranges last: Add widens them to the data.
	p.X.Min, p.X.Max = 0, xMax
	p.Y.Min, p.Y.Max = yMin, 1
	return p, nil
}
