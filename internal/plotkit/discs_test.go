package plotkit

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Marks at one point become concentric discs, the earlier 2.5 points larger than the next;
// a mark alone keeps Disc's radius.
func TestDiscsAtOnePointAreConcentric(t *testing.T) {
	red := color.RGBA{R: 255, A: 255}
	marks := []Mark{{0.1, 1, red}, {0.2, 0.9, red}, {0.1, 1, red}, {0.1, 1, red}}
	want := []vg.Length{vg.Points(9), vg.Points(4), vg.Points(6.5), vg.Points(4)}
	ps := Discs(marks)
	require.Equal(t, len(marks), len(ps), "%d discs for %d marks", len(ps), len(marks))
	for i, p := range ps {
		d := p.(*plotter.Scatter)
		require.Equal(t, want[i], d.Radius, "disc %d: radius %v at %v, want %v at (%v, %v)", i, d.Radius, d.XYs[0], want[i], marks[i].X, marks[i].Y)
		require.Equal(t, marks[i].X, d.XYs[0].X, "disc %d: radius %v at %v, want %v at (%v, %v)", i, d.Radius, d.XYs[0], want[i], marks[i].X, marks[i].Y)
		require.Equal(t, marks[i].Y, d.XYs[0].Y, "disc %d: radius %v at %v, want %v at (%v, %v)", i, d.Radius, d.XYs[0], want[i], marks[i].X, marks[i].Y)
	}
}
