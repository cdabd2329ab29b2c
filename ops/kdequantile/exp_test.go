package kdequantile

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ulps returns the distance between two positive floats in units in the last place.
func ulps(a, b float64) int64 {
	d := int64(math.Float64bits(a)) - int64(math.Float64bits(b))
	if d < 0 {
		return -d
	}
	return d
}

// TestExpSlice compares expSlice with math.Exp (itself within 1 ulp of e^x) on a grid over
// the table-driven range, random points, the range's ends and values outside it.
func TestExpSlice(t *testing.T) {
	const maxULP = 2
	xs := []float64{0, -0.0, 1, -1, math.Ln2 / 64, -math.Ln2 / 64, 700, -700, 709, -745, -746,
		math.Inf(1), math.Inf(-1), 1e-300, -1e-300}
	for i := range 200001 {
		xs = append(xs, -700+1400*float64(i)/200000)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		xs = append(xs, 60*rng.NormFloat64(), rng.Float64()-0.5)
	}
	xs = append(xs, math.NaN())
	got := slices.Clone(xs)
	expSlice(got)
	for i, x := range xs {
		want := math.Exp(x)
		if math.IsNaN(want) != math.IsNaN(got[i]) ||
			got[i] != want && (ulps(got[i], want) > maxULP || math.IsInf(want, 0) || want == 0) {
			t.Fatalf("expSlice(%v) = %v, math.Exp %v", x, got[i], want)
		}
	}
}
