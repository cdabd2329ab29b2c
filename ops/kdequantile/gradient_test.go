package kdequantile

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

const (
	// tolFD bounds |∂ − fd| relative to the largest |∂| of the batch. Five-point differences
	// with step fdStep/v have truncation error ~(fdStep)⁴ and rounding error ~ε/fdStep times
	// the loss's scale over the gradient's, which the narrow kernels of some cases raise: the
	// largest seen over fdCases, recallCases and tailCases was 9e-9 when this was written.
	tolFD  = 1e-7
	fdStep = 1e-5
	// tolWeights bounds the relative difference of the weights from the formula of docs/kde-quantile.md
	// evaluated literally: a few roundings per weight.
	tolWeights = 1e-13
	// tolBalance bounds the class sums' departure from ±dF̂_1/dτ relative to dF̂_1/dτ:
	// rounding of sums of up to 1e5 terms.
	tolBalance = 1e-12
)

// numeric returns the five-point numerical gradient of fn at x (graph/gradcheck.Numeric) with
// absolute step h (the scores are of order 1, so h·max(1, |x|) ≈ h).
func numeric(t *testing.T, x []float64, h float64, fn func([]float64) float64) []float64 {
	t.Helper()
	d, err := gradcheck.Numeric(func(x []float64) (float64, error) { return fn(x), nil }, x, h)
	require.NoError(t, err)
	return d
}

// relDiff returns max_i |a_i − b_i| / max_i |b_i|: the largest difference relative to the
// scale of the reference b.
func relDiff(a, b []float64) float64 {
	var d, s float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		s = math.Max(s, math.Abs(b[i]))
	}
	return d / s
}

var fdCases = []struct {
	n             int
	posFrac, sep  float64
	alpha, v0, v1 float64
}{
	{n: 2, posFrac: 0.5, sep: 1, alpha: 0.5, v0: 1, v1: 1},
	{n: 7, posFrac: 0.3, sep: 1, alpha: 0.05, v0: 2, v1: 3},
	{n: 30, posFrac: 0.1, sep: 2, alpha: 0.2, v0: 5, v1: 1},
	{n: 60, posFrac: 0.5, sep: 0.5, alpha: 0.9, v0: 0.5, v1: 4},
	{n: 60, posFrac: 0.05, sep: 3, alpha: 0.01, v0: 3, v1: 3},
}

func TestGradientFiniteDifferences(t *testing.T) {
	for i, c := range fdCases {
		t.Run(fmt.Sprintf("%d/n=%d/alpha=%v", i, c.n, c.alpha), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(100+i), 7, c.n, c.posFrac, c.sep)
			cfg := Config{Alpha: c.alpha, V0: c.v0, V1: c.v1}
			g, _ := mustGradient(t, scores, labels, cfg)
			h := fdStep / math.Max(c.v0, c.v1)
			fd := numeric(t, scores, h, func(f []float64) float64 { return mustEvaluate(t, f, labels, cfg).Loss })
			d := relDiff(g, fd)
			require.LessOrEqual(t, d, tolFD, "∂L/∂f differs from finite differences by %.3g:\n got %v\nwant %v", d, g, fd)
			w, _, err := thresholdGradient(scores, labels, cfg)
			require.NoError(t, err)
			fdTau := numeric(t, scores, h, func(f []float64) float64 { return mustEvaluate(t, f, labels, cfg).Tau })
			dTau := relDiff(w, fdTau)
			require.LessOrEqual(t, dTau, tolFD, "∂τ/∂f differs from finite differences by %.3g:\n got %v\nwant %v", dTau, w, fdTau)
			t.Logf("relative difference from finite differences: ∂L/∂f %.2g, ∂τ/∂f %.2g", d, dTau)
		})
	}
}

// TestGradientHoldsBatchBandwidth checks that with batch-chosen bandwidths the gradient is that
// of L with v0 and v1 fixed at the reported values, and that this differs from differentiating
// through the rule (so the first check can tell the two apart).
func TestGradientHoldsBatchBandwidth(t *testing.T) {
	scores, labels := testbatch.Shifted(3, 7, 40, 0.25, 1)
	cfg := Config{Alpha: 0.1}
	g, r := mustGradient(t, scores, labels, cfg)
	fixed := Config{Alpha: cfg.Alpha, V0: r.V0, V1: r.V1}
	h := fdStep / math.Max(r.V0, r.V1)
	fd := numeric(t, scores, h, func(f []float64) float64 { return mustEvaluate(t, f, labels, fixed).Loss })
	d := relDiff(g, fd)
	require.LessOrEqual(t, d, tolFD, "gradient differs from finite differences at fixed bandwidths by %.3g", d)
	t.Logf("relative difference from finite differences at fixed bandwidths: %.2g", relDiff(g, fd))
	through := numeric(t, scores, h, func(f []float64) float64 { return mustEvaluate(t, f, labels, cfg).Loss })
	d = relDiff(g, through)
	require.GreaterOrEqual(t, d, 1e3*tolFD, "differentiating through the rule changes the gradient by only %.3g; the test cannot tell", d)
}

func TestWeightsMatchSeedFormula(t *testing.T) {
	cases := []struct {
		name  string
		neg   []float64
		v0    float64
		alpha float64
	}{
		{"ordinary", []float64{-1.2, -0.3, 0, 0.4, 0.9, 1.7, 2.5}, 2, 0.2},
		{"50/v0 apart", []float64{0, 50, 100, 150, 200, 250, 300, 350, 400, 450}, 1, 0.1},
		{"two far points", []float64{-500, 500}, 1, 0.5},
		{"far cluster", []float64{0, 0.1, 0.2, 0.3, 0.4, 900, 900.1}, 1, 0.3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			scores := append(slices.Clone(c.neg), 0)
			labels := make([]float64, len(scores))
			labels[len(c.neg)] = 1
			cfg := Config{Alpha: c.alpha, V0: c.v0, V1: 1}
			w, tau, err := thresholdGradient(scores, labels, cfg)
			require.NoError(t, err)
			want := refWeights(c.neg, c.v0, tau)
			for i := range want {
				// relErr is 0/0 = NaN, and passes, where both weights underflow to 0.
				require.False(t, relErr(w[i], want[i], 0) > tolWeights, "w[%d] = %.17g, seed formula %.17g", i, w[i], want[i])
			}
			require.Equal(t, 0.0, w[len(c.neg)], "∂τ/∂f of the positive = %v, want 0", w[len(c.neg)])
		})
	}
}

// TestGradientBalance checks the balance of docs/kde-quantile.md: the negatives' gradients add
// up to dF̂_1/dτ, the positives' to −dF̂_1/dτ, and all of them to zero.
func TestGradientBalance(t *testing.T) {
	cases := []struct {
		n             int
		posFrac, sep  float64
		alpha, v0, v1 float64
	}{
		{n: 20, posFrac: 0.3, sep: 1, alpha: 0.1, v0: 2, v1: 2},
		{n: 1000, posFrac: 0.1, sep: 1.5, alpha: 0.05},
		{n: 100000, posFrac: 0.1, sep: 1.5, alpha: 0.01},
		{n: 5000, posFrac: 0.5, sep: 4, alpha: 0.5, v0: 30, v1: 30},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("n=%d/alpha=%v", c.n, c.alpha), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(200+i), 7, c.n, c.posFrac, c.sep)
			g, r := mustGradient(t, scores, labels, Config{Alpha: c.alpha, V0: c.v0, V1: c.v1})
			// dF̂_1/dτ = (1/|B1|)·Σ v1·σ(z)·σ(−z), z = v1·(τ − f), from the definition.
			var gNeg, gPos, slope []float64
			for i, f := range scores {
				if labels[i] == 1 {
					z := r.V1 * (r.Tau - f)
					slope = append(slope, r.V1*refSigma(z)*refSigma(-z))
					gPos = append(gPos, g[i])
				} else {
					gNeg = append(gNeg, g[i])
				}
			}
			dF1 := refSum(slope) / float64(len(slope))
			sumNeg, sumPos, total := refSum(gNeg), refSum(gPos), refSum(g)
			require.LessOrEqual(t, relErr(sumNeg, dF1, 0), tolBalance, "Σ_B0 = %.17g, Σ_B1 = %.17g, Σ = %.3g; dF̂_1/dτ = %.17g", sumNeg, sumPos, total, dF1)
			require.LessOrEqual(t, relErr(sumPos, -dF1, 0), tolBalance, "Σ_B0 = %.17g, Σ_B1 = %.17g, Σ = %.3g; dF̂_1/dτ = %.17g", sumNeg, sumPos, total, dF1)
			require.LessOrEqual(t, math.Abs(total), tolBalance*dF1, "Σ_B0 = %.17g, Σ_B1 = %.17g, Σ = %.3g; dF̂_1/dτ = %.17g", sumNeg, sumPos, total, dF1)
		})
	}
}

// TestDeterministicAcrossProcs checks that results do not depend on the number of goroutines.
func TestDeterministicAcrossProcs(t *testing.T) {
	scores, labels := testbatch.Shifted(5, 7, 200000, 0.1, 1.5)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first []float64
	var firstR Result
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		g, r := mustGradient(t, scores, labels, Config{Alpha: 0.05})
		if first == nil {
			first, firstR = g, r
			continue
		}
		require.False(t, r != firstR, "GOMAXPROCS=%d changes the result: %+v vs %+v", procs, r, firstR)
		require.True(t, slices.Equal(g, first), "GOMAXPROCS=%d changes the result: %+v vs %+v", procs, r, firstR)
	}
}
