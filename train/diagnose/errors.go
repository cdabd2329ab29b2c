package diagnose

import (
	"errors"
	"fmt"
	"math"
)

// Errors for bad (scores, labels) input, shared with the other packages of the module (see
// [ErrOneClass]); test for them with errors.Is.
var (
	ErrEmpty       = errors.New("diagnose: no scores")
	ErrLength      = errors.New("diagnose: scores and labels differ in length")
	ErrNonFinite   = errors.New("diagnose: value is NaN or infinite")
	ErrLabel       = errors.New("diagnose: label is not 0 or 1")
	ErrOneClass    = errors.New("diagnose: only one class present")
	ErrNoPositives = fmt.Errorf("%w: no positives", ErrOneClass)
	ErrNoNegatives = fmt.Errorf("%w: no negatives", ErrOneClass)
)

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
	if len(scores) != len(labels) {
		return classes{}, fmt.Errorf("%w: %d scores, %d labels", ErrLength, len(scores), len(labels))
	}
	if len(scores) == 0 {
		return classes{}, ErrEmpty
	}
	var c classes
	for i, f := range scores {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return classes{}, fmt.Errorf("%w: scores[%d] = %v", ErrNonFinite, i, f)
		}
		switch labels[i] {
		case 1:
			c.pos = append(c.pos, f)
		case 0:
			c.neg = append(c.neg, f)
		default:
			return classes{}, fmt.Errorf("%w: labels[%d] = %v", ErrLabel, i, labels[i])
		}
	}
	switch {
	case len(c.pos) == 0:
		return classes{}, fmt.Errorf("%w (%d negatives)", ErrNoPositives, len(c.neg))
	case len(c.neg) == 0:
		return classes{}, fmt.Errorf("%w (%d positives)", ErrNoNegatives, len(c.pos))
	}
	return c, nil
}

// checkSeverity returns ErrSeverity unless m is finite and positive.
func checkSeverity(m float64) error {
	if !(m > 0) || math.IsInf(m, 0) {
		return fmt.Errorf("%w, got %v", ErrSeverity, m)
	}
	return nil
}
