package diagnose_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// The two-pass split and the brute-force one differ by rounding only.
const splitTol = 1e-12

func checkSplit(t *testing.T, what string, got diagnose.Split, h [][]float64) {
	t.Helper()
	mean, vp, vn, vr := bruteSplit(h)
	near(t, what+" Mean", got.Mean, mean, splitTol)
	near(t, what+" VarPos", got.VarPos, vp, splitTol)
	near(t, what+" VarNeg", got.VarNeg, vn, splitTol)
	near(t, what+" VarResidual", got.VarResidual, vr, splitTol)
	require.Equal(t, len(h), got.NPos, "%s: NPos, NNeg = %d, %d, want %d, %d", what, got.NPos, got.NNeg, len(h), len(h[0]))
	require.Equal(t, len(h[0]), got.NNeg, "%s: NPos, NNeg = %d, %d, want %d, %d", what, got.NPos, got.NNeg, len(h), len(h[0]))
}

func randomMatrix(seed uint64, p, n int) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	a, b := make([]float64, p), make([]float64, n)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	for j := range b {
		b[j] = rng.NormFloat64()
	}
	h := make([][]float64, p)
	for i := range h {
		h[i] = make([]float64, n)
		for j := range h[i] {
			h[i][j] = 0.3 + a[i] - 0.5*b[j] + 0.7*rng.NormFloat64()
		}
	}
	return h
}

func TestHoeffdingMatchesBruteForce(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {1, 5}, {4, 1}, {13, 29}} {
		h := randomMatrix(uint64(size[0]*100+size[1]), size[0], size[1])
		got, err := diagnose.Hoeffding(size[0], size[1], func(i, j int) float64 { return h[i][j] })
		require.NoError(t, err)
		checkSplit(t, "Hoeffding", got, h)
	}
}

func TestProjectMatchesBruteForce(t *testing.T) {
	for _, s := range pairwise.Surrogates() {
		cfg := pairwise.Config{Surrogate: s, Margin: 0.7}
		scores, labels := testbatch.Spread(uint64(20+s), 1, 90, 0.3, 1.2)
		p, _ := testbatch.Spread(uint64(40+s), 1, 90, 0, 1)
		got, err := binProject(scores, labels, p, cfg)
		require.NoError(t, err)
		pos, neg := classIndices(labels)
		h := make([][]float64, len(pos))
		for a, i := range pos {
			h[a] = make([]float64, len(neg))
			for b, j := range neg {
				h[a][b] = pairwise.Weight(s, cfg.Margin, scores[i]-scores[j]) * (p[i] - p[j])
			}
		}
		checkSplit(t, s.String(), got, h)
	}
}

// TestProjectIsTheDirectionalDerivative checks the meaning of Mean: with scores moving as
// f + ε·p, the pairwise loss changes at the rate −Mean (pairwise.Evaluate, central difference).
func TestProjectIsTheDirectionalDerivative(t *testing.T) {
	scores, labels := testbatch.Spread(7, 1, 60, 0.4, 1)
	p, _ := testbatch.Spread(8, 1, 60, 0, 1)
	for _, s := range []pairwise.Surrogate{pairwise.Logistic, pairwise.Exponential, pairwise.Square, pairwise.SquaredHinge} {
		cfg := pairwise.Config{Surrogate: s}
		sp, err := binProject(scores, labels, p, cfg)
		require.NoError(t, err)
		const eps = 1e-5
		moved := func(e float64) float64 {
			f := make([]float64, len(scores))
			for k := range f {
				f[k] = scores[k] + e*p[k]
			}
			l, err := pairwise.Evaluate(f, labels, cfg)
			require.NoError(t, err)
			return l
		}
		d := (moved(eps) - moved(-eps)) / (2 * eps)
		near(t, s.String()+" −dL/dε", -d, sp.Mean, 1e-6)
	}
}

// TestBatchVarianceMatchesResampling draws many mini-batches with replacement and compares
// the variance of their means with BatchVariance. The variance estimate from R draws has
// standard error sqrt((m₄ − V²)/R), with m₄ the fourth central moment, both estimated from the
// draws; the test allows five of them.
func TestBatchVarianceMatchesResampling(t *testing.T) {
	const reps = 200000
	for _, tc := range []struct {
		p, n, bp, bn int
	}{{7, 9, 3, 5}, {20, 11, 8, 2}, {5, 5, 1, 1}} {
		h := randomMatrix(uint64(tc.p*tc.n), tc.p, tc.n)
		sp, err := diagnose.Hoeffding(tc.p, tc.n, func(i, j int) float64 { return h[i][j] })
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(uint64(tc.bp), 3))
		means := make([]float64, reps)
		is, js := make([]int, tc.bp), make([]int, tc.bn)
		for r := range means {
			for k := range is {
				is[k] = rng.IntN(tc.p)
			}
			for k := range js {
				js[k] = rng.IntN(tc.n)
			}
			var s float64
			for _, i := range is {
				for _, j := range js {
					s += h[i][j]
				}
			}
			means[r] = s / float64(tc.bp*tc.bn)
		}
		var mu, v, m4 float64
		for _, x := range means {
			mu += x / reps
		}
		for _, x := range means {
			d := (x - mu) * (x - mu)
			v += d / (reps - 1)
			m4 += d * d / reps
		}
		se := math.Sqrt((m4 - v*v) / reps)
		want := sp.BatchVariance(tc.bp, tc.bn)
		require.InDelta(t, want, v, 5*se, "pool %d×%d, batch %d×%d: resampled variance %v, BatchVariance %v (standard error %v)", tc.p, tc.n, tc.bp, tc.bn, v, want, se)
	}
}

func TestFirstOrderShare(t *testing.T) {
	s := diagnose.Split{VarPos: 2, VarNeg: 4, VarResidual: 16}
	// At B₊ = B₋ = 4: first order 2/4 + 4/4 = 1.5, residual 16/16 = 1.
	near(t, "FirstOrderShare", s.FirstOrderShare(4, 4), 1.5/2.5, 1e-15)
	near(t, "BatchVariance", s.BatchVariance(4, 4), 2.5, 1e-15)
	require.True(t, math.IsNaN((diagnose.Split{}).FirstOrderShare(4, 4)), "FirstOrderShare of a zero split is not NaN")
}

func TestHoeffdingErrors(t *testing.T) {
	one := func(int, int) float64 { return 1 }
	for _, tc := range []struct {
		name string
		p, n int
		h    func(int, int) float64
		want error
	}{
		{"no positives", 0, 3, one, rocops.ErrNoPositives},
		{"no negatives", 3, 0, one, rocops.ErrNoNegatives},
		{"nil h", 3, 3, nil, rocops.ErrEmpty},
		{"NaN h", 3, 3, func(i, j int) float64 {
			if i == 2 && j == 1 {
				return math.NaN()
			}
			return 1
		}, rocops.ErrNonFinite},
	} {
		_, err := diagnose.Hoeffding(tc.p, tc.n, tc.h)
		require.ErrorIs(t, err, tc.want, "Hoeffding %s: error %v, want %v", tc.name, err, tc.want)
		_, _, err = diagnose.BatchSlope(tc.p, tc.n, tc.h, nil, 10, 1)
		require.ErrorIs(t, err, tc.want, "BatchSlope %s: error %v, want %v", tc.name, err, tc.want)
	}
	scores, labels := []float64{0, 1, 2}, []float64{1, 0, 1}
	_, err := binProject(scores, labels, []float64{1, 2}, pairwise.Config{})
	require.ErrorIs(t, err, rocops.ErrLength, "Project with short p: error %v, want ErrLength", err)
	_, err = binProject(scores, labels, []float64{1, math.Inf(1), 2}, pairwise.Config{})
	require.ErrorIs(t, err, rocops.ErrNonFinite, "Project with infinite p: error %v, want ErrNonFinite", err)
}
