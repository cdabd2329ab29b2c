package diagnose

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"

	"github.com/rocops/rocops/ops/pairwise"
)

// Split is the two-sample Hoeffding decomposition of a pair function h(i, j) over a pool of
// NPos positives i and NNeg negatives j. With μ the mean of h over all pairs,
//
//	h₊(i) = (1/NNeg) Σ_j h(i, j) − μ,   h₋(j) = (1/NPos) Σ_i h(i, j) − μ,
//	r(i, j) = h(i, j) − μ − h₊(i) − h₋(j),
//
// the three parts h₊, h₋ and r have mean zero and are orthogonal over the pool, and
//
//	VarPos = (1/NPos) Σ_i h₊(i)²,   VarNeg = (1/NNeg) Σ_j h₋(j)²,
//	VarResidual = (1/(NPos·NNeg)) Σ_{i,j} r(i, j)²
//
// (divided by the counts, not the counts minus one: they are the variances of the pool
// itself, not estimates of a population's). VarPos and VarNeg are the first-order parts and
// VarResidual the pair interaction (Chen et al., "Pairwise AUC Optimization Needs Corrective
// Power", arXiv 2610.21743, appendices C and D).
type Split struct {
	Mean                        float64 // μ; for Comparisons.Project, the projected drift
	VarPos, VarNeg, VarResidual float64
	NPos, NNeg                  int
}

// BatchVariance returns the variance of the mean of h over a mini-batch of bPos positives and
// bNeg negatives drawn uniformly from the pool with replacement, all independently:
//
//	Var = VarPos/bPos + VarNeg/bNeg + VarResidual/(bPos·bNeg).
//
// The identity is exact: the batch mean is μ plus the batch means of h₊, of h₋ and of r, which
// are uncorrelated because every row and every column of r averages to zero, and two terms
// r(I_a, J_b), r(I_a′, J_b′) of the batch are uncorrelated unless a = a′ and b = b′. A batch
// needs a row of each class: bPos or bNeg below 1 gives NaN.
func (s Split) BatchVariance(bPos, bNeg int) float64 {
	if bPos < 1 || bNeg < 1 {
		return math.NaN()
	}
	p, n := float64(bPos), float64(bNeg)
	return s.VarPos/p + s.VarNeg/n + s.VarResidual/(p*n)
}

// FirstOrderShare returns the share of BatchVariance(bPos, bNeg) that comes from the
// first-order parts, (VarPos/bPos + VarNeg/bNeg)/BatchVariance, in [0, 1]. It is near 1
// while mini-batch noise along the direction scales as 1/B and near 0 when only the pair
// interaction, scaling as 1/B², is left. It is NaN when the variance is zero, and, as
// BatchVariance, when bPos or bNeg is below 1.
func (s Split) FirstOrderShare(bPos, bNeg int) float64 {
	v := s.BatchVariance(bPos, bNeg)
	if v == 0 || math.IsNaN(v) {
		return math.NaN()
	}
	return (s.VarPos/float64(bPos) + s.VarNeg/float64(bNeg)) / v
}

// Hoeffding returns the Split of h over nPos positives and nNeg negatives, indexed from 0.
// It calls h twice for every pair (one pass for the row and column means, one for the
// residual), O(nPos·nNeg) calls and O(nPos + nNeg) memory; h must be deterministic. Values of
// any finite magnitude are taken: the sums are formed on h divided by a power of two near its
// largest |h| when they would overflow otherwise (a third pass), and the variances in those
// units, so that nothing overflows before the result itself would.
//
// Errors: nPos or nNeg below 1 (rocops.ErrNoPositives, rocops.ErrNoNegatives), a nil h (rocops.ErrEmpty), a NaN or
// infinite value of h (rocops.ErrNonFinite), more than 2^27 of a class or 2^40 pairs
// (rocops.ErrRange), and a variance beyond float64's range (rocops.ErrRange, as when |h| reaches
// about 1e154 and varies on that scale).
func Hoeffding(nPos, nNeg int, h func(i, j int) float64) (Split, error) {
	switch {
	case nPos < 1:
		return Split{}, check.Errorf(pkg, rocops.ErrNoPositives, "nPos = %d", nPos)
	case nNeg < 1:
		return Split{}, check.Errorf(pkg, rocops.ErrNoNegatives, "nNeg = %d", nNeg)
	case h == nil:
		return Split{}, check.Errorf(pkg, rocops.ErrEmpty, "nil pair function")
	}
	if err := checkCounts(nPos, nNeg); err != nil {
		return Split{}, err
	}
	row, col := make([]float64, nPos), make([]float64, nNeg)
	total, maxAbs, err := pairSums(h, 1, row, col)
	if err != nil {
		return Split{}, err
	}
	k := log2Scale(maxAbs)
	scale := math.Ldexp(1, k)
	if finite(total) && finite(row...) && finite(col...) {
		total /= scale
		for i := range row {
			row[i] /= scale
		}
		for j := range col {
			col[j] /= scale
		}
	} else if total, _, err = pairSums(h, scale, row, col); err != nil { // the sums overflowed
		return Split{}, err
	}
	p, n := float64(nPos), float64(nNeg)
	mu := total / (p * n)
	sp := Split{Mean: mu, NPos: nPos, NNeg: nNeg}
	for i := range row {
		row[i] = row[i]/n - mu
		sp.VarPos += row[i] * row[i]
	}
	for j := range col {
		col[j] = col[j]/p - mu
		sp.VarNeg += col[j] * col[j]
	}
	sp.VarPos /= p
	sp.VarNeg /= n
	for i := range nPos {
		base := mu + row[i]
		for j := range nNeg {
			r := h(i, j)/scale - base - col[j]
			sp.VarResidual += r * r
		}
	}
	sp.VarResidual /= p * n
	return sp.scaled(k)
}

// pairSums fills row and col with the row and column sums of h/scale and returns their total
// and the largest |h|, or an rocops.ErrNonFinite error naming the first pair where h is NaN or ±Inf.
func pairSums(h func(i, j int) float64, scale float64, row, col []float64) (total, maxAbs float64, err error) {
	clear(col)
	for i := range row {
		var s float64
		for j := range col {
			v := h(i, j)
			a := math.Abs(v)
			if !(a <= math.MaxFloat64) {
				return 0, 0, check.Errorf(pkg, rocops.ErrNonFinite, "h(%d, %d) = %v", i, j, v)
			}
			maxAbs = max(maxAbs, a)
			v /= scale
			s += v
			col[j] += v
		}
		row[i] = s
		total += s
	}
	return total, maxAbs, nil
}

// finite reports whether every x is neither NaN nor ±Inf.
func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// scaled returns the Split of 2^k·h given s, the Split of h: the mean times 2^k and the
// variances times 2^2k, each rounded once (math.Ldexp), or rocops.ErrRange naming the first part
// that leaves float64's range.
func (s Split) scaled(k int) (Split, error) {
	s.Mean = math.Ldexp(s.Mean, k)
	s.VarPos, s.VarNeg, s.VarResidual = math.Ldexp(s.VarPos, 2*k), math.Ldexp(s.VarNeg, 2*k), math.Ldexp(s.VarResidual, 2*k)
	for _, v := range []struct {
		name string
		x    float64
	}{{"the mean", s.Mean}, {"VarPos", s.VarPos}, {"VarNeg", s.VarNeg}, {"VarResidual", s.VarResidual}} {
		if math.IsInf(v.x, 0) {
			return Split{}, check.Errorf(pkg, rocops.ErrRange, "%s of the pair term exceeds %g", v.name, math.MaxFloat64)
		}
	}
	return s, nil
}

// binaryProject is Comparisons.Project for one binary comparison: the Split of
//
//	h(i, j) = w(f_i − f_j)·(p_i − p_j)
//
// over the positives i and negatives j of scores f, each class in input order, with p the
// scores' tangents. Its errors are those of Comparisons.Project, the shape of p as p and scores
// differing in length (rocops.ErrLength).
func binaryProject(scores, labels, p []float64, cfg pairwise.Config) (Split, error) {
	m, err := margin(cfg)
	if err != nil {
		return Split{}, err
	}
	if len(p) != len(scores) {
		return Split{}, check.Errorf(pkg, rocops.ErrLength, "%d scores, %d projected gradients", len(scores), len(p))
	}
	c, err := split(scores, labels)
	if err != nil {
		return Split{}, err
	}
	pc, err := split(p, labels)
	if err != nil {
		if errors.Is(err, rocops.ErrNonFinite) {
			return Split{}, fmt.Errorf("%w (projected gradients)", err)
		}
		return Split{}, err
	}
	s := cfg.Surrogate
	// h = w·Δp may overflow where w and Δp do not: Hoeffding gets h/(sw·sp), with sw and sp
	// powers of two near the largest |w| and |Δp| over the pairs (w is monotone in the
	// margin, so its extremes are at the extreme margins), and the Split is scaled back.
	kw := log2Scale(max(math.Abs(pairwise.Weight(s, m, minOf(c.pos)-maxOf(c.neg))), math.Abs(pairwise.Weight(s, m, maxOf(c.pos)-minOf(c.neg)))))
	kp := log2Scale(max(math.Abs(maxOf(pc.pos)-minOf(pc.neg)), math.Abs(maxOf(pc.neg)-minOf(pc.pos))))
	sw, sp := math.Ldexp(1, kw), math.Ldexp(1, kp)
	split, err := Hoeffding(len(c.pos), len(c.neg), func(i, j int) float64 {
		return pairwise.Weight(s, m, c.pos[i]-c.neg[j]) / sw * ((pc.pos[i] - pc.neg[j]) / sp)
	})
	if err != nil {
		return Split{}, err
	}
	return split.scaled(kw + kp)
}

// minOf and maxOf return the smallest and largest of xs, which is not empty.
func minOf(xs []float64) float64 { return slices.Min(xs) }
func maxOf(xs []float64) float64 { return slices.Max(xs) }
