package kdequantile

import (
	"fmt"
	"math"
	"testing"

	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

const (
	// tolTau bounds |τ − τ_ref| relative to max(1, |τ|). The reference bisects to 1e-15; the
	// rest is the conditioning of the root, whose error is the FPR's rounding divided by the
	// FPR's slope, small in the tails (α = 0.999).
	tolTau = 1e-11
	// tolLoss bounds the relative error of L against a directly summed F̂_1(τ_ref): rounding
	// of sums of up to 1e5 terms and the propagation of τ's error.
	tolLoss = 1e-11
	// tolRule bounds the relative error of a batch-chosen bandwidth against the rule written
	// out with a two-pass standard deviation.
	tolRule = 1e-12
)

func TestEvaluateMatchesReference(t *testing.T) {
	cases := []struct {
		n             int
		posFrac, sep  float64
		alpha, v0, v1 float64 // v = 0: the batch rule
		sorted        bool    // negatives first: whole blocks of one class
	}{
		{n: 2, posFrac: 0.5, sep: 1, alpha: 0.5, v0: 1, v1: 1},
		{n: 10, posFrac: 0.3, sep: 1, alpha: 0.05},
		{n: 100, posFrac: 0.1, sep: 2, alpha: 0.05, v0: 3, v1: 0.5},
		{n: 1000, posFrac: 0.1, sep: 1.5, alpha: 0.001},
		{n: 1000, posFrac: 0.5, sep: 0, alpha: 0.5},
		{n: 1000, posFrac: 0.02, sep: 3, alpha: 0.999},
		{n: 5000, posFrac: 0.1, sep: 1.5, alpha: 0.2, v0: 40, v1: 40},
		{n: 100000, posFrac: 0.1, sep: 1.5, alpha: 0.05},
		{n: 20000, posFrac: 0.3, sep: 1, alpha: 0.1, sorted: true},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%d/n=%d/alpha=%v/v0=%v", i, c.n, c.alpha, c.v0), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(i), 7, c.n, c.posFrac, c.sep)
			if c.sorted {
				sortByLabel(scores, labels)
			}
			got := mustEvaluate(t, scores, labels, Config{Alpha: c.alpha, V0: c.v0, V1: c.v1})
			neg, pos := classes(scores, labels)
			wantV0, wantV1 := c.v0, c.v1
			if wantV0 == 0 {
				wantV0 = refRuleV(refStd(neg), len(neg))
			}
			if wantV1 == 0 {
				wantV1 = refRuleV(refStd(pos), len(pos))
			}
			require.LessOrEqual(t, relErr(got.V0, wantV0, 0), tolRule, "bandwidths (%v, %v), want (%v, %v)", got.V0, got.V1, wantV0, wantV1)
			require.LessOrEqual(t, relErr(got.V1, wantV1, 0), tolRule, "bandwidths (%v, %v), want (%v, %v)", got.V0, got.V1, wantV0, wantV1)
			tau := refTau(neg, got.V0, c.alpha)
			require.LessOrEqual(t, relErr(got.Tau, tau, 1), tolTau, "τ = %.17g, reference %.17g", got.Tau, tau)
			l := refLoss(pos, got.V1, tau)
			require.LessOrEqual(t, relErr(got.Loss, l, 0), tolLoss, "L = %.17g, reference %.17g", got.Loss, l)
		})
	}
}

// TestEvaluateHandWorked checks cases solved on paper.
func TestEvaluateHandWorked(t *testing.T) {
	const tol = 1e-15 // a few roundings of values of order 1
	cases := []struct {
		name           string
		scores, labels []float64
		cfg            Config
		tau, loss      float64
	}{
		// σ(τ + 1) + σ(τ − 1) = 2·0.5 has the root τ = 0 by symmetry; then
		// L = (σ(0) + σ(−ln 3))/2 = (1/2 + 1/4)/2.
		{"symmetric", []float64{-1, 1, 0, math.Log(3)}, []float64{0, 0, 1, 1},
			Config{Alpha: 0.5, V0: 1, V1: 1}, 0, 3.0 / 8},
		// One negative at 0: σ(τ) = 0.8 gives τ = ln 4; the positive at ln 4 has σ(0) = 1/2.
		{"one negative", []float64{0, math.Log(4)}, []float64{0, 1},
			Config{Alpha: 0.2, V0: 1, V1: 2}, math.Log(4), 0.5},
		// Three tied negatives: 3σ(2τ) = 3·0.75 gives τ = ln(3)/2; the positive at 0 has
		// σ(0.5·ln 3) = √3/(1 + √3).
		{"tied negatives", []float64{0, 0, 0, 0}, []float64{0, 0, 1, 0},
			Config{Alpha: 0.25, V0: 2, V1: 1}, math.Log(3) / 2, math.Sqrt(3) / (1 + math.Sqrt(3))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustEvaluate(t, c.scores, c.labels, c.cfg)
			require.InDelta(t, c.tau, got.Tau, tol, "(τ, L) = (%.17g, %.17g), want (%.17g, %.17g)", got.Tau, got.Loss, c.tau, c.loss)
			require.InDelta(t, c.loss, got.Loss, tol, "(τ, L) = (%.17g, %.17g), want (%.17g, %.17g)", got.Tau, got.Loss, c.tau, c.loss)
			require.Equal(t, c.cfg.V0, got.V0, "bandwidths (%v, %v), want the configured (%v, %v)", got.V0, got.V1, c.cfg.V0, c.cfg.V1)
			require.Equal(t, c.cfg.V1, got.V1, "bandwidths (%v, %v), want the configured (%v, %v)", got.V0, got.V1, c.cfg.V0, c.cfg.V1)
		})
	}
}

// TestBandwidthFallbacks checks the degenerate batches of the Config documentation, each of
// which falls back to the documented value, and batches at extreme scales, where the rule is
// scale-invariant; the loss and gradient stay finite.
func TestBandwidthFallbacks(t *testing.T) {
	spread := func(n int, centre, width float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = centre + width*float64(i-n/2)/float64(n)
		}
		return xs
	}
	join := func(neg, pos []float64) (scores, labels []float64) {
		scores = append(append(scores, neg...), pos...)
		labels = make([]float64, len(scores))
		for i := len(neg); i < len(scores); i++ {
			labels[i] = 1
		}
		return scores, labels
	}
	negs := spread(50, 0, 4)
	cases := []struct {
		name     string
		neg, pos []float64
		v0, v1   func(all []float64) float64 // expected bandwidths given the whole batch
	}{
		{"one positive", negs, []float64{2},
			func([]float64) float64 { return refRuleV(refStd(negs), 50) },
			func(all []float64) float64 { return refRuleV(refStd(all), 1) }},
		{"all tied", spread(50, 3.5, 0), []float64{3.5, 3.5},
			func([]float64) float64 { return 1 },
			func([]float64) float64 { return 1 }},
		{"all zero", spread(50, 0, 0), []float64{0},
			func([]float64) float64 { return 1 },
			func([]float64) float64 { return 1 }},
		{"negatives spread 1e-12", spread(50, 0.3, 1e-12), spread(10, 1, 2),
			func(all []float64) float64 { return refRuleV(refStd(all), 50) },
			func([]float64) float64 { return refRuleV(refStd(spread(10, 1, 2)), 10) }},
		{"every spread below 1e-6 relative", spread(50, 7, 1e-7), spread(5, 7, 1e-7),
			func([]float64) float64 { return 1 },
			func([]float64) float64 { return 1 }},
		{"scores of order 1e300", spread(50, 0, 1e300), spread(5, 5e299, 1e299),
			func([]float64) float64 { return refRuleV(refStd(spread(50, 0, 1)), 50) * 1e-300 },
			func([]float64) float64 { return refRuleV(refStd(spread(5, 5, 1)), 5) * 1e-299 }},
		{"scores of order 1e-200", spread(50, 0, 1e-200), spread(5, 5e-201, 1e-201),
			func([]float64) float64 { return refRuleV(refStd(spread(50, 0, 1)), 50) * 1e200 },
			func([]float64) float64 { return refRuleV(refStd(spread(5, 5, 1)), 5) * 1e201 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			scores, labels := join(c.neg, c.pos)
			g, r := mustGradient(t, scores, labels, Config{Alpha: 0.1})
			v0, v1 := c.v0(scores), c.v1(scores)
			require.LessOrEqual(t, relErr(r.V0, v0, 0), tolRule, "bandwidths (%v, %v), want (%v, %v)", r.V0, r.V1, v0, v1)
			require.LessOrEqual(t, relErr(r.V1, v1, 0), tolRule, "bandwidths (%v, %v), want (%v, %v)", r.V0, r.V1, v0, v1)
			require.True(t, isFinite(r.Tau), "result %+v not finite", r)
			require.GreaterOrEqual(t, r.Loss, 0.0, "result %+v not finite", r)
			require.LessOrEqual(t, r.Loss, 1.0, "result %+v not finite", r)
			for i, x := range g {
				require.True(t, isFinite(x), "gradient[%d] = %v", i, x)
			}
		})
	}
}

// sortByLabel moves the negatives before the positives, keeping each class's order.
func sortByLabel(scores, labels []float64) {
	neg, pos := classes(scores, labels)
	copy(scores, append(neg, pos...))
	for i := range labels {
		labels[i] = 0
		if i >= len(neg) {
			labels[i] = 1
		}
	}
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
