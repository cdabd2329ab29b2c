package diagnose_test

import (
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// The prefix-sum algorithms lose about n·ε relative to the brute-force sums.
const shareTol = 1e-9

func bruteShares(scores, labels []float64, cfg pairwise.Config, edges []float64) []float64 {
	pos, neg := classIndices(labels)
	k := len(edges) - 1
	wk, nk := make([]float64, k), make([]float64, k)
	var total float64
	for _, i := range pos {
		for _, j := range neg {
			x := scores[i] - scores[j]
			w := pairwise.Weight(cfg.Surrogate, cfg.Margin, x)
			total += w
			for b := range k {
				if x >= edges[b] && x < edges[b+1] {
					wk[b] += w
					nk[b]++
				}
			}
		}
	}
	n := float64(len(pos) * len(neg))
	out := make([]float64, k)
	for b := range out {
		out[b] = (wk[b] / total) / (nk[b] / n)
		if nk[b] == 0 {
			out[b] = math.NaN()
		}
	}
	return out
}

func TestWeightSharesMatchBruteForce(t *testing.T) {
	edgeSets := [][]float64{
		{math.Inf(-1), -4, -2, -1, 0},
		{-3, -1.5, -0.5, 0.5, 1, 2, math.Inf(1)},
		{-100, -90}, // no pair: NaN
	}
	for _, s := range pairwise.Surrogates() {
		for _, m := range []float64{0, 0.5, 2} {
			cfg := pairwise.Config{Surrogate: s, Margin: m}
			for seed := uint64(0); seed < 3; seed++ {
				scores, labels := testbatch.Spread(10+seed, 1, 120+37*int(seed), 0.3, 1.5)
				for _, edges := range edgeSets {
					got, err := binWeightShares(scores, labels, cfg, edges)
					require.NoError(t, err)
					want := bruteShares(scores, labels, cfg, edges)
					for k := range want {
						require.Equal(t, math.IsNaN(got[k]), math.IsNaN(want[k]), "%v m=%v seed %d edges %v: share %d = %v, want %v", s, m, seed, edges, k, got[k], want[k])
						require.False(t, !math.IsNaN(want[k]) && !(math.Abs(got[k]-want[k]) <= shareTol*math.Max(1, math.Abs(want[k]))), "%v m=%v seed %d edges %v: share %d = %v, want %v", s, m, seed, edges, k, got[k], want[k])
					}
				}
			}
		}
	}
}

// TestWeightSharesReference checks values worked by hand. Scores: positives {0, 3},
// negatives {1, 2}; margins x: 0−1 = −1, 0−2 = −2, 3−1 = 2, 3−2 = 1. With the squared hinge
// (m = 1) the weights 2(1 − x)₊ are 4, 6, 0, 0 (total 10). Interval [−3, −1.5) holds x = −2:
// share (6/10)/(1/4) = 2.4; [−1.5, 0) holds x = −1: (4/10)/(1/4) = 1.6; [0, 3) holds two
// pairs of weight 0: 0. The hinge's weights are 1, 1, 0, 0: shares 2, 2, 0.
func TestWeightSharesReference(t *testing.T) {
	scores, labels := []float64{0, 3, 1, 2}, []float64{1, 1, 0, 0}
	edges := []float64{-3, -1.5, 0, 3}
	for _, tc := range []struct {
		s    pairwise.Surrogate
		want []float64
	}{
		{pairwise.SquaredHinge, []float64{2.4, 1.6, 0}},
		{pairwise.Hinge, []float64{2, 2, 0}},
	} {
		got, err := binWeightShares(scores, labels, pairwise.Config{Surrogate: tc.s}, edges)
		require.NoError(t, err)
		for k := range got {
			near(t, tc.s.String(), got[k], tc.want[k], 1e-15)
		}
	}
}

func TestWeightSharesErrors(t *testing.T) {
	scores, labels := []float64{0, 1}, []float64{1, 0}
	ok := pairwise.Config{}
	for _, tc := range []struct {
		name  string
		cfg   pairwise.Config
		edges []float64
		want  error
	}{
		{"one edge", ok, []float64{0}, rocops.ErrConfig},
		{"NaN edge", ok, []float64{0, math.NaN()}, rocops.ErrConfig},
		{"not increasing", ok, []float64{0, 0}, rocops.ErrConfig},
		{"bad surrogate", pairwise.Config{Surrogate: 9}, []float64{0, 1}, rocops.ErrConfig},
		{"bad margin", pairwise.Config{Surrogate: pairwise.Hinge, Margin: -1}, []float64{0, 1}, rocops.ErrConfig},
	} {
		_, err := binWeightShares(scores, labels, tc.cfg, tc.edges)
		require.ErrorIs(t, err, tc.want, "%s: error %v, want %v", tc.name, err, tc.want)
	}
	// The exponential weight e^{−x} of x = −800 overflows.
	_, err := binWeightShares([]float64{0, 800}, labels, pairwise.Config{Surrogate: pairwise.Exponential}, []float64{-1000, 0})
	require.ErrorIs(t, err, rocops.ErrRange, "overflow: error %v, want rocops.ErrRange", err)
}
