package pairwise

import (
	"math"
)

// The test reference: the surrogates of Chen et al., arXiv 2610.21743 (§3, appendix E.1)
// written out directly, their weights w = −ℓ′ differentiated by hand, and the O(|B1|·|B0|)
// double loop over all pairs. None of it calls the package.

func naiveEll(s Surrogate, m, x float64) float64 {
	switch s {
	case Logistic:
		return math.Log1p(math.Exp(-x))
	case Exponential:
		return math.Exp(-x)
	case Square:
		return (m - x) * (m - x)
	case Hinge:
		return math.Max(0, m-x)
	case SquaredHinge:
		d := math.Max(0, m-x)
		return d * d
	}
	panic("unknown surrogate")
}

// naiveWeight is −dℓ/dx. At the hinge's kink x = m it takes the subgradient 0 (the pair
// counts as inactive), the convention documented by Weight.
func naiveWeight(s Surrogate, m, x float64) float64 {
	switch s {
	case Logistic:
		return 1 / (1 + math.Exp(x))
	case Exponential:
		return math.Exp(-x)
	case Square:
		return 2 * (m - x)
	case Hinge:
		if x < m {
			return 1
		}
		return 0
	case SquaredHinge:
		return 2 * math.Max(0, m-x)
	}
	panic("unknown surrogate")
}

// naive returns the mean of ℓ over all positive–negative pairs and its gradient, pair by
// pair: ∂/∂f_i of ℓ(f_i − f_j) is −w and ∂/∂f_j is +w.
func naive(s Surrogate, m float64, f, y []float64) (float64, []float64) {
	var loss float64
	grad := make([]float64, len(f))
	var pairs float64
	for i := range f {
		if y[i] != 1 {
			continue
		}
		for j := range f {
			if y[j] != 0 {
				continue
			}
			x := f[i] - f[j]
			loss += naiveEll(s, m, x)
			w := naiveWeight(s, m, x)
			grad[i] -= w
			grad[j] += w
			pairs++
		}
	}
	for k := range grad {
		grad[k] /= pairs
	}
	return loss / pairs, grad
}
