package pairwise

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWeightIsMinusDerivative checks Weight = −ℓ′ against central differences of the
// hand-written ℓ of naiveEll, away from the hinge kink x = m.
func TestWeightIsMinusDerivative(t *testing.T) {
	const (
		h     = 1e-5 // step: truncation h²|ℓ‴|/6 ≲ 3e-9 and rounding ε|ℓ|/h ≲ 2e-9 for |x| ≤ 5
		tolFD = 1e-7 // relative to max(|w|, 1), well above both errors
	)
	for _, s := range Surrogates() {
		for _, margin := range []float64{0, 0.5, 2} {
			m := margin
			if m == 0 {
				m = 1
			}
			for x := -4.9; x < 5; x += 0.35 {
				if math.Abs(x-m) < 2*h {
					continue
				}
				t.Run(fmt.Sprintf("%v/margin=%v/x=%.2f", s, margin, x), func(t *testing.T) {
					fd := -(naiveEll(s, m, x+h) - naiveEll(s, m, x-h)) / (2 * h)
					w := Weight(s, margin, x)
					require.InDelta(t, fd, w, tolFD*math.Max(math.Abs(w), 1))
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
