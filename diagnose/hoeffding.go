package diagnose

import (
	"errors"
	"fmt"
	"math"

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
	Mean                        float64 // μ; for Project, the projected drift
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
// r(I_a, J_b), r(I_a′, J_b′) of the batch are uncorrelated unless a = a′ and b = b′.
func (s Split) BatchVariance(bPos, bNeg int) float64 {
	p, n := float64(bPos), float64(bNeg)
	return s.VarPos/p + s.VarNeg/n + s.VarResidual/(p*n)
}

// FirstOrderShare returns the share of BatchVariance(bPos, bNeg) that comes from the
// first-order parts, (VarPos/bPos + VarNeg/bNeg)/BatchVariance, in [0, 1]. It is near 1
// while mini-batch noise along the direction scales as 1/B and near 0 when only the pair
// interaction, scaling as 1/B², is left. It is NaN when the variance is zero.
func (s Split) FirstOrderShare(bPos, bNeg int) float64 {
	v := s.BatchVariance(bPos, bNeg)
	if v == 0 {
		return math.NaN()
	}
	return (s.VarPos/float64(bPos) + s.VarNeg/float64(bNeg)) / v
}

// Hoeffding returns the Split of h over nPos positives and nNeg negatives, indexed from 0.
// It calls h twice for every pair (one pass for the row and column means, one for the
// residual), O(nPos·nNeg) calls and O(nPos + nNeg) memory; h must be deterministic.
//
// Errors: nPos or nNeg below 1 (ErrNoPositives, ErrNoNegatives), a nil h (ErrEmpty), a NaN or
// infinite value of h (ErrNonFinite).
func Hoeffding(nPos, nNeg int, h func(i, j int) float64) (Split, error) {
	switch {
	case nPos < 1:
		return Split{}, check.Errorf(pkg, ErrNoPositives, "nPos = %d", nPos)
	case nNeg < 1:
		return Split{}, check.Errorf(pkg, ErrNoNegatives, "nNeg = %d", nNeg)
	case h == nil:
		return Split{}, check.Errorf(pkg, ErrEmpty, "nil pair function")
	}
	row, col := make([]float64, nPos), make([]float64, nNeg)
	var total float64
	for i := range nPos {
		var s float64
		for j := range nNeg {
			v := h(i, j)
			s += v
			col[j] += v
		}
		row[i] = s
		total += s
	}
	if math.IsNaN(total) || math.IsInf(total, 0) {
		return Split{}, nonFinite(nPos, nNeg, h)
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
			r := h(i, j) - base - col[j]
			sp.VarResidual += r * r
		}
	}
	sp.VarResidual /= p * n
	return sp, nil
}

// nonFinite finds the first pair where h is not finite and reports it, or reports an
// overflow of the sums.
func nonFinite(nPos, nNeg int, h func(i, j int) float64) error {
	for i := range nPos {
		for j := range nNeg {
			if v := h(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return check.Errorf(pkg, ErrNonFinite, "h(%d, %d) = %v", i, j, v)
			}
		}
	}
	return check.Errorf(pkg, ErrNonFinite, "the sum of h overflows")
}

// Project returns the Split of the projected pair term
//
//	h(i, j) = w(f_i − f_j)·(p_i − p_j)
//
// over the positives i and negatives j of the pool, each class in input order, where f are the
// scores, w = −ℓ′ the weight of cfg's surrogate (pairwise.Weight) and p_k = ⟨∇θ f_k, v⟩ the
// derivative of example k's score along a direction v in parameter space (see ScoreTangents).
// The pairwise loss L = mean ℓ(x_ij) has directional derivative ⟨∇θ L, v⟩ = −mean h, so a
// gradient step θ ← θ − η∇L moves along v by η·Split.Mean, and a mini-batch step by η times
// the batch mean of h, whose variance is Split.BatchVariance. cfg.Pairs and cfg.Seed are
// ignored. Cost: 2·n₊n₋ evaluations of w, O(n) memory.
//
// Errors: those of Misranking for scores and labels; ErrLength when p and scores differ in
// length; ErrNonFinite for a NaN or infinite p_k; ErrSurrogate for a bad cfg.
func Project(scores, labels, p []float64, cfg pairwise.Config) (Split, error) {
	m, err := margin(cfg)
	if err != nil {
		return Split{}, err
	}
	if len(p) != len(scores) {
		return Split{}, check.Errorf(pkg, ErrLength, "%d scores, %d projected gradients", len(scores), len(p))
	}
	c, err := split(scores, labels)
	if err != nil {
		return Split{}, err
	}
	pc, err := split(p, labels)
	if err != nil {
		if errors.Is(err, ErrNonFinite) {
			return Split{}, fmt.Errorf("%w (projected gradients)", err)
		}
		return Split{}, err
	}
	s := cfg.Surrogate
	return Hoeffding(len(c.pos), len(c.neg), func(i, j int) float64 {
		return pairwise.Weight(s, m, c.pos[i]-c.neg[j]) * (pc.pos[i] - pc.neg[j])
	})
}
