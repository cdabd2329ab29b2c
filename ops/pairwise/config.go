package pairwise

import (
	"errors"
	"fmt"
	"math"
)

// Config chooses the surrogate and how the pairs are visited. The zero value is the exact
// all-pairs logistic loss.
type Config struct {
	// Surrogate is ℓ; the zero value is Logistic.
	Surrogate Surrogate
	// Margin is m in Square, Hinge and SquaredHinge; 0 means the default 1. It must be
	// finite and not negative. Logistic and Exponential have no margin and ignore it.
	Margin float64
	// Pairs is 0 for the exact mean over all |B1|·|B0| pairs, or k > 0 for the mean over k
	// pairs drawn uniformly with replacement: an unbiased estimate of the exact value and
	// gradient (see Evaluate). It must not be negative.
	Pairs int
	// Seed seeds the draw of sampled pairs; unused when Pairs is 0.
	Seed uint64
	// MaxFPR is β of the one-way partial AUC up to false-positive rate β: only the
	// k₋ = ⌈β·|B0|⌉ highest-scored negatives take part, every positive against them (see
	// [Evaluate]). 0 means off (every negative, as β = 1); otherwise 0 < β ≤ 1.
	MaxFPR float64
	// MinTPR is γ of the two-way partial AUC (false-positive rate at most β and true-positive
	// rate at least γ): only the k₊ = ⌈(1−γ)·|B1|⌉ lowest-scored positives take part. 0 means
	// off (every positive); otherwise 0 < γ < 1. It combines with MaxFPR; without it every
	// negative takes part.
	MinTPR float64
}

// pkg prefixes the package's error messages.
const pkg = "pairwise"

// Errors of the package's own settings, wrapped with details; test for them with errors.Is.
// Bad input (scores, labels, nodes) is reported with the module's shared vocabulary,
// [rocops.ErrEmpty] to [rocops.ErrNode].
var (
	ErrMargin    = errors.New("pairwise: margin must be finite and not negative")
	ErrPairs     = errors.New("pairwise: Pairs must not be negative")
	ErrSurrogate = errors.New("pairwise: unknown surrogate")
	ErrMaxFPR    = errors.New("pairwise: MaxFPR must be in [0, 1]")
	ErrMinTPR    = errors.New("pairwise: MinTPR must be in [0, 1)")
	// ErrOverflow reports a loss or gradient beyond the range of the float type, which
	// finite scores can produce: the exponential surrogate of a pair misranked by more than
	// about 709 (about 88 in a float32 graph), or any surrogate of score differences near
	// ±1.8e308. A float32 graph computes in float64 and reports ErrOverflow when its result
	// does not fit in float32. The result is an error rather than an infinite loss that
	// would silently turn parameters into NaN.
	ErrOverflow = errors.New("pairwise: loss overflows its float type")
)

// effectiveMargin returns the margin m that a Config.Margin of margin stands for.
func effectiveMargin(margin float64) (float64, error) {
	switch {
	case margin == 0:
		return 1, nil
	case margin < 0 || math.IsNaN(margin) || math.IsInf(margin, 0):
		return 0, fmt.Errorf("%w, got %v", ErrMargin, margin)
	}
	return margin, nil
}

// Validate reports whether the settings are valid (a known surrogate, a margin that is 0 or
// finite and not negative, Pairs ≥ 0, 0 ≤ MaxFPR ≤ 1, 0 ≤ MinTPR < 1, neither NaN; errors
// wrap ErrSurrogate, ErrMargin, ErrPairs, ErrMaxFPR or ErrMinTPR) and returns the effective
// margin m: Margin, or 1 for 0.
func (c Config) Validate() (margin float64, err error) {
	if !c.Surrogate.valid() {
		return 0, fmt.Errorf("%w: %d", ErrSurrogate, int(c.Surrogate))
	}
	if c.Pairs < 0 {
		return 0, fmt.Errorf("%w, got %d", ErrPairs, c.Pairs)
	}
	if !(c.MaxFPR >= 0 && c.MaxFPR <= 1) { // NaN fails both
		return 0, fmt.Errorf("%w, got %v", ErrMaxFPR, c.MaxFPR)
	}
	if !(c.MinTPR >= 0 && c.MinTPR < 1) {
		return 0, fmt.Errorf("%w, got %v", ErrMinTPR, c.MinTPR)
	}
	return effectiveMargin(c.Margin)
}
