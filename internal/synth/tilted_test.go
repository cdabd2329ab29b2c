package synth

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The draw has the documented shares: 20% positives and 15% of those near (−5, 4), each
// within four binomial standard deviations of 100 000 rows; the negatives' features have
// mean 0 and variance 1 within four standard errors; the same seed draws the same rows.
func TestTilted(t *testing.T) {
	const n = 100_000
	ds, err := Tilted(n, 7)
	require.NoError(t, err)
	require.Equal(t, n, ds.Rows)
	require.Equal(t, 2, ds.Cols)
	var pos, outliers, neg float64
	var sum, sumSq [2]float64
	for i := range n {
		x0, x1 := ds.X[2*i], ds.X[2*i+1]
		switch {
		case ds.Y[i] == 0:
			neg++
			for j, v := range []float64{x0, x1} {
				sum[j] += v
				sumSq[j] += v * v
			}
		case math.Hypot(x0+5, x1-4) < math.Hypot(x0-2.5, x1):
			pos++
			outliers++
		default:
			pos++
		}
	}
	share := func(got, of, p float64) {
		t.Helper()
		require.InDelta(t, p, got/of, 4*math.Sqrt(p*(1-p)/of))
	}
	share(pos, n, 0.2)
	share(outliers, pos, 0.15)
	for j := range 2 {
		mean := sum[j] / neg
		require.InDelta(t, 0, mean, 4/math.Sqrt(neg))
		require.InDelta(t, 1, sumSq[j]/neg-mean*mean, 4*math.Sqrt(2/neg))
	}
	again, err := Tilted(n, 7)
	require.NoError(t, err)
	require.Equal(t, ds.X, again.X)
	require.Equal(t, ds.Y, again.Y)
	other, err := Tilted(n, 8)
	require.NoError(t, err)
	require.NotEqual(t, ds.X, other.X)
}
