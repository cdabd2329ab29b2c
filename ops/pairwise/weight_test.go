package pairwise

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/graph/gradcheck"
)

// TestWeightIsMinusDerivative checks Weight = −ℓ′ against the five-point differences of
// gradcheck.Numeric of the hand-written ℓ of naiveEll, away from the hinge kink x = m.
func TestWeightIsMinusDerivative(t *testing.T) {
	const (
		step  = 1e-4 // h = step·max(1, |x|): truncation ~h⁴|ℓ⁽⁵⁾| ≲ 1e-13, rounding ε|ℓ|/h ≲ 1e-10
		tolFD = 1e-7 // relative to max(|w|, 1), well above both errors
	)
	for _, s := range Surrogates() {
		for _, margin := range []float64{0, 0.5, 2} {
			m := margin
			if m == 0 {
				m = 1
			}
			for x := -4.9; x < 5; x += 0.35 {
				if math.Abs(x-m) < 3*step*math.Max(1, math.Abs(x)) {
					continue // the stencil would straddle the kink
				}
				t.Run(fmt.Sprintf("%v/margin=%v/x=%.2f", s, margin, x), func(t *testing.T) {
					d, err := gradcheck.Numeric(func(x []float64) (float64, error) { return naiveEll(s, m, x[0]), nil }, []float64{x}, step)
					require.NoError(t, err)
					w := Weight(s, margin, x)
					require.InDelta(t, -d[0], w, tolFD*math.Max(math.Abs(w), 1))
				})
			}
		}
	}
}

func TestWeightValues(t *testing.T) {
	cases := []struct {
		name      string
		s         Surrogate
		margin, x float64
		want      float64 // worked by hand from the formulas of Chen et al., arXiv 2610.21743, appendix E.1
	}{
		{"hinge at kink", Hinge, 0, 1, 0}, // subgradient convention
		{"hinge below kink", Hinge, 0, math.Nextafter(1, 0), 1},
		{"sqhinge at kink", SquaredHinge, 2, 2, 0},
		{"sqhinge active", SquaredHinge, 2, -1, 6}, // 2·(2 − (−1))
		{"square separated", Square, 0, 3, -4},     // 2·(1 − 3): still weighted, negatively
		{"logistic at 0", Logistic, 0, 0, 0.5},     // σ(0)
		{"logistic ignores margin", Logistic, 7, 0, 0.5},
		{"logistic severe tail", Logistic, 0, -800, 1}, // σ(800) without overflow
		{"logistic easy tail", Logistic, 0, 800, 0},    // e^−800 underflows to 0
		{"exp ignores margin", Exponential, 3, -1, math.E},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, Weight(c.s, c.margin, c.x))
		})
	}
	for _, bad := range []struct {
		s         Surrogate
		margin, x float64
	}{
		{Surrogate(9), 1, 0}, {Hinge, -1, 0}, {Hinge, math.NaN(), 0}, {Square, math.Inf(1), 0}, {Logistic, 1, math.NaN()},
	} {
		require.True(t, math.IsNaN(Weight(bad.s, bad.margin, bad.x)), "%+v", bad)
	}
}

// PairLoss is the hand-written ℓ of naiveEll (relative 1e-15: log1p against log(1 + ·) and
// one rounding of the squares) and NaN where Weight is.
func TestPairLoss(t *testing.T) {
	for _, s := range Surrogates() {
		for _, margin := range []float64{0, 0.5, 2} {
			m := margin
			if m == 0 {
				m = 1
			}
			for x := -4.9; x < 5; x += 0.35 {
				want := naiveEll(s, m, x)
				require.InDelta(t, want, PairLoss(s, margin, x), 1e-15*max(1, math.Abs(want)), "%v margin %v x %v", s, margin, x)
			}
		}
	}
	require.Equal(t, math.Log(2), PairLoss(Logistic, 0, 0))
	require.Equal(t, 800.0, PairLoss(Logistic, 0, -800)) // softplus(800) without overflow
	for _, bad := range []struct {
		s         Surrogate
		margin, x float64
	}{
		{Surrogate(9), 1, 0}, {Hinge, -1, 0}, {Hinge, math.NaN(), 0}, {Square, math.Inf(1), 0}, {Logistic, 1, math.NaN()},
	} {
		require.True(t, math.IsNaN(PairLoss(bad.s, bad.margin, bad.x)), "%+v", bad)
	}
}
