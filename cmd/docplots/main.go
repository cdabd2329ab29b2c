// Command docplots draws the figures of the project's documentation from the library's own
// code, so that they cannot drift from it. It writes the weight functions w(x) = −ℓ′(x) of the
// five pairwise surrogates (pairwise.Weight, default margin m = 1) to a PNG:
//
//	go run ./cmd/docplots                   # writes docs/img/pairwise-weights.png
//	go run ./cmd/docplots -out weights.png
package main

import (
	"flag"
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rocops/rocops/ops/pairwise"
)

// Plot window: margins x of severe misrankings (left) to well-separated pairs (right).
const (
	xMin, xMax = -3.0, 3.0
	yMin, yMax = -4.5, 8.5 // the exponential leaves the top at x ≈ −2.1: it keeps growing
	margin     = 1.0
)

// style gives each surrogate a colour, a dash pattern and a width, so that the lines stay
// apart in grey print too. Square and squared hinge coincide for x < m: the square is drawn
// wide and dotted under the squared hinge so that both show.
var style = map[pairwise.Surrogate]struct {
	color  color.RGBA
	dashes []vg.Length
	width  vg.Length
}{
	pairwise.Logistic:     {color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 255}, nil, 2},
	pairwise.Exponential:  {color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 255}, []vg.Length{vg.Points(6), vg.Points(3)}, 2},
	pairwise.Square:       {color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 255}, []vg.Length{vg.Points(3), vg.Points(3)}, 6},
	pairwise.Hinge:        {color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 255}, []vg.Length{vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}, 2},
	pairwise.SquaredHinge: {color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 255}, nil, 2},
}

var label = map[pairwise.Surrogate]string{
	pairwise.Logistic:     "logistic  σ(−x)",
	pairwise.Exponential:  "exponential  e^(−x)",
	pairwise.Square:       "square  2(m − x)",
	pairwise.Hinge:        "hinge  1{x < m}",
	pairwise.SquaredHinge: "squared hinge  2·max(m − x, 0)",
}

func main() {
	out := flag.String("out", filepath.Join("docs", "img", "pairwise-weights.png"), "PNG file to write")
	flag.Parse()
	if err := weights(*out); err != nil {
		fmt.Fprintln(os.Stderr, "docplots:", err)
		os.Exit(1)
	}
}

// weights draws w(x) of every surrogate on [xMin, xMax] and saves it to path.
func weights(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Pair weights w(x) = −ℓ′(x), margin m = %g", margin)
	p.X.Label.Text = "pair margin x = f_pos − f_neg"
	p.Y.Label.Text = "weight w(x)"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xMin, xMax, yMin, yMax
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker = ticks(xMin, xMax, 1)
	p.Y.Tick.Marker = ticks(-4, 8, 2)

	for _, ref := range []plotter.XYs{
		{{X: xMin, Y: 0}, {X: xMax, Y: 0}},
		{{X: margin, Y: yMin}, {X: margin, Y: yMax}},
	} {
		l, err := plotter.NewLine(ref)
		if err != nil {
			return err
		}
		l.Color = color.Gray{Y: 0x80}
		l.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
		p.Add(l)
	}

	for _, s := range pairwise.Surrogates() {
		f := plotter.NewFunction(func(x float64) float64 { return pairwise.Weight(s, margin, x) })
		f.Samples = 1201 // fine enough to draw the hinge's step at x = m as a vertical edge
		f.Color = style[s].color
		f.Dashes = style[s].dashes
		f.Width = style[s].width
		p.Add(f)
		p.Legend.Add(label[s], f)
	}
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(30)

	p.Legend.Padding = vg.Points(2)

	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return p.Save(7*vg.Inch, 4.5*vg.Inch, path)
}

// ticks labels every step from lo to hi.
func ticks(lo, hi, step float64) plot.ConstantTicks {
	var t plot.ConstantTicks
	for v := lo; v <= hi; v += step {
		t = append(t, plot.Tick{Value: v, Label: fmt.Sprintf("%g", v)})
	}
	return t
}
