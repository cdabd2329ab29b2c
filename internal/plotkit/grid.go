package plotkit

import (
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/rocops/rocops/internal/atomicfile"
)

// SaveGrid draws plots as the tiles of one w × h PNG at path, plots[i][j] in row i and column
// j (every row as long as the first; a nil tile stays blank), their axes aligned, with 4 mm
// between tiles and 2 mm around them. The file is written atomically (package atomicfile), so
// an interrupted save leaves the previous picture.
func SaveGrid(path string, plots [][]*plot.Plot, w, h vg.Length) error {
	return SaveGridLegend(path, plots, nil, 0, w, h)
}

// SaveGridLegend is SaveGrid with one legend beside the tiles, outside every plot's data: the
// tiles take the left w − legendWidth of the picture and legend, when not nil, is drawn at
// the top left of the strip on the right.
func SaveGridLegend(path string, plots [][]*plot.Plot, legend *plot.Legend, legendWidth, w, h vg.Length) error {
	img := vgimg.New(w, h)
	c := draw.New(img)
	tiles := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: 4 * vg.Millimeter, PadY: 4 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 2 * vg.Millimeter}
	canvases := plot.Align(plots, tiles, draw.Crop(c, 0, -legendWidth, 0, 0))
	if legend != nil {
		legend.Top, legend.Left = true, true
		legend.Draw(draw.Crop(c, w-legendWidth, 0, 0, -14*vg.Millimeter))
	}
	for i, row := range plots {
		for j, p := range row {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
		return err
	})
}
