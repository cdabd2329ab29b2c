package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rocops/rocops/internal/check"
)

// pkg prefixes the package's error messages.
const pkg = "metrics"

// Errors returned for invalid input, wrapped with details; test for them with errors.Is.
// ErrEmpty to ErrNoNegatives are the module's shared vocabulary for (scores, labels) input:
// the same values as in packages kdequantile, pairwise and the others. ErrNoPositives and
// ErrNoNegatives both match ErrOneClass.
var (
	ErrEmpty       = check.ErrEmpty
	ErrLength      = check.ErrLength
	ErrNonFinite   = check.ErrNonFinite
	ErrLabel       = check.ErrLabel
	ErrOneClass    = check.ErrOneClass
	ErrNoPositives = check.ErrNoPositives
	ErrNoNegatives = check.ErrNoNegatives
	ErrFPR         = errors.New("metrics: false-positive rate out of range")
)

// ranked holds the scores of each class sorted in ascending order.
type ranked struct {
	neg, pos []float64
}

// rank validates scores and labels and sorts the scores of each class.
//
// NaN and ±Inf scores are rejected, as scikit-learn does: a diverged model should be noticed,
// not ranked.
func rank(scores, labels []float64) (ranked, error) {
	pos, neg, err := check.Split(pkg, scores, labels)
	if err != nil {
		return ranked{}, err
	}
	r := ranked{neg: neg, pos: pos}
	slices.Sort(r.neg)
	slices.Sort(r.pos)
	return r, nil
}

// checkRate returns an ErrFPR error unless x, the argument called name, lies in [0, 1], or in
// (0, 1] when zeroAllowed is false.
func checkRate(name string, x float64, zeroAllowed bool) error {
	if x > 1 || x < 0 || (x == 0 && !zeroAllowed) || math.IsNaN(x) {
		interval := "[0, 1]"
		if !zeroAllowed {
			interval = "(0, 1]"
		}
		return fmt.Errorf("%w: %s = %v, want it in %s", ErrFPR, name, x, interval)
	}
	return nil
}
