package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rocops/rocops/internal/plotkit"
	"github.com/rocops/rocops/ops/pairwise"
)

// lineStyle draws one kind of series the same way in every plot: fused ops in colour and
// solid, baselines dashed, floors dotted grey.
type lineStyle struct {
	color  color.Color
	dashes []vg.Length
}

var (
	blue   = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 255}
	green  = color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 255}
	orange = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 255}
	purple = color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 255}
	red    = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 255}
	grey   = color.Gray{Y: 0x60}

	dashed = []vg.Length{vg.Points(6), vg.Points(3)}
	dotted = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
)

// curve is one line of a plot.
type curve struct {
	label string
	style lineStyle
	xys   plotter.XYs
}

// kernelCurve is the time per call of a kernel against n.
func (r *report) kernelCurve(name, label string, st lineStyle) curve {
	c := curve{label: label, style: st}
	if s := r.kernel(name); s != nil {
		for _, p := range s.Points {
			c.xys = append(c.xys, plotter.XY{X: float64(p.N), Y: r.time(p).Median})
		}
		if s.Stopped != "" && label != "" {
			c.label += fmt.Sprintf(" (stopped at %s)", fmtN(s.StoppedAt))
		}
	}
	return c
}

// writePlots writes kde.png, pairwise.png, metrics.png and training.png to dir.
func writePlots(r *report, dir string) error {
	sigmoidFloor := r.kernelCurve("floor/sigmoid", "floor: n sigmoids", lineStyle{grey, dotted})
	sortFloor := r.kernelCurve("floor/sort", "floor: sort of n float64s", lineStyle{grey, dotted})

	kde := r.timePlot("KDE-quantile loss, value and gradient", []curve{
		r.kernelCurve("kde/gradient", "kdequantile.Gradient", lineStyle{blue, nil}),
		r.kernelCurve("kde/graph", "kdequantile.Loss graph, fwd+bwd", lineStyle{green, nil}),
		r.kernelCurve("naive/kde", "naive graph (sigmoids, bisection)", lineStyle{red, dashed}),
		sigmoidFloor,
	})
	if err := savePlot(kde, filepath.Join(dir, "kde.png"), 7*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}

	// One panel per surrogate, and a legend in the sixth.
	styles := []lineStyle{{blue, nil}, {green, nil}, {orange, nil}, {red, dashed}, {grey, dotted}}
	names := []string{"pairwise.Gradient, all pairs", "pairwise.Loss graph, fwd+bwd", "pairwise.Gradient, 4n sampled pairs",
		"naive graph, |B1|×|B0| matrix", "floor: sort of n float64s"}
	panels := [][]*plot.Plot{make([]*plot.Plot, 3), make([]*plot.Plot, 3)}
	for i, s := range pairwise.Surrogates() {
		p := "pairwise/" + s.String()
		curves := []curve{
			r.kernelCurve(p+"/exact", "", styles[0]), r.kernelCurve(p+"/graph", "", styles[1]),
			r.kernelCurve(p+"/sampled", "", styles[2]), r.kernelCurve("naive/pairwise/"+s.String(), "", styles[3]),
			r.kernelCurve("floor/sort", "", styles[4]),
		}
		panels[i/3][i%3] = r.timePlot(s.String(), curves)
	}
	legend := plot.New()
	legend.HideAxes()
	legend.Legend.Left, legend.Legend.Top = true, true
	legend.Legend.ThumbnailWidth = vg.Points(30)
	for i, name := range names {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			return err
		}
		l.Color, l.Dashes, l.Width = styles[i].color, styles[i].dashes, vg.Points(1.5)
		legend.Legend.Add(name, l)
	}
	legend.Title.Text = "Pairwise surrogates"
	panels[1][2] = legend
	if err := plotkit.SaveGrid(filepath.Join(dir, "pairwise.png"), panels, 12*vg.Inch, 7.5*vg.Inch); err != nil {
		return err
	}

	met := r.timePlot("ROC metrics", []curve{
		r.kernelCurve("metrics/auc", "metrics.AUC", lineStyle{blue, nil}),
		r.kernelCurve("metrics/roc", "metrics.ROC", lineStyle{green, nil}),
		r.kernelCurve("metrics/delong", "metrics.DeLong", lineStyle{orange, nil}),
		sortFloor,
	})
	if err := savePlot(met, filepath.Join(dir, "metrics.png"), 7*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}

	tr := r.trainingPlot()
	return savePlot(tr, filepath.Join(dir, "training.png"), 7*vg.Inch, 4.5*vg.Inch)
}

// timePlot is a log-log plot of time per call against n.
func (r *report) timePlot(title string, curves []curve) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "batch size n"
	p.Y.Label.Text = "time per call (s)"
	if r.Settings.Clock == cpuClock {
		p.Y.Label.Text = "processor time per call (s)"
	}
	r.drawCurves(p, curves, r.Settings.Sizes)
	return p
}

// trainingPlot is examples per second against the batch size, per loss and for the floor.
func (r *report) trainingPlot() *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Training an MLP %d→%d→1: examples per second", trainIn, trainHidden)
	p.X.Label.Text = "batch size"
	p.Y.Label.Text = "examples per second"
	if r.Settings.Clock == cpuClock {
		p.Y.Label.Text = "examples per second of processor time"
	}
	styles := map[string]lineStyle{"ce": {blue, nil}, "kde": {green, nil}, "sqhinge": {orange, nil},
		"logistic": {purple, nil}, matmulFloor: {grey, dotted}}
	labels := map[string]string{"ce": "cross-entropy", "kde": "KDE-quantile", "sqhinge": "squared hinge",
		"logistic": "logistic, all pairs", matmulFloor: "floor: the step's matrix products"}
	var curves []curve
	for _, l := range append(lossNames(), matmulFloor) {
		c := curve{label: labels[l], style: styles[l]}
		for _, t := range r.Training {
			if t.Loss == l {
				c.xys = append(c.xys, plotter.XY{X: float64(t.Batch), Y: t.ExamplesPerSecond})
			}
		}
		curves = append(curves, c)
	}
	r.drawCurves(p, curves, r.Settings.Batches)
	// Room below the curves keeps the legend clear of them.
	p.Y.Min /= 4
	p.Legend.Top, p.Legend.Left = false, true
	return p
}

// drawCurves adds the curves to p on log-log axes whose x range spans xs.
func (r *report) drawCurves(p *plot.Plot, curves []curve, xs []int) {
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.Y.Tick.Marker = plotkit.LogTicks{}
	p.Add(plotter.NewGrid())
	// Time grows with n, so the bottom right corner stays clear.
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.ThumbnailWidth = vg.Points(30)
	for _, c := range curves {
		if len(c.xys) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(c.xys)
		if err != nil {
			continue // a curve with a non-finite point is left out rather than failing the plot
		}
		l.Color, l.Dashes, l.Width = c.style.color, c.style.dashes, vg.Points(1.5)
		s.Color, s.Radius = c.style.color, vg.Points(2)
		p.Add(l, s)
		if c.label != "" {
			p.Legend.Add(c.label, l)
		}
	}
	p.X.Tick.Marker = powerTicks(xs)
	p.X.Min, p.X.Max = float64(xs[0])/1.25, float64(xs[len(xs)-1])*1.25
	switch { // a range a log axis can draw when there is one value or none
	case !(p.Y.Min > 0):
		p.Y.Min, p.Y.Max = 1e-6, 1
	case p.Y.Max == p.Y.Min:
		p.Y.Min, p.Y.Max = p.Y.Min/2, p.Y.Max*2
	}
}

// powerTicks labels the sizes, as 2^k for powers of two; with more than eight, every other.
func powerTicks(sizes []int) plot.ConstantTicks {
	var t plot.ConstantTicks
	step := 1
	if len(sizes) > 8 {
		step = 2
	}
	for i, n := range sizes {
		tick := plot.Tick{Value: float64(n)}
		if i%step == 0 {
			tick.Label = fmtN(n)
		}
		t = append(t, tick)
	}
	return t
}

func savePlot(p *plot.Plot, path string, w, h vg.Length) error {
	if err := p.Save(w, h, path); err != nil {
		return err
	}
	return os.Chmod(path, 0o644)
}
