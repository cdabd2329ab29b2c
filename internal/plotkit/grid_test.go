package plotkit

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// SaveGrid writes one PNG of the requested size (at vgimg's default 96 dpi), nil tiles
// included, and leaves no temporary file.
func TestSaveGrid(t *testing.T) {
	line := func() *plot.Plot {
		p := plot.New()
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		require.NoError(t, err)
		p.Add(l)
		return p
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "grid.png")
	require.NoError(t, SaveGrid(path, [][]*plot.Plot{{line(), nil}, {line(), line()}}, 4*vg.Inch, 3*vg.Inch))
	w, h := pngSize(t, path)
	require.Equal(t, 384, w, "image %d×%d, want 384×288 (4×3 inches at 96 dpi)", w, h)
	require.Equal(t, 288, h, "image %d×%d, want 384×288 (4×3 inches at 96 dpi)", w, h)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err, "directory holds %v (%v), want the PNG alone", entries, err)
	require.Equal(t, 1, len(entries), "directory holds %v (%v), want the PNG alone", entries, err)
}

// SaveGridLegend keeps the requested size with a legend strip, and Line names what it plots
// in its error.
func TestSaveGridLegend(t *testing.T) {
	p := plot.New()
	l, err := Line("diagonal", plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, nil, nil)
	require.NoError(t, err)
	p.Add(l, Disc(0.5, 0.5, nil))
	legend := NewLegend()
	legend.Add("diagonal", l)
	path := filepath.Join(t.TempDir(), "legend.png")
	require.NoError(t, SaveGridLegend(path, [][]*plot.Plot{{p}}, legend, vg.Inch, 5*vg.Inch, 3*vg.Inch))
	w, h := pngSize(t, path)
	require.Equal(t, 480, w, "image %d×%d, want 480×288 (5×3 inches at 96 dpi)", w, h)
	require.Equal(t, 288, h, "image %d×%d, want 480×288 (5×3 inches at 96 dpi)", w, h)
	_, err = Line("nothing", plotter.XYs{{X: math.NaN(), Y: 0}}, nil, nil)
	require.Error(t, err, "a NaN point: %v, want an error naming what it plots", err)
	require.Contains(t, err.Error(), "plotting nothing", "a NaN point: %v, want an error naming what it plots", err)
}

// pngSize decodes the PNG at path and returns its size in pixels.
func pngSize(t *testing.T, path string) (w, h int) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img.Bounds().Dx(), img.Bounds().Dy()
}
