package diagnose

import (
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/ops/pairwise"
)

// weightShares is Comparisons.WeightShares for one binary comparison: the shares ρ_k of the
// scores and 0/1 labels, with the errors and cost Comparisons.WeightShares gives.
func weightShares(scores, labels []float64, cfg pairwise.Config, edges []float64) ([]float64, error) {
	m, err := margin(cfg)
	if err != nil {
		return nil, err
	}
	if err := checkEdges(edges); err != nil {
		return nil, err
	}
	c, err := split(scores, labels)
	if err != nil {
		return nil, err
	}
	if homogeneous(cfg.Surrogate) {
		c, m, edges = rescaled(c, m, edges)
	}
	neg := sorted(c.neg)
	ws := newWeightSums(cfg.Surrogate, m, neg)
	K := len(edges) - 1
	wk, nk := make([]float64, K), make([]float64, K)
	var total float64
	at := make([]int, len(edges)) // at[k] = negatives with f_j ≤ f_i − edges[k]
	for _, f := range c.pos {
		for k, e := range edges {
			at[k] = upper(neg, f-e)
		}
		// x ∈ [e_k, e_{k+1}) ⇔ f − e_{k+1} < f_j ≤ f − e_k: indices [at[k+1], at[k]). The
		// runs below at[K] (x ≥ e_K) and from at[0] (x < e_0) complete the total, so that
		// every pair's weight is summed once.
		total += ws.sum(f, 0, at[K]) + ws.sum(f, at[0], len(neg))
		for k := range K {
			lo, hi := at[k+1], at[k]
			if lo < hi {
				w := ws.sum(f, lo, hi)
				nk[k] += float64(hi - lo)
				wk[k] += w
				total += w
			}
		}
	}
	if math.IsInf(total, 0) || math.IsNaN(total) {
		return nil, check.Errorf(pkg, rocops.ErrRange, "weight shares of %v: the total weight is %v", cfg.Surrogate, total)
	}
	n := pairs(c)
	if cfg.Surrogate == pairwise.Square {
		// Square's weights take both signs. Each sum above rounds with an error of at most
		// about (its number of additions)·ε times Σ|w| ≤ N·max|w|, and max|w| is at an extreme
		// margin (w is linear); a total within a few times that bound has no digit left.
		maxW := max(math.Abs(pairwise.Weight(pairwise.Square, m, slices.Min(c.pos)-neg[len(neg)-1])),
			math.Abs(pairwise.Weight(pairwise.Square, m, slices.Max(c.pos)-neg[0])))
		adds := float64(len(neg) + len(c.pos)*(K+2))
		if bound := 8 * epsilon * adds * n * maxW; math.Abs(total) <= bound {
			return nil, check.Errorf(pkg, rocops.ErrRange, "the square surrogate's total weight %v is lost to cancellation, within its rounding error %.3g", total, bound)
		}
	}
	out := make([]float64, K)
	for k := range out {
		if nk[k] == 0 || total == 0 {
			out[k] = math.NaN()
			continue
		}
		out[k] = (wk[k] / total) / (nk[k] / n)
	}
	return out, nil
}

func checkEdges(edges []float64) error {
	if len(edges) < 2 {
		return check.Errorf(pkg, rocops.ErrConfig, "%d interval edges, want at least 2", len(edges))
	}
	for k, e := range edges {
		if math.IsNaN(e) {
			return check.Errorf(pkg, rocops.ErrConfig, "interval edges[%d] is NaN", k)
		}
		if k > 0 && !(e > edges[k-1]) {
			return check.Errorf(pkg, rocops.ErrConfig, "interval edges[%d] = %v does not exceed edges[%d] = %v", k, e, k-1, edges[k-1])
		}
	}
	return nil
}

// weightSums sums w(f − g_j) over ranges of the ascending negative scores g.
type weightSums struct {
	s     pairwise.Surrogate
	m     float64
	neg   []float64 // ascending
	cum   []float64 // cum[k] = Σ_{j<k} g_j − k·shift (Square, SquaredHinge) or Σ_{j<k} e^{g_j − shift} (Exponential)
	shift float64
}

func newWeightSums(s pairwise.Surrogate, m float64, neg []float64) *weightSums {
	ws := &weightSums{s: s, m: m, neg: neg}
	if s == pairwise.Logistic || s == pairwise.Hinge {
		return ws
	}
	ws.cum = make([]float64, len(neg)+1)
	switch s {
	case pairwise.Exponential:
		// Ascending terms e^{g − max g} ≤ 1: the prefix sum up to k is at most k times its
		// largest term, so a difference of two prefix sums keeps a relative error of order
		// n·ε of the range's own sum.
		ws.shift = neg[len(neg)-1]
		for k, g := range neg {
			ws.cum[k+1] = ws.cum[k] + math.Exp(g-ws.shift)
		}
	default:
		// Centre on the mean to keep the prefix sums of the scores small.
		for _, g := range neg {
			ws.shift += g
		}
		ws.shift /= float64(len(neg))
		for k, g := range neg {
			ws.cum[k+1] = ws.cum[k] + (g - ws.shift)
		}
	}
	return ws
}

// sum returns Σ_{j ∈ [lo, hi)} w(f − g_j).
func (ws *weightSums) sum(f float64, lo, hi int) float64 {
	switch ws.s {
	case pairwise.Logistic:
		var t float64
		for _, g := range ws.neg[lo:hi] {
			t += pairwise.Weight(pairwise.Logistic, ws.m, f-g)
		}
		return t
	case pairwise.Exponential:
		return math.Exp(ws.shift-f) * (ws.cum[hi] - ws.cum[lo])
	case pairwise.Square:
		return ws.linear(f, lo, hi)
	}
	// Hinge and SquaredHinge: only the pairs with x < m, that is g_j > f − m, are active.
	lo = max(lo, upper(ws.neg, f-ws.m))
	if lo >= hi {
		return 0
	}
	if ws.s == pairwise.Hinge {
		return float64(hi - lo)
	}
	return ws.linear(f, lo, hi)
}

// linear returns Σ_{j ∈ [lo, hi)} 2(m − f + g_j).
func (ws *weightSums) linear(f float64, lo, hi int) float64 {
	n := float64(hi - lo)
	return 2 * (n*(ws.m-f+ws.shift) + (ws.cum[hi] - ws.cum[lo]))
}

// epsilon is float64's machine epsilon, 2^−52.
const epsilon = 0x1p-52

// homogeneous reports whether the shares of s are unchanged when the scores, the margin and
// the edges are multiplied by one positive factor: w(c·x; c·m) = c·w(x; m) for Square and
// SquaredHinge, w(c·x; c·m) = w(x; m) for Hinge.
func homogeneous(s pairwise.Surrogate) bool {
	return s == pairwise.Square || s == pairwise.SquaredHinge || s == pairwise.Hinge
}

// rescaled returns the scores, the margin and the edges divided by 2^k, a power of two near
// the largest of |m| and |f| (exact, as every division by a power of two that stays normal).
func rescaled(c classes, m float64, edges []float64) (classes, float64, []float64) {
	big := math.Abs(m)
	for _, f := range c.pos {
		big = max(big, math.Abs(f))
	}
	for _, f := range c.neg {
		big = max(big, math.Abs(f))
	}
	k := log2Scale(big)
	if k == 0 {
		return c, m, edges
	}
	s := math.Ldexp(1, -k)
	div := func(xs []float64) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = x * s
		}
		return out
	}
	return classes{pos: div(c.pos), neg: div(c.neg)}, m * s, div(edges)
}
