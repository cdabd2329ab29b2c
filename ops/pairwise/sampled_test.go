package pairwise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// estimator returns one random estimate of the gradient with the loss appended, from seed.
type estimator func(seed uint64) []float64

// uniformPairs is the package's sampled estimator with k pairs.
func uniformPairs(t *testing.T, s Surrogate, f, y []float64, k int) estimator {
	return func(seed uint64) []float64 {
		grad, loss, err := Gradient(f, y, Config{Surrogate: s, Pairs: k, Seed: seed})
		require.NoError(t, err)
		return append(grad, loss)
	}
}

// hardPairs is the biased counter-example: k pairs drawn with probability proportional to
// their current loss ℓ(x_ij) — a proposal that depends on the scores, favouring the hardest
// pairs — averaged without reweighting. Its mean is Σ p_ij·(∇ℓ_ij, ℓ_ij), returned too.
func hardPairs(s Surrogate, f, y []float64, k int) (estimator, []float64) {
	type pair struct{ i, j int }
	var pairs []pair
	var cum []float64 // cumulative ℓ, for sampling ∝ ℓ
	total := 0.0
	for i := range f {
		for j := range f {
			if y[i] == 1 && y[j] == 0 {
				total += naiveEll(s, 1, f[i]-f[j])
				pairs = append(pairs, pair{i, j})
				cum = append(cum, total)
			}
		}
	}
	mean := make([]float64, len(f)+1)
	for _, p := range pairs {
		x := f[p.i] - f[p.j]
		prob := naiveEll(s, 1, x) / total
		w := naiveWeight(s, 1, x)
		mean[p.i] -= prob * w
		mean[p.j] += prob * w
		mean[len(f)] += prob * naiveEll(s, 1, x)
	}
	est := func(seed uint64) []float64 {
		r := rand.New(rand.NewPCG(seed, 11))
		out := make([]float64, len(f)+1)
		for range k {
			p := pairs[sort.SearchFloat64s(cum, r.Float64()*total)]
			x := f[p.i] - f[p.j]
			w := naiveWeight(s, 1, x)
			out[p.i] -= w / float64(k)
			out[p.j] += w / float64(k)
			out[len(f)] += naiveEll(s, 1, x) / float64(k)
		}
		return out
	}
	return est, mean
}

// meanSE returns, coordinate by coordinate, the mean of est over seeds first, …, first+r−1
// and its standard error sd/√r.
func meanSE(est estimator, first uint64, r int) (mean, se []float64) {
	var sum, sq []float64
	for seed := first; seed < first+uint64(r); seed++ {
		g := est(seed)
		if sum == nil {
			sum, sq = make([]float64, len(g)), make([]float64, len(g))
		}
		for c, v := range g {
			sum[c] += v
			sq[c] += v * v
		}
	}
	mean, se = make([]float64, len(sum)), make([]float64, len(sum))
	for c := range sum {
		mean[c] = sum[c] / float64(r)
		variance := max(sq[c]/float64(r)-mean[c]*mean[c], 0) * float64(r) / float64(r-1)
		se[c] = math.Sqrt(variance / float64(r))
	}
	return mean, se
}

// rmsError is the root mean square, over blocks independent runs and every coordinate, of the
// error of the mean of r estimates against want. For an unbiased estimator its square is
// Σ_c Var_c/(r·d) exactly, so it falls as 1/√r; a bias b makes it level off at |b|.
func rmsError(est estimator, want []float64, r, blocks int, firstSeed uint64) float64 {
	var s float64
	for b := range blocks {
		mean, _ := meanSE(est, firstSeed+uint64(b*r), r)
		for c := range want {
			s += (mean[c] - want[c]) * (mean[c] - want[c])
		}
	}
	return math.Sqrt(s / float64(blocks*len(want)))
}

// Unbiasedness of sampled pairs (docs/pairwise.md: the pairs are drawn the same way whatever the
// scores, so the expected sampled gradient is the all-pairs gradient). The reference is the
// exact all-pairs gradient, itself checked against the naive loop.
const (
	sampledPairs = 6    // pairs per estimate: few, so that each estimate is noisy
	seedsR       = 256  // estimates averaged for the 4-standard-error check
	maxZ         = 4.0  // no coordinate may stray beyond 4 standard errors
	blocks       = 256  // independent runs averaged in the error-shrink check
	shrinkR      = 16   // the error with shrinkR estimates is compared with 16·shrinkR
	wantRatio    = 4.0  // √16: the error of an unbiased mean shrinks like 1/√R
	tolRatio     = 0.15 // relative; blocks × 13 coordinates ≈ 3300 squared errors give the ratio a ≈ 2.5% sd
)

func TestSampledUnbiased(t *testing.T) {
	f, y := testbatch.Shifted(10, 7, 12, 0.35, 0.4)
	for _, s := range Surrogates() {
		t.Run(s.String(), func(t *testing.T) {
			grad, loss, err := Gradient(f, y, Config{Surrogate: s})
			require.NoError(t, err)
			exact := append(grad, loss)
			est := uniformPairs(t, s, f, y, sampledPairs)

			mean, se := meanSE(est, 1, seedsR)
			for c := range exact {
				require.LessOrEqual(t, math.Abs(mean[c]-exact[c]), maxZ*se[c],
					"coordinate %d: mean %v, exact %v, se %v", c, mean[c], exact[c], se[c])
			}

			few := rmsError(est, exact, shrinkR, blocks, 1e6)
			many := rmsError(est, exact, 16*shrinkR, blocks, 2e6)
			t.Logf("error with %d estimates / with %d: %.3f", shrinkR, 16*shrinkR, few/many)
			require.InEpsilon(t, wantRatio, few/many, tolRatio)
		})
	}
}

// TestHardPairsBiased is the counter-case of docs/pairwise.md: a proposal that depends on the scores
// (pairs drawn ∝ their loss, the hardest most often) without reweighting. Its mean is
// Σ p_ij ∇ℓ_ij, not the all-pairs gradient (1/|B1||B0|) Σ ∇ℓ_ij: the estimate converges, but
// to the wrong vector, so its error stops shrinking.
func TestHardPairsBiased(t *testing.T) {
	const (
		minBiasZ    = 10.0 // the bias is at least this many standard errors in some coordinate
		maxBiasedRt = 2.0  // far below the unbiased ratio of 4: the error levels off at the bias
	)
	f, y := testbatch.Shifted(10, 7, 12, 0.35, 0.4)
	grad, loss, err := Gradient(f, y, Config{Surrogate: Logistic})
	require.NoError(t, err)
	exact := append(grad, loss)
	est, biasedMean := hardPairs(Logistic, f, y, sampledPairs)

	mean, se := meanSE(est, 1, seedsR)
	var worst float64
	for c := range exact {
		// The harness is right: the estimate agrees with its own expectation…
		require.LessOrEqual(t, math.Abs(mean[c]-biasedMean[c]), maxZ*se[c], "coordinate %d", c)
		// …which is not the exact gradient.
		worst = max(worst, math.Abs(mean[c]-exact[c])/se[c])
	}
	t.Logf("largest bias: %.1f standard errors", worst)
	require.Greater(t, worst, minBiasZ)

	few := rmsError(est, exact, shrinkR, blocks, 1e6)
	many := rmsError(est, exact, 16*shrinkR, blocks, 2e6)
	t.Logf("error with %d estimates / with %d: %.3f", shrinkR, 16*shrinkR, few/many)
	require.Less(t, few/many, maxBiasedRt)
}

// TestSampledDeterministic: the same seed gives the same result, another seed another draw.
func TestSampledDeterministic(t *testing.T) {
	f, y := testbatch.Shifted(11, 7, 50, 0.3, 0.2)
	for _, s := range Surrogates() {
		cfg := Config{Surrogate: s, Pairs: 20, Seed: 42}
		g1, l1, err := Gradient(f, y, cfg)
		require.NoError(t, err)
		g2, l2, err := Gradient(f, y, cfg)
		require.NoError(t, err)
		require.Equal(t, g1, g2)
		require.Equal(t, l1, l2)
		v, err := Evaluate(f, y, cfg)
		require.NoError(t, err)
		require.Equal(t, l1, v, "Evaluate draws the same pairs as Gradient")
		cfg.Seed++
		g3, _, err := Gradient(f, y, cfg)
		require.NoError(t, err)
		require.False(t, slices.Equal(g1, g3), "%v: seeds 42 and 43 drew the same pairs", s)
	}
}

// TestSampledOnePair: with one positive and one negative every draw is the same pair, so any
// number of sampled pairs gives the exact loss ℓ(x) and gradient (−w(x), +w(x)), with w from
// the hand-derived naiveWeight — at the kink x = m too.
func TestSampledOnePair(t *testing.T) {
	const tol = 1e-15 // relative: one pair, the mean of k equal terms
	for _, s := range Surrogates() {
		for _, x := range []float64{-3, -0.5, 0, 0.5, 1, 2.5} { // x = 1 is the kink at m = 1
			t.Run(fmt.Sprintf("%v/x=%v", s, x), func(t *testing.T) {
				grad, loss, err := Gradient([]float64{x, 0}, []float64{1, 0}, Config{Surrogate: s, Pairs: 7})
				require.NoError(t, err)
				wantLoss, w := naiveEll(s, 1, x), naiveWeight(s, 1, x)
				require.InDelta(t, wantLoss, loss, tol*math.Abs(wantLoss))
				require.InDelta(t, -w, grad[0], tol*math.Abs(w))
				require.InDelta(t, w, grad[1], tol*math.Abs(w))
			})
		}
	}
}
