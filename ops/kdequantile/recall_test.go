package kdequantile

import (
	"fmt"
	"math"
	"testing"

	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// The mirrored loss (Config.Recall) checked against the definitions written out with the
// reference helpers of helpers_test.go, which share no code with the package.

// tolRecall bounds |smoothed TPR at τ − r|: the solver's root is accurate to the rounding of
// φ, a sum of up to a few thousand terms of size ≤ 1, divided by |B1|.
const tolRecall = 1e-12

// refTPR is the smoothed true-positive rate (1/|B1|)·Σσ(v1·(f_i − τ)).
func refTPR(pos []float64, v1, tau float64) float64 { return refFPR(pos, v1, tau) }

var recallCases = []struct {
	n            int
	posFrac, sep float64
	recall       float64
	v0, v1       float64 // 0 = the batch rule
}{
	{n: 2, posFrac: 0.5, sep: 1, recall: 0.5, v0: 1, v1: 1},
	{n: 9, posFrac: 0.4, sep: 1, recall: 0.8, v0: 2, v1: 3},
	{n: 60, posFrac: 0.2, sep: 2, recall: 0.9},
	{n: 500, posFrac: 0.1, sep: 1.5, recall: 0.95},
	{n: 5000, posFrac: 0.3, sep: 1, recall: 0.99},
	{n: 5000, posFrac: 0.5, sep: 3, recall: 0.999999, v0: 4, v1: 0.5},
	{n: 1000, posFrac: 0.05, sep: 0.5, recall: 0.01},
}

// TestRecallOperatingPoint checks the definition of the mirrored loss: at the returned τ the
// smoothed true-positive rate is r, the loss is the smoothed false-positive rate there, the
// bandwidths are those of the batch's own classes (the same as with Alpha), and Threshold's τ
// is Evaluate's.
func TestRecallOperatingPoint(t *testing.T) {
	for i, c := range recallCases {
		t.Run(fmt.Sprintf("n=%d/recall=%v", c.n, c.recall), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(300+i), 7, c.n, c.posFrac, c.sep)
			cfg := Config{Recall: c.recall, V0: c.v0, V1: c.v1}
			r := mustEvaluate(t, scores, labels, cfg)
			neg, pos := classes(scores, labels)
			tpr := refTPR(pos, r.V1, r.Tau)
			require.InDelta(t, c.recall, tpr, tolRecall, "smoothed TPR at τ = %.17g is %.17g, want %v (off by %.2g)", r.Tau, tpr, c.recall, tpr-c.recall)
			fpr := refFPR(neg, r.V0, r.Tau)
			require.LessOrEqual(t, relErr(r.Loss, fpr, 1e-300), 1e-12, "L = %.17g, smoothed FPR at τ = %.17g", r.Loss, fpr)
			a := mustEvaluate(t, scores, labels, Config{Alpha: 0.1, V0: c.v0, V1: c.v1})
			require.Equal(t, a.V0, r.V0, "bandwidths (%v, %v), with Alpha (%v, %v): the rule must not depend on the operating point", r.V0, r.V1, a.V0, a.V1)
			require.Equal(t, a.V1, r.V1, "bandwidths (%v, %v), with Alpha (%v, %v): the rule must not depend on the operating point", r.V0, r.V1, a.V0, a.V1)
			_, tau, err := thresholdGradient(scores, labels, cfg)
			require.NoError(t, err, "the Threshold op's τ = %v, %v; Evaluate's τ = %v", tau, err, r.Tau)
			require.Equal(t, r.Tau, tau, "the Threshold op's τ = %v, %v; Evaluate's τ = %v", tau, err, r.Tau)
		})
	}
}

// TestRecallIsMirroredAlpha checks the identity the implementation rests on, bit for bit:
// Recall r on (f, y) is Alpha 1 − r on (−f, 1 − y) with the bandwidths swapped, τ negated and
// the gradient negated.
func TestRecallIsMirroredAlpha(t *testing.T) {
	scores, labels := testbatch.Shifted(41, 7, 300, 0.2, 1.5)
	mf, my := make([]float64, len(scores)), make([]float64, len(scores))
	for i := range scores {
		mf[i], my[i] = -scores[i], 1-labels[i]
	}
	recall := 0.9 // a variable: 1 − recall rounds as in the package, unlike the constant 1 − 0.9
	for _, v := range [][2]float64{{0, 0}, {2, 5}} {
		g, r := mustGradient(t, scores, labels, Config{Recall: recall, V0: v[0], V1: v[1]})
		mg, mr := mustGradient(t, mf, my, Config{Alpha: 1 - recall, V0: v[1], V1: v[0]})
		require.Equal(t, -mr.Tau, r.Tau, "v=%v: %+v, mirrored %+v", v, r, mr)
		require.Equal(t, mr.Loss, r.Loss, "v=%v: %+v, mirrored %+v", v, r, mr)
		require.Equal(t, mr.V1, r.V0, "v=%v: %+v, mirrored %+v", v, r, mr)
		require.Equal(t, mr.V0, r.V1, "v=%v: %+v, mirrored %+v", v, r, mr)
		for i := range g {
			require.Equal(t, -mg[i], g[i], "v=%v: ∂L/∂f[%d] = %v, mirrored −%v", v, i, g[i], mg[i])
		}
	}
}

// TestRecallGradientFiniteDifferences compares ∂L/∂f and ∂τ/∂f of the mirrored loss with
// five-point differences of Evaluate at fixed bandwidths (tolFD of gradient_test.go).
func TestRecallGradientFiniteDifferences(t *testing.T) {
	for i, c := range recallCases[:4] {
		t.Run(fmt.Sprintf("n=%d/recall=%v", c.n, c.recall), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(400+i), 7, c.n, c.posFrac, c.sep)
			// Fix the bandwidths at the rule's values so finite differences hold them too.
			r0 := mustEvaluate(t, scores, labels, Config{Recall: c.recall, V0: c.v0, V1: c.v1})
			cfg := Config{Recall: c.recall, V0: r0.V0, V1: r0.V1}
			g, _ := mustGradient(t, scores, labels, cfg)
			h := fdStep / math.Max(cfg.V0, cfg.V1)
			fd := numeric(t, scores, h, func(f []float64) float64 { return mustEvaluate(t, f, labels, cfg).Loss })
			d := relDiff(g, fd)
			require.LessOrEqual(t, d, tolFD, "∂L/∂f differs from finite differences by %.3g:\n got %v\nwant %v", d, g, fd)
			w, _, err := thresholdGradient(scores, labels, cfg)
			require.NoError(t, err)
			fdTau := numeric(t, scores, h, func(f []float64) float64 { return mustEvaluate(t, f, labels, cfg).Tau })
			d = relDiff(w, fdTau)
			require.LessOrEqual(t, d, tolFD, "∂τ/∂f differs from finite differences by %.3g:\n got %v\nwant %v", d, w, fdTau)
			for i, wi := range w {
				require.False(t, labels[i] == 0 && wi != 0, "∂τ/∂f of negative %d = %v, want 0 (τ is set by the positives)", i, wi)
			}
		})
	}
}

// TestRecallGradientBalance checks the balance of the mirrored loss: with
// D = (1/|B0|)·Σ_{B0} σ′(f_j − τ; v0), the negatives' gradients add up to D, the positives'
// to −D, and all of them to zero (shifting every score moves τ with them and leaves L).
func TestRecallGradientBalance(t *testing.T) {
	for i, c := range recallCases {
		t.Run(fmt.Sprintf("n=%d/recall=%v", c.n, c.recall), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(500+i), 7, c.n, c.posFrac, c.sep)
			g, r := mustGradient(t, scores, labels, Config{Recall: c.recall, V0: c.v0, V1: c.v1})
			var gNeg, gPos, dens []float64
			for i, f := range scores {
				if labels[i] == 0 {
					z := r.V0 * (f - r.Tau)
					dens = append(dens, r.V0*refSigma(z)*refSigma(-z))
					gNeg = append(gNeg, g[i])
				} else {
					gPos = append(gPos, g[i])
				}
			}
			d := refSum(dens) / float64(len(dens))
			sumNeg, sumPos, total := refSum(gNeg), refSum(gPos), refSum(g)
			require.LessOrEqual(t, relErr(sumNeg, d, 0), tolBalance, "Σ_B0 = %.17g, Σ_B1 = %.17g, Σ = %.3g; D = %.17g", sumNeg, sumPos, total, d)
			require.LessOrEqual(t, relErr(sumPos, -d, 0), tolBalance, "Σ_B0 = %.17g, Σ_B1 = %.17g, Σ = %.3g; D = %.17g", sumNeg, sumPos, total, d)
			require.LessOrEqual(t, math.Abs(total), tolBalance*d, "Σ_B0 = %.17g, Σ_B1 = %.17g, Σ = %.3g; D = %.17g", sumNeg, sumPos, total, d)
		})
	}
}
