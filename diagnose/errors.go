package diagnose

import (
	"errors"
	"fmt"
	"math"

	"github.com/rocops/rocops/internal/check"
)

// pkg prefixes the package's error messages.
const pkg = "diagnose"

// Errors of the diagnostics' own settings. Bad (scores, labels) input is reported with the
// module's shared vocabulary, [rocops.ErrEmpty] to [rocops.ErrNoNegatives].
var (
	// ErrSeverity reports a severity M that is not finite and positive.
	ErrSeverity = errors.New("diagnose: severity M must be finite and positive")
	// ErrEdges reports interval edges that are fewer than two, NaN or not strictly increasing.
	ErrEdges = errors.New("diagnose: bad interval edges")
	// ErrSurrogate reports a pairwise.Config with an unknown surrogate or a bad margin.
	ErrSurrogate = errors.New("diagnose: bad surrogate configuration")
	// ErrPartial reports a pairwise.Config with a partial-AUC cut, MaxFPR or MinTPR not 0:
	// the diagnostics weigh every (positive, negative) pair, the full loss's, and would
	// describe another loss than the one with the cut.
	ErrPartial = errors.New("diagnose: partial-AUC cut (MaxFPR, MinTPR) not supported")
	// ErrSizes reports bad batch sizes or repetitions for BatchSlope.
	ErrSizes = errors.New("diagnose: bad batch sizes")
	// ErrDirection reports a direction whose length does not match the model's parameters,
	// or that is not finite.
	ErrDirection = errors.New("diagnose: bad direction")
	// ErrNoSevere reports a selection batch without a severe pair (x < −M), or whose
	// severe-pair loss has a zero gradient, so that it defines no correction direction.
	ErrNoSevere = errors.New("diagnose: no severe pair to correct")
	// ErrDegenerate reports mini-batch means that do not vary at some batch size, so that
	// their log-variance is −∞.
	ErrDegenerate = errors.New("diagnose: batch means do not vary")
	// ErrOverflow reports a result beyond float64's range even after the inputs were rescaled
	// by their largest magnitude (a variance of values near 1e300, the norm of a gradient whose
	// entries are), rather than returning ±Inf.
	ErrOverflow = errors.New("diagnose: result overflows float64")
	// ErrCancellation reports a sum of terms of both signs that cancels to within its
	// rounding error (the square surrogate's total weight over scores near ±1e300), so that
	// no digit of it is known, rather than returning the NaN it divides into.
	ErrCancellation = errors.New("diagnose: result lost to cancellation")
	// ErrTooLarge reports counts beyond the documented bounds, MaxCount and MaxPairs.
	ErrTooLarge = errors.New("diagnose: too many rows or pairs")
)

// Bounds on the sizes the diagnostics take, so that a count such as math.MaxInt is an error
// rather than a failed allocation or a computation of centuries.
const (
	// MaxCount is the most positives or negatives Hoeffding keeps a mean for (8 bytes each).
	MaxCount = 1 << 27
	// MaxPairs is the most evaluations of a pair function one call makes: n₊·n₋ for
	// Hoeffding and Project, reps·Σ B² for BatchSlope (about 1.1e12, hours of work).
	MaxPairs = 1 << 40
	// MaxBatchSize is the largest batch size BatchSlope draws (8 bytes per index).
	MaxBatchSize = 1 << 20
)

// checkCounts returns ErrTooLarge when nPos or nNeg exceed MaxCount or their product MaxPairs;
// both must be at least 1.
func checkCounts(nPos, nNeg int) error {
	if nPos > MaxCount || nNeg > MaxCount || nPos > MaxPairs/nNeg {
		return fmt.Errorf("%w: %d positives and %d negatives (at most %d of each and %d pairs)", ErrTooLarge, nPos, nNeg, MaxCount, int64(MaxPairs))
	}
	return nil
}

// log2Scale returns ⌊log₂ a⌋ for a finite a > 0, and 0 otherwise: dividing by 2 to that
// power is exact and brings a into [1, 2).
func log2Scale(a float64) int {
	if !(a > 0) || math.IsInf(a, 0) {
		return 0
	}
	return math.Ilogb(a)
}

// classes holds the scores of each class in input order.
type classes struct {
	pos, neg []float64
}

// split validates scores and labels and returns the scores of each class.
func split(scores, labels []float64) (classes, error) {
	pos, neg, err := check.Split(pkg, scores, labels)
	return classes{pos: pos, neg: neg}, err
}

// checkSeverity returns ErrSeverity unless m is finite and positive.
func checkSeverity(m float64) error {
	if !(m > 0) || math.IsInf(m, 0) {
		return fmt.Errorf("%w, got %v", ErrSeverity, m)
	}
	return nil
}
