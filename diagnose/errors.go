package diagnose

import (
	"errors"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// pkg prefixes the package's error messages.
const pkg = "diagnose"

// Errors of the diagnostics' own. Bad (scores, labels) input is reported with the module's
// shared vocabulary, [rocops.ErrEmpty] to [rocops.ErrNoNegatives]; a bad setting (a severity,
// interval edges, a surrogate or a partial-AUC cut, batch sizes) is [rocops.ErrConfig] naming
// it; a result beyond float64's range, or lost to cancellation, and sizes past the bounds
// below are [rocops.ErrRange].
var (
	// ErrNoSevere reports a selection batch without a severe pair (x < −M), or whose
	// severe-pair loss has a zero gradient, so that it defines no correction direction.
	ErrNoSevere = errors.New("diagnose: no severe pair to correct")
	// ErrDegenerate reports mini-batch means that do not vary at some batch size, so that
	// their log-variance is −∞.
	ErrDegenerate = errors.New("diagnose: batch means do not vary")
)

// Bounds on the sizes the diagnostics take, so that a count such as math.MaxInt is an error
// rather than a failed allocation or a computation of centuries.
const (
	// maxCount is the most positives or negatives Hoeffding keeps a mean for (8 bytes each).
	maxCount = 1 << 27
	// maxPairs is the most evaluations of a pair function one call makes: n₊·n₋ for
	// Hoeffding and Comparisons.Project, reps·Σ B² for BatchSlope (about 1.1e12, hours of work).
	maxPairs = 1 << 40
	// maxBatchSize is the largest batch size BatchSlope draws (8 bytes per index).
	maxBatchSize = 1 << 20
)

// checkCounts returns rocops.ErrRange when nPos or nNeg exceed maxCount or their product
// maxPairs; both must be at least 1.
func checkCounts(nPos, nNeg int) error {
	if nPos > maxCount || nNeg > maxCount || nPos > maxPairs/nNeg {
		return check.Errorf(pkg, rocops.ErrRange, "%d positives and %d negatives, more than the diagnostics take (at most 2^27 of each and 2^40 pairs)", nPos, nNeg)
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

// checkSeverity returns rocops.ErrConfig unless m is finite and positive.
func checkSeverity(m float64) error {
	if !(m > 0) || math.IsInf(m, 0) {
		return check.Errorf(pkg, rocops.ErrConfig, "severity M must be finite and positive, got %v", m)
	}
	return nil
}
