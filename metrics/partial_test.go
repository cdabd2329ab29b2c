package metrics

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPartialAUCTinyMaxFPR: the standardised partial AUC is continuous as maxFPR = β → 0,
// down to the smallest float64. Its limit is ½(1 + TPR(0)), TPR(0) the share of positives
// above every negative: the mean TPR over [0, β] tends to TPR(0) and β²/2 vanishes. Before,
// A − β²/2 and β − β²/2 underflowed, and β = 5e-324 gave 0.5 instead of 0.8333.
func TestPartialAUCTinyMaxFPR(t *testing.T) {
	// Positives 3, 2, 0.5 and negatives 1, 0, −1: two of three positives above every
	// negative, so TPR(0) = 2/3 and the limit is 5/6. At β = 1/3 by hand: A = (1/3)(2/3) =
	// 2/9, pAUC = ½(1 + (2/9 − 1/18)/(1/3 − 1/18)) = 0.8.
	scores := []float64{3, 1, 2, 0, 0.5, -1}
	labels := []float64{1, 0, 1, 0, 1, 0}
	const tol = 1e-15 // a few roundings of numbers of order 1
	cases := []struct{ beta, want float64 }{
		{1.0 / 3, 0.8},
		// For β ≤ 1/3 the curve is flat at TPR 2/3: A = 2β/3 and
		// pAUC = ½(1 + (2/3 − β/2)/(1 − β/2)).
		{1e-3, 0.5 * (1 + (2.0/3-0.5e-3)/(1-0.5e-3))},
		{1e-300, 5.0 / 6},
		{1e-320, 5.0 / 6},
		{math.SmallestNonzeroFloat64, 5.0 / 6},
	}
	for _, c := range cases {
		got, err := PartialAUC(scores, labels, c.beta)
		require.NoError(t, err, "β = %g", c.beta)
		require.InDelta(t, c.want, got, tol, "PartialAUC(β = %g) = %v, want %v", c.beta, got, c.want)
	}
}
