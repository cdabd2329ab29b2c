package main

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWeightsWritesPNG: the figure is a decodable PNG of the requested size, 7 × 4.5 inches
// at gonum/plot's default 96 dpi for PNG.
func TestWeightsWritesPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "img", "w.png")
	require.NoError(t, weights(path))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	require.Equal(t, 7*96, img.Bounds().Dx())
	require.Equal(t, 432, img.Bounds().Dy()) // 4.5 × 96
}
