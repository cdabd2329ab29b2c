package pairwise

import (
	"math"
	"runtime"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Evaluate returns the pairwise surrogate loss of a batch of scores f with 0/1 labels y (Chen
// et al., arXiv 2610.21743). With Pairs = 0 it is the exact mean over every positive–negative
// pair,
//
//	L = (1/(|B1|·|B0|)) Σ_{i∈B1} Σ_{j∈B0} ℓ(f_i − f_j),
//
// where B1 = {i : y_i = 1} and B0 = {j : y_j = 0} are the positives and the negatives and ℓ
// is cfg.Surrogate with margin m = cfg.Margin (see [Surrogate]). It is computed without
// visiting the pairs for four surrogates: Square and Exponential in O(n), Hinge and
// SquaredHinge in O(n log n); Logistic visits all |B1|·|B0| pairs, spread over
// runtime.GOMAXPROCS goroutines (docs/pairwise.md derives each algorithm).
//
// With Pairs = k > 0 it is the mean over k pairs (i_t, j_t), t = 1..k, drawn independently,
// i_t uniformly from B1 and j_t uniformly from B0:
//
//	L̂ = (1/k) Σ_t ℓ(f_{i_t} − f_{j_t}),
//
// an unbiased estimate of L whose gradient is an unbiased estimate of ∇L, since the
// distribution of the pairs does not depend on the scores (docs/pairwise.md). The draw comes from
// a PCG generator seeded by cfg.Seed and picks positions within each class (the t-th pair is
// the same i-th positive and j-th negative, in batch order, for every batch with the same
// class sizes), so the same seed and labels give the same pairs and the same result.
//
// Partial AUC. With MaxFPR = β > 0 the negatives are cut to the k₋ = ⌈β·|B0|⌉ highest
// scores, and with MinTPR = γ > 0 the positives to the k₊ = ⌈(1−γ)·|B1|⌉ lowest (each ⌈·⌉ at
// least 1). The loss is the mean of ℓ over the k₊·k₋ kept pairs, with weights u_i, v_j:
//
//	L = (1/(k₊·k₋)) Σ_{i∈B1} Σ_{j∈B0} u_i·v_j·ℓ(f_i − f_j),
//
// v_j = 1 for a negative above the k₋-th highest negative score t₋ and 0 below it; if r
// negatives score exactly t₋ and q of the k₋ places are left for them, each has v_j = q/r
// (likewise u_i at the k₊-th lowest positive score, and u_i = 1 for every positive without
// MinTPR). The weights sum to k₊ and k₋, and sharing the places at a tie makes L continuous
// in the scores. With β = 1 (or 0) and γ = 0 nothing is cut and L is the loss above. Each
// surrogate runs its exact algorithm on the kept examples; sampled pairs are drawn from the
// k₊ and k₋ kept places. This is the one-way (FPR ≤ β) and two-way (FPR ≤ β, TPR ≥ γ)
// partial-AUC loss; docs/pairwise.md relates it to the CVaR objective of Zhu et al., "When
// AUC meets DRO: optimizing partial AUC for deep learning with non-convex convergence
// guarantee", ICML 2022.
//
// Errors: the batch must be non-empty (rocops.ErrEmpty), scores and labels of one length
// (rocops.ErrLength), scores finite (rocops.ErrNonFinite), labels 0 or 1 (rocops.ErrLabel) with both classes
// present (rocops.ErrOneClass); a setting outside its domain is rocops.ErrConfig (see
// [Config.Validate]). A loss or gradient beyond the float64 range, which finite scores can
// produce (the exponential surrogate of a pair misranked by more than about 709, or any
// surrogate of score differences near ±1.8e308), is rocops.ErrRange rather than an infinite
// loss that would silently turn parameters into NaN.
func Evaluate(scores, labels []float64, cfg Config) (float64, error) {
	loss, _, err := compute(scores, labels, cfg, false)
	return loss, err
}

// Gradient returns ∂L/∂f_i for every score and the loss L of [Evaluate], computed together
// by the same algorithm. For the exact loss,
//
//	∂L/∂f_i = −(1/(|B1|·|B0|)) Σ_{j∈B0} w(f_i − f_j)   for a positive i,
//	∂L/∂f_j = +(1/(|B1|·|B0|)) Σ_{i∈B1} w(f_i − f_j)   for a negative j,
//
// with w = −ℓ′ the weight of [Weight] (subgradient 0 at the hinge's kink); for sampled pairs
// the same sums run over the drawn pairs with 1/k in front. For a partial AUC the sums run
// over the kept pairs with the weights u_i·v_j and 1/(k₊·k₋) in front, the kept set and its
// weights held fixed (dropped examples get 0): ∂L/∂f_i = −(u_i/(k₊·k₋)) Σ_j v_j·w(f_i − f_j)
// and ∂L/∂f_j = +(v_j/(k₊·k₋)) Σ_i u_i·w(f_i − f_j). The gradients sum to zero: the loss
// depends only on score differences. Errors are those of Evaluate.
func Gradient(scores, labels []float64, cfg Config) ([]float64, float64, error) {
	loss, grad, err := compute(scores, labels, cfg, true)
	if err != nil {
		return nil, 0, err
	}
	return grad, loss, nil
}

// compute validates, then runs the algorithm cfg calls for; the gradient is nil unless
// withGrad is set. Each algorithm returns the loss and, when its grad argument is not nil
// (zeroed, one element per score), stores ∂L/∂f_k in grad[k].
func compute(scores, labels []float64, cfg Config, withGrad bool) (float64, []float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, nil, err
	}
	m := cfg.margin()
	b, err := newBatch(scores, labels)
	if err != nil {
		return 0, nil, err
	}
	k, cut := b.cut(cfg.MaxFPR, cfg.MinTPR)
	if cut {
		b = k.batch
	}
	var grad []float64
	if withGrad {
		grad = make([]float64, len(b.scores))
	}
	var loss float64
	switch {
	case cfg.Pairs > 0:
		loss = sampled(cfg.Surrogate, m, b, cfg.Pairs, cfg.Seed, grad)
	case cfg.Surrogate == Square:
		loss = square(m, b.centred(), grad)
	case cfg.Surrogate == Exponential:
		loss = exponential(b.centred(), grad)
	case cfg.Surrogate == Hinge || cfg.Surrogate == SquaredHinge:
		loss = hinge(cfg.Surrogate == SquaredHinge, m, b.centred(), grad)
	default: // Logistic
		loss = logistic(b.centred(), grad, runtime.GOMAXPROCS(0))
	}
	if !finite(loss) || !finite(grad...) {
		return 0, nil, check.Errorf(pkg, rocops.ErrRange, "the loss or its gradient overflows float64 (surrogate %v, margin %v)", cfg.Surrogate, m)
	}
	if cut && grad != nil {
		grad = k.scatter(grad, len(scores))
	}
	return loss, grad, nil
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
