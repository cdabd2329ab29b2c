package kdequantile

import (
	"fmt"
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// Config.Tail checked against its definition written out with the reference helpers of
// helpers_test.go: ψ(u) = σ(u; v1) for u ≤ 0 and 1/2 + v1·u/4 for u > 0, u = τ − f_i.

// refTail is ψ(u; v).
func refTail(u, v float64) float64 {
	if u <= 0 {
		return refSigma(v * u)
	}
	return 0.5 + v*u/4
}

// refTailSlope is ψ′(u; v).
func refTailSlope(u, v float64) float64 {
	if u <= 0 {
		return v * refSigma(v*u) * refSigma(-v*u)
	}
	return v / 4
}

var tailCases = []struct {
	cfg          Config
	n            int
	posFrac, sep float64
}{
	{Config{Alpha: 0.05, Tail: true}, 200, 0.2, 1},
	{Config{Alpha: 0.3, V0: 2, V1: 3, Tail: true}, 30, 0.3, 0.5},
	{Config{Recall: 0.9, Tail: true}, 300, 0.3, 1.5},
	{Config{Recall: 0.8, V0: 1, V1: 4, Tail: true}, 40, 0.4, 1},
}

// TestTailValues: τ is that of the plain loss, bit for bit; L is the mean of ψ over the
// positives (with Recall: of ψ(f_j − τ; v0) over the negatives) and at least the plain L.
func TestTailValues(t *testing.T) {
	for i, c := range tailCases {
		t.Run(fmt.Sprintf("%+v", c.cfg), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(600+i), 7, c.n, c.posFrac, c.sep)
			r := mustEvaluate(t, scores, labels, c.cfg)
			plainCfg := c.cfg
			plainCfg.Tail = false
			plain := mustEvaluate(t, scores, labels, plainCfg)
			require.Equal(t, plain.Tau, r.Tau, "τ or bandwidths differ from the plain loss: %+v vs %+v", r, plain)
			require.Equal(t, plain.V0, r.V0, "τ or bandwidths differ from the plain loss: %+v vs %+v", r, plain)
			require.Equal(t, plain.V1, r.V1, "τ or bandwidths differ from the plain loss: %+v vs %+v", r, plain)
			neg, pos := classes(scores, labels)
			var terms []float64
			if c.cfg.Recall == 0 {
				for _, f := range pos {
					terms = append(terms, refTail(r.Tau-f, r.V1))
				}
			} else {
				for _, f := range neg {
					terms = append(terms, refTail(f-r.Tau, r.V0))
				}
			}
			want := refSum(terms) / float64(len(terms))
			require.LessOrEqual(t, relErr(r.Loss, want, 0), 1e-13, "L = %.17g, definition %.17g", r.Loss, want)
			require.Greater(t, r.Loss, plain.Loss, "L = %v is not above the plain loss %v", r.Loss, plain.Loss)
		})
	}
}

// TestTailGradient compares ∂L/∂f with finite differences at fixed bandwidths and checks the
// gradient balance with dL/dτ = mean ψ′ over the loss's class (negated with Recall).
func TestTailGradient(t *testing.T) {
	for i, c := range tailCases {
		t.Run(fmt.Sprintf("%+v", c.cfg), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(700+i), 7, c.n, c.posFrac, c.sep)
			r0 := mustEvaluate(t, scores, labels, c.cfg)
			cfg := c.cfg
			cfg.V0, cfg.V1 = r0.V0, r0.V1
			g, r := mustGradient(t, scores, labels, cfg)
			h := fdStep / math.Max(cfg.V0, cfg.V1)
			fd := numeric(t, scores, h, func(f []float64) float64 { return mustEvaluate(t, f, labels, cfg).Loss })
			diff := relDiff(g, fd)
			require.LessOrEqual(t, diff, tolFD, "∂L/∂f differs from finite differences by %.3g", diff)
			var gNeg, gPos, slopes []float64
			for i, f := range scores {
				if labels[i] == 1 {
					gPos = append(gPos, g[i])
					if cfg.Recall == 0 {
						slopes = append(slopes, refTailSlope(r.Tau-f, r.V1))
					}
				} else {
					gNeg = append(gNeg, g[i])
					if cfg.Recall != 0 {
						slopes = append(slopes, -refTailSlope(f-r.Tau, r.V0))
					}
				}
			}
			d := refSum(slopes) / float64(len(slopes)) // dL/dτ
			// The class that sets τ (the negatives; with Recall the positives) sums to dL/dτ,
			// the other to −dL/dτ.
			sumTau, sumLoss, total := refSum(gNeg), refSum(gPos), refSum(g)
			if cfg.Recall != 0 {
				sumTau, sumLoss = sumLoss, sumTau
			}
			require.LessOrEqual(t, relErr(sumTau, d, 0), tolBalance, "Σ over the τ class = %.17g, over the other = %.17g, Σ = %.3g; dL/dτ = %.17g", sumTau, sumLoss, total, d)
			require.LessOrEqual(t, relErr(sumLoss, -d, 0), tolBalance, "Σ over the τ class = %.17g, over the other = %.17g, Σ = %.3g; dL/dτ = %.17g", sumTau, sumLoss, total, d)
			require.LessOrEqual(t, math.Abs(total), tolBalance*math.Abs(d), "Σ over the τ class = %.17g, over the other = %.17g, Σ = %.3g; dL/dτ = %.17g", sumTau, sumLoss, total, d)
		})
	}
}

// TestTailKeepsHopelessPositivesGradient: a positive 200 kernel widths below τ gets
// −v1/(4|B1|) with Tail, where the plain loss gives it e^{−200}·v1/|B1| (zero to float64
// precision next to the others).
func TestTailKeepsHopelessPositivesGradient(t *testing.T) {
	scores := []float64{-1, -0.5, 0, 0.5, 1, 1.5, 1.2, -200}
	labels := []float64{0, 0, 0, 0, 0, 1, 1, 1}
	cfg := Config{Alpha: 0.2, V0: 1, V1: 1, Tail: true}
	g, _ := mustGradient(t, scores, labels, cfg)
	want := -1.0 / (4 * 3)
	require.InDelta(t, want, g[7], 1e-15, "∂L/∂f of the hopeless positive = %v, want %v", g[7], want)
	cfg.Tail = false
	g, _ = mustGradient(t, scores, labels, cfg)
	require.LessOrEqual(t, math.Abs(g[7]), 1e-80, "plain loss: ∂L/∂f of the hopeless positive = %v, want about e^{−200}/3", g[7])
}

// TestWiden: Config.Widen divides the rule's inverse bandwidths (with Alpha and with Recall),
// leaves given ones alone and leaves τ the solution of its equation at the wider kernel.
func TestWiden(t *testing.T) {
	scores, labels := testbatch.Shifted(801, 7, 300, 0.2, 1.5)
	neg, pos := classes(scores, labels)
	for _, point := range []Config{{Alpha: 0.05}, {Recall: 0.9}} {
		base := mustEvaluate(t, scores, labels, point)
		wide := point
		wide.Widen = 2
		r := mustEvaluate(t, scores, labels, wide)
		require.Equal(t, base.V0/2, r.V0, "%+v: bandwidths (%v, %v), want half of (%v, %v)", wide, r.V0, r.V1, base.V0, base.V1)
		require.Equal(t, base.V1/2, r.V1, "%+v: bandwidths (%v, %v), want half of (%v, %v)", wide, r.V0, r.V1, base.V0, base.V1)
		if point.Alpha != 0 {
			fpr := refFPR(neg, r.V0, r.Tau)
			require.InDelta(t, point.Alpha, fpr, tolRecall, "smoothed FPR at τ = %v, want %v", fpr, point.Alpha)
		} else {
			tpr := refTPR(pos, r.V1, r.Tau)
			require.InDelta(t, point.Recall, tpr, tolRecall, "smoothed TPR at τ = %v, want %v", tpr, point.Recall)
		}
		fixed := wide
		fixed.V0, fixed.V1 = 3, 4
		r = mustEvaluate(t, scores, labels, fixed)
		require.Equal(t, 3.0, r.V0, "given bandwidths changed by Widen: %+v", r)
		require.Equal(t, 4.0, r.V1, "given bandwidths changed by Widen: %+v", r)
	}
	for _, w := range []float64{-1, math.NaN(), math.Inf(1), 1e-9, 1e9} {
		_, err := Evaluate(scores, labels, Config{Alpha: 0.1, Widen: w})
		require.ErrorIs(t, err, rocops.ErrConfig, "Widen %v: %v, want ErrConfig naming Widen", w, err)
		require.Contains(t, err.Error(), "Widen = ", "Widen %v: %v, want ErrConfig naming Widen", w, err)
	}
}
