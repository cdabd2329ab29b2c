package plotkit

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Line is a 1.8-point line through pts in colour c with the dash pattern dashes (nil for a
// solid line); its error names what it plots.
func Line(what string, pts plotter.XYs, c color.Color, dashes []vg.Length) (*plotter.Line, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("plotting %s: %w", what, err)
	}
	l.Color, l.Dashes, l.Width = c, dashes, vg.Points(1.8)
	return l, nil
}

// Disc is a 4-point disc at (x, y) in colour c, which must be finite.
func Disc(x, y float64, c color.Color) *plotter.Scatter {
	s, _ := plotter.NewScatter(plotter.XYs{{X: x, Y: y}}) // one finite point: no error
	s.Color, s.Shape, s.Radius = c, draw.CircleGlyph{}, vg.Points(4)
	return s
}

// Mark is a point to draw as a disc, in its colour.
type Mark struct {
	X, Y  float64
	Color color.Color
}

// Discs returns a [Disc] for every mark, concentric where marks share a point: of those, the
// earlier is drawn first and 2.5 points larger, so that every one shows as a ring around the
// next.
func Discs(marks []Mark) []plot.Plotter {
	later := map[[2]float64]int{} // a point → the marks at it not yet drawn
	for _, m := range marks {
		later[[2]float64{m.X, m.Y}]++
	}
	ps := make([]plot.Plotter, len(marks))
	for i, m := range marks {
		at := [2]float64{m.X, m.Y}
		later[at]--
		d := Disc(m.X, m.Y, m.Color)
		d.Radius += vg.Points(2.5 * float64(later[at]))
		ps[i] = d
	}
	return ps
}

// NewLegend is a legend in 10-point text with 2 points between entries, for [SaveGridLegend].
func NewLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size, l.Padding = vg.Points(10), vg.Points(2)
	return &l
}

// NewPanel is a plot with a title, axis labels and a grid.
func NewPanel(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xLabel, yLabel
	p.Add(plotter.NewGrid())
	return p
}
