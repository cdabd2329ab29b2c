package diagnose_test

import (
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// scaleTol is the relative difference allowed between a diagnostic of c·h (or of scores
// times c) and c (or c², or 1) times the diagnostic of h: the results differ by rounding only,
// since the functions rescale by powers of two.
const scaleTol = 1e-12

// The overflow cases: a diagnostic whose result is within float64's range returns it, however
// large or small its inputs, and one whose result is not returns a named error, never NaN or
// ±Inf without one. Each case failed before the rescaling (noted per case).
func TestOverflowCases(t *testing.T) {
	h := randomMatrix(31, 9, 11)
	at := func(c float64) func(i, j int) float64 { return func(i, j int) float64 { return c * h[i][j] } }
	sizes := []int{2, 4, 8}

	t.Run("BatchSlope of h up to 1e300 is the slope of h", func(t *testing.T) {
		// Before: V_B ≈ 1e600 overflowed Welford's sums, and the slope was NaN with no error.
		want, wantErr, err := diagnose.BatchSlope(9, 11, at(1), sizes, 200, 3)
		require.NoError(t, err)
		for _, c := range []float64{1e300, 1e-300, 0x1p1000} {
			got, gotErr, err := diagnose.BatchSlope(9, 11, at(c), sizes, 200, 3)
			require.NoError(t, err, "c = %g", c)
			near(t, "slope", got, want, scaleTol)
			near(t, "stderr", gotErr, wantErr, scaleTol)
		}
	})
	t.Run("BatchSlope with a growing magnitude", func(t *testing.T) {
		// The largest |h| comes late: the running sums are rescaled on the way.
		grow := func(i, j int) float64 { return math.Ldexp(h[i][j], 100*i) }
		s, e, err := diagnose.BatchSlope(9, 11, grow, sizes, 200, 3)
		require.NoError(t, err, "slope %v ± %v, %v", s, e, err)
		require.True(t, finite(s, e), "slope %v ± %v, %v", s, e, err)
	})

	t.Run("Hoeffding at 1e300 is ErrOverflow", func(t *testing.T) {
		// Before: +Inf variances and no error. The variances are about 1e600.
		sp, err := diagnose.Hoeffding(9, 11, at(1e300))
		require.ErrorIs(t, err, rocops.ErrRange, "split %+v, error %v; want ErrOverflow", sp, err)
	})
	t.Run("Hoeffding of a constant 1e308 is its mean", func(t *testing.T) {
		// The sum of 99 values of 1e308 overflows, the mean does not. Before: ErrNonFinite.
		sp, err := diagnose.Hoeffding(9, 11, func(int, int) float64 { return 1e308 })
		require.NoError(t, err)
		near(t, "Mean", sp.Mean/1e308, 1, scaleTol)
		require.Equal(t, 0.0, sp.VarPos, "variances %v, %v, %v, want 0", sp.VarPos, sp.VarNeg, sp.VarResidual)
		require.Equal(t, 0.0, sp.VarNeg, "variances %v, %v, %v, want 0", sp.VarPos, sp.VarNeg, sp.VarResidual)
		require.Equal(t, 0.0, sp.VarResidual, "variances %v, %v, %v, want 0", sp.VarPos, sp.VarNeg, sp.VarResidual)
	})
	t.Run("Hoeffding of c·h is c and c² times that of h", func(t *testing.T) {
		ref, err := diagnose.Hoeffding(9, 11, at(1))
		require.NoError(t, err)
		for _, c := range []float64{1e150, 1e-150} {
			sp, err := diagnose.Hoeffding(9, 11, at(c))
			require.NoError(t, err)
			near(t, "Mean", sp.Mean/c, ref.Mean, scaleTol)
			near(t, "VarPos", sp.VarPos/c/c, ref.VarPos, scaleTol)
			near(t, "VarNeg", sp.VarNeg/c/c, ref.VarNeg, scaleTol)
			near(t, "VarResidual", sp.VarResidual/c/c, ref.VarResidual, scaleTol)
		}
	})

	scores, labels := testbatch.Spread(5, 1, 40, 0.4, 1)
	p := testbatch.Normal(6, 4, 40, 1)
	big := make([]float64, len(scores))
	for k, f := range scores {
		big[k] = 1e300 * f
	}
	t.Run("Project at 1e300 is ErrOverflow", func(t *testing.T) {
		// Before: +Inf variances and no error: w ≈ 1e300 for the square surrogate.
		sp, err := binProject(big, labels, p, pairwise.Config{Surrogate: pairwise.Square})
		require.ErrorIs(t, err, rocops.ErrRange, "split %+v, error %v; want ErrOverflow", sp, err)
	})
	t.Run("Project with w near 1e300 and Δp near 1e-300", func(t *testing.T) {
		// h = w·Δp is of order 1 although w alone is near 1e300; the split equals that of the
		// scores and the p at scale 1, since w scales with the scores and margin (square).
		small := make([]float64, len(p))
		for k, v := range p {
			small[k] = 1e-300 * v
		}
		ref, err := binProject(scores, labels, p, pairwise.Config{Surrogate: pairwise.Square, Margin: 0.5})
		require.NoError(t, err)
		sp, err := binProject(big, labels, small, pairwise.Config{Surrogate: pairwise.Square, Margin: 0.5e300})
		require.NoError(t, err)
		near(t, "Mean", sp.Mean, ref.Mean, 1e-10)
		near(t, "VarPos", sp.VarPos, ref.VarPos, 1e-10)
		near(t, "VarResidual", sp.VarResidual, ref.VarResidual, 1e-10)
	})

	t.Run("BatchVariance below one row is NaN", func(t *testing.T) {
		// Before: BatchVariance(-1, 1) = −1 for a split of unit variances.
		s := diagnose.Split{VarPos: 1, VarNeg: 1, VarResidual: 1, NPos: 3, NNeg: 3}
		for _, b := range [][2]int{{-1, 1}, {0, 4}, {4, 0}} {
			v := s.BatchVariance(b[0], b[1])
			require.True(t, math.IsNaN(v), "BatchVariance(%d, %d) = %v, want NaN", b[0], b[1], v)
			v = s.FirstOrderShare(b[0], b[1])
			require.True(t, math.IsNaN(v), "FirstOrderShare(%d, %d) = %v, want NaN", b[0], b[1], v)
		}
		v := s.BatchVariance(1, 1)
		require.Equal(t, 3.0, v, "BatchVariance(1, 1) = %v, want 3", v)
	})

	edges := []float64{math.Inf(-1), -1, 0, 1, math.Inf(1)}
	t.Run("WeightShares of the square surrogate at ±1e300 is ErrCancellation", func(t *testing.T) {
		// Before: every share NaN and no error. W = Σ 2(m − x) cancels from terms near 1e300
		// to a few units.
		sc, lb := []float64{1e300, -1e300, 1e300, -1e300}, []float64{1, 1, 0, 0}
		got, err := binWeightShares(sc, lb, pairwise.Config{Surrogate: pairwise.Square}, edges)
		require.ErrorIs(t, err, rocops.ErrRange, "shares %v, error %v; want ErrCancellation", got, err)
	})
	t.Run("WeightShares of homogeneous surrogates near 1e308", func(t *testing.T) {
		// Scores in [1e307, 8e307]: the weights of the square surrogates sum past float64's
		// range (before: rocops.ErrRange). Scaling scores, margin and edges together
		// leaves the shares, so they equal those at scale 2^-1000, checked by brute force.
		const c = 0x1p1000
		sc, lb := make([]float64, 30), make([]float64, 30)
		for k := range sc {
			sc[k] = (4.5 + 3.5*math.Sin(float64(3*k))) * 1e307
			lb[k] = float64(k % 3 % 2)
		}
		e := []float64{math.Inf(-1), -2e307, 0, 2e307, math.Inf(1)}
		for _, s := range []pairwise.Surrogate{pairwise.Square, pairwise.SquaredHinge, pairwise.Hinge} {
			cfg := pairwise.Config{Surrogate: s, Margin: 1e307}
			got, err := binWeightShares(sc, lb, cfg, e)
			require.NoError(t, err, "%v", s)
			small, se := make([]float64, len(sc)), make([]float64, len(e))
			for k := range sc {
				small[k] = sc[k] / c
			}
			for k := range e {
				se[k] = e[k] / c
			}
			want := bruteShares(small, lb, pairwise.Config{Surrogate: s, Margin: cfg.Margin / c}, se)
			for k := range want {
				require.Equal(t, math.IsNaN(got[k]), math.IsNaN(want[k]), "%v: share %d = %v, want %v", s, k, got[k], want[k])
				require.False(t, !math.IsNaN(want[k]) && math.Abs(got[k]-want[k]) > shareTol*math.Max(1, math.Abs(want[k])), "%v: share %d = %v, want %v", s, k, got[k], want[k])
			}
		}
	})

	t.Run("SevereDirection at scores near ±1e160", func(t *testing.T) {
		// Before: ‖g‖² ≈ 1e320 overflowed and the batch was reported as having no severe pair.
		// A linear scorer times c, with the margin and severity times c, has the squared-hinge
		// gradient times c: the same direction, c times the norm.
		const c = 1e160
		x := testbatch.Normal(8, 4, 50, 3)
		lb := make([]float64, 50)
		for r := range lb {
			if x[r*3] < 0 { // positives where the scorer puts low scores: severe pairs
				lb[r] = 1
			}
		}
		dir := func(scale float64) diagnose.Direction {
			m, err := nn.NewMLP(nn.MLPConfig{In: 3, Seed: 2})
			require.NoError(t, err)
			w := m.Params()[0].Value.Data().([]float64)
			w[0], w[1], w[2] = 2*scale, 0.3*scale, -0.2*scale
			m.Params()[1].Value.Data().([]float64)[0] = 0.1 * scale
			d, err := binSevereDirection(m, x, lb, pairwise.Config{Surrogate: pairwise.SquaredHinge, Margin: scale}, 0.5*scale)
			require.NoError(t, err, "scale %g", scale)
			return d
		}
		ref, got := dir(1), dir(c)
		near(t, "Norm", got.Norm/c, ref.Norm, scaleTol)
		require.Equal(t, ref.Severe, got.Severe, "%d severe pairs, want %d", got.Severe, ref.Severe)
		for k := range ref.V {
			near(t, "V", got.V[k], ref.V[k], scaleTol)
		}
	})
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Sizes past the documented bounds are named errors before anything is allocated or any h
// called. Before, Hoeffding(math.MaxInt, 1, h) panicked in makeslice and BatchSlope with a
// size of 2^40 ran out of memory.
func TestSizeBounds(t *testing.T) {
	calls := 0
	h := func(i, j int) float64 { calls++; return float64(i - j) }
	for _, c := range []struct {
		name       string
		nPos, nNeg int
	}{
		{"MaxInt positives", math.MaxInt, 1},
		{"MaxInt negatives", 1, math.MaxInt},
		{"MaxCount+1 positives", diagnose.MaxCount + 1, 1},
		{"MaxPairs+1 pairs", diagnose.MaxPairs/(1<<20) + 1, 1 << 20},
		{"MaxInt² pairs", math.MaxInt, math.MaxInt},
	} {
		_, err := diagnose.Hoeffding(c.nPos, c.nNeg, h)
		require.ErrorIs(t, err, rocops.ErrRange, "Hoeffding, %s: error %v, want ErrTooLarge", c.name, err)
	}
	for _, c := range []struct {
		name  string
		sizes []int
		reps  int
	}{
		{"size 2^40", []int{2, 4, 1 << 40}, 10},
		{"size MaxBatchSize+1", []int{2, 4, diagnose.MaxBatchSize + 1}, 2},
		{"MaxInt reps", []int{2, 4, 8}, math.MaxInt},
		{"reps·ΣB² past MaxPairs", []int{1 << 19, 2, 4}, diagnose.MaxPairs/(1<<38) + 1},
	} {
		_, _, err := diagnose.BatchSlope(5, 5, h, c.sizes, c.reps, 1)
		require.ErrorIs(t, err, rocops.ErrConfig, "BatchSlope, %s: error %v, want ErrSizes", c.name, err)
	}
	require.Equal(t, 0, calls, "h was called %d times", calls)
	// Within the bounds: reps·ΣB² ≈ 0.65·MaxPairs is accepted (checked, not run: h fails
	// at once, so the call returns after its first evaluation).
	bad := func(int, int) float64 { return math.NaN() }
	_, _, err := diagnose.BatchSlope(5, 5, bad, []int{1 << 19, 1 << 18, 1 << 17}, 2, 1)
	require.ErrorIs(t, err, rocops.ErrNonFinite, "within the bounds: error %v, want ErrNonFinite from h", err)
}
