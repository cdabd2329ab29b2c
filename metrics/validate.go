package metrics

import (
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// pkg prefixes the package's error messages.
const pkg = "metrics"

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

// checkRate returns an [rocops.ErrConfig] error unless x, the false-positive rate called name,
// lies in [0, 1], or in (0, 1] when zeroAllowed is false.
func checkRate(name string, x float64, zeroAllowed bool) error {
	if x > 1 || x < 0 || (x == 0 && !zeroAllowed) || math.IsNaN(x) {
		interval := "[0, 1]"
		if !zeroAllowed {
			interval = "(0, 1]"
		}
		return check.Errorf(pkg, rocops.ErrConfig, "false-positive rate %s = %v, want it in %s", name, x, interval)
	}
	return nil
}
