package pairwise

import (
	"math"
	"runtime"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Evaluate returns the pairwise surrogate loss of a batch of scores f with 0/1 labels y (Chen
// et al., arXiv 2610.21743), or of a batch of k classes or labels, the mean of such losses
// (cfg.Task; see "Classes and labels" below). With Pairs = 0 it is the exact mean over every
// positive–negative pair,
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
// Classes and labels. For a task of k columns (cfg.Task = Classes(k) or Labels(k); scores
// row-major n×k, s_ic = scores[i·k + c]) write L(f, P, N) for the binary loss above of the
// scores f_i of the rows P as positives and of the rows N as negatives, and s_·c for column c.
// With class indices y_i ∈ {0, …, k−1}, or an n×k 0/1 indicator Y,
//
//	one-vs-rest (Classes, OvO false)  L = (1/k) Σ_c L(s_·c, {y = c}, {y ≠ c})
//	one-vs-one  (Classes, OvO true)   L = (1/(k(k−1))) Σ_{a≠b} L(s_·a, {y = a}, {y = b})
//	label-wise  (Labels)              L = (1/k) Σ_c L(s_·c, {Y_·c = 1}, {Y_·c = 0})
//
// and the gradient is the same mean of each comparison's gradient, scattered back to the column
// and rows it came from; every other entry of a comparison's gradient is 0. Each comparison runs
// the binary algorithm (with the cuts of MaxFPR and MinTPR) on its column and rows only: exact,
// with no n×n matrix. One-vs-rest and label-wise cost k binary losses on n rows; one-vs-one's
// k(k−1) comparisons hold 2(k−1)·n rows in all (each row takes part in the 2(k−1) comparisons
// of its class), about 2(k−1)/k ≈ 2 times one-vs-rest for the sort-based surrogates (a little
// less: the sorts are shorter), and the same for Logistic, whose Σ_{a≠b} n_a·n_b pairs are
// one-vs-rest's Σ_c n_c·(n − n_c). Memory is O(n·k). With Pairs > 0, comparison t (t = c for
// one-vs-rest and label column c, t = a·k + b for one-vs-one) draws its own Pairs pairs as above,
// from the seed SplitMix64(Seed + (t+1)·0x9E3779B97F4A7C15) (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", OOPSLA 2014): each comparison's estimate is
// unbiased, so their mean is, and the comparisons' draws differ.
//
// Errors: the batch must be non-empty (rocops.ErrEmpty), scores and labels of one length
// (rocops.ErrLength; n·k scores for k columns, with n class indices or n·k labels), scores finite
// (rocops.ErrNonFinite), labels 0 or 1 or class indices in 0…k−1 (rocops.ErrLabel), and each
// comparison with both classes: a batch, a class or a label column without rows of one class is
// rocops.ErrOneClass (rocops.ErrNoPositives or rocops.ErrNoNegatives for a binary batch or a label
// column), naming the class or column; a setting outside its domain is rocops.ErrConfig (see
// [Config.Validate]). A loss or gradient beyond the float64 range, which finite scores can
// produce (the exponential surrogate of a pair misranked by more than about 709, or any
// surrogate of score differences near ±1.8e308), is rocops.ErrRange rather than an infinite
// loss that would silently turn parameters into NaN; for k columns the error names the
// comparison.
func Evaluate(scores, labels []float64, cfg Config) (float64, error) {
	loss, _, err := evaluate(scores, labels, cfg, false)
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
// depends only on score differences. For k classes or labels the gradient, row-major n×k like
// the scores, is the mean of the comparisons' gradients (see Evaluate). Errors are those of
// Evaluate.
func Gradient(scores, labels []float64, cfg Config) ([]float64, float64, error) {
	loss, grad, err := evaluate(scores, labels, cfg, true)
	if err != nil {
		return nil, 0, err
	}
	return grad, loss, nil
}

// evaluate validates cfg and computes the loss of its task, and its gradient when withGrad is
// set (nil otherwise).
func evaluate(scores, labels []float64, cfg Config, withGrad bool) (float64, []float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, nil, err
	}
	switch cfg.Task.Kind() {
	case rocops.Multiclass:
		return multiclass(scores, labels, cfg, withGrad)
	case rocops.Multilabel:
		return multilabel(scores, labels, cfg, withGrad)
	}
	return compute(scores, labels, cfg, withGrad)
}

// compute validates a binary batch, then runs the algorithm cfg (valid and binary) calls for;
// the gradient is nil unless withGrad is set. Each algorithm returns the loss and, when its
// grad argument is not nil (zeroed, one element per score), stores ∂L/∂f_k in grad[k].
func compute(scores, labels []float64, cfg Config, withGrad bool) (float64, []float64, error) {
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
		return 0, nil, check.Errorf(pkg, rocops.ErrRange, "the loss overflows float64, or its gradient does (surrogate %v, margin %v)", cfg.Surrogate, m)
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
