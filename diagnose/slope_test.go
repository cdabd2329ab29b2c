package diagnose_test

import (
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// signs returns n mean-zero ±1 values (n even), alternating.
func signs(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(1 - 2*(i%2))
	}
	return s
}

// TestExactDegeneracyControl is the control of Chen et al. (arXiv 2610.21743, appendix B.5):
// h(i, j) = a_i·b_j with mean-zero ±1 vectors a and b has no first-order part, so the
// mini-batch variance is VarResidual/B² = 1/B² exactly and the fitted slope is −2.
//
// Tolerance: the batch mean is ā·b̄, whose kurtosis is about 9, so log V̂_B from R draws has
// standard deviation about sqrt(8/R) = 0.028 at R = 10⁴, and the slope over log B = log 4 …
// log 64 (Σ(log B − mean)² = 4.8) about 0.013. The test allows 0.05, almost 4 of those.
func TestExactDegeneracyControl(t *testing.T) {
	a, b := signs(40), signs(60)
	h := func(i, j int) float64 { return a[i] * b[j] }
	sp, err := diagnose.Hoeffding(len(a), len(b), h)
	require.NoError(t, err)
	require.Equal(t, 0.0, sp.VarPos, "VarPos, VarNeg, Mean = %v, %v, %v, want exactly 0", sp.VarPos, sp.VarNeg, sp.Mean)
	require.Equal(t, 0.0, sp.VarNeg, "VarPos, VarNeg, Mean = %v, %v, %v, want exactly 0", sp.VarPos, sp.VarNeg, sp.Mean)
	require.Equal(t, 0.0, sp.Mean, "VarPos, VarNeg, Mean = %v, %v, %v, want exactly 0", sp.VarPos, sp.VarNeg, sp.Mean)
	near(t, "VarResidual", sp.VarResidual, 1, 1e-15)
	for seed := uint64(1); seed <= 2; seed++ {
		slope, se, err := diagnose.BatchSlope(len(a), len(b), h, nil, 10000, seed)
		require.NoError(t, err)
		require.LessOrEqual(t, math.Abs(slope+2), 0.05, "seed %d: slope %v ± %v, want −2 ± 0.05", seed, slope, se)
		require.Greater(t, se, 0.0, "seed %d: standard error %v, want it in (0, 0.05)", seed, se)
		require.Less(t, se, 0.05, "seed %d: standard error %v, want it in (0, 0.05)", seed, se)
	}
}

// TestGenericSlope: the projected pair term of random scores and tangents has large
// first-order parts, so the slope is −1 ± 0.1; it must also agree, within three of its
// standard errors plus 0.02, with the slope of log BatchVariance(B, B) from the exact split.
func TestGenericSlope(t *testing.T) {
	scores, labels := testbatch.Spread(31, 1, 400, 0.3, 1)
	p, _ := testbatch.Spread(32, 1, 400, 0, 1)
	cfg := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	pos, neg := classIndices(labels)
	h := func(i, j int) float64 {
		a, b := pos[i], neg[j]
		return pairwise.Weight(cfg.Surrogate, 0, scores[a]-scores[b]) * (p[a] - p[b])
	}
	sp, err := binProject(scores, labels, p, cfg)
	require.NoError(t, err)
	var xs, ys []float64
	for _, b := range diagnose.DefaultSizes {
		xs = append(xs, math.Log(float64(b)))
		ys = append(ys, math.Log(sp.BatchVariance(b, b)))
	}
	exact := (ys[len(ys)-1] - ys[0]) / (xs[len(xs)-1] - xs[0]) // nearly straight: a chord suffices
	for seed := uint64(1); seed <= 3; seed++ {
		slope, se, err := diagnose.BatchSlope(len(pos), len(neg), h, nil, 0, seed)
		require.NoError(t, err)
		require.LessOrEqual(t, math.Abs(slope+1), 0.1, "seed %d: slope %v ± %v, want −1 ± 0.1", seed, slope, se)
		require.InDelta(t, exact, slope, 3*se+0.02, "seed %d: slope %v ± %v, the exact split gives %v", seed, slope, se, exact)
	}
}

func TestBatchSlopeErrors(t *testing.T) {
	h := func(i, j int) float64 { return float64(i - j) }
	for _, tc := range []struct {
		name  string
		sizes []int
		reps  int
		h     func(int, int) float64
		want  error
	}{
		{"two sizes", []int{4, 8}, 10, h, rocops.ErrConfig},
		{"zero size", []int{0, 4, 8}, 10, h, rocops.ErrConfig},
		{"repeated size", []int{4, 4, 8}, 10, h, rocops.ErrConfig},
		{"one repetition", []int{2, 4, 8}, 1, h, rocops.ErrConfig},
		{"constant h", []int{2, 4, 8}, 10, func(int, int) float64 { return 3 }, diagnose.ErrDegenerate},
	} {
		_, _, err := diagnose.BatchSlope(5, 5, tc.h, tc.sizes, tc.reps, 1)
		require.ErrorIs(t, err, tc.want, "%s: error %v, want %v", tc.name, err, tc.want)
	}
}
