package diagnose

import (
	"errors"
	"fmt"
	"math"

	"github.com/rocops/rocops/internal/check"
)

// Errors for bad (scores, labels) input: the module's shared vocabulary, the same values as
// in pairwise, kdequantile, metrics and train, so errors.Is(err, metrics.ErrLength) holds for
// a length error from this package too. ErrNoPositives and ErrNoNegatives both match
// ErrOneClass. Messages start with "diagnose: ".
var (
	ErrEmpty       = check.ErrEmpty
	ErrLength      = check.ErrLength
	ErrNonFinite   = check.ErrNonFinite
	ErrLabel       = check.ErrLabel
	ErrOneClass    = check.ErrOneClass
	ErrNoPositives = check.ErrNoPositives
	ErrNoNegatives = check.ErrNoNegatives
)

const pkg = "diagnose"

// Errors of the diagnostics' own settings.
var (
	// ErrSeverity reports a severity M that is not finite and positive.
	ErrSeverity = errors.New("diagnose: severity M must be finite and positive")
	// ErrEdges reports interval edges that are fewer than two, NaN or not strictly increasing.
	ErrEdges = errors.New("diagnose: bad interval edges")
	// ErrSurrogate reports a pairwise.Config with an unknown surrogate or a bad margin.
	ErrSurrogate = errors.New("diagnose: bad surrogate configuration")
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
)

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
