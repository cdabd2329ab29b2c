package metrics

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// The slice forms of the package's figures that the tests use as references.

// deLongPaired is Curve.DeLongPaired of two scorers a and b of the same rows and their labels,
// on slices: the structural components of each scorer from its own scores, the reference the
// curve's components are checked against.
func deLongPaired(a, b, labels []float64) (diff, variance, p float64, err error) {
	if len(a) != len(b) {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrLength, "scorer a has %d scores, scorer b %d", len(a), len(b))
	}
	ca, err := components(a, labels)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%w (scorer a)", err)
	}
	cb, err := components(b, labels)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%w (scorer b)", err)
	}
	diff, variance, p = pairedTest(ca, cb)
	return diff, variance, p, nil
}

// negativesOrder returns k*, the order statistic of [ThresholdNP] for n negatives at rate
// alpha and violation probability delta: the smallest k in 1…n with
// P(Binomial(n, 1−α) ≥ k) ≤ δ. Errors: alpha or delta outside (0, 1) or n < 0
// (rocops.ErrConfig); (1−α)^n > δ ([ErrTooFewNegatives], naming the smallest n).
func negativesOrder(n int, alpha, delta float64) (int, error) {
	if n < 0 {
		return 0, check.Errorf(pkg, rocops.ErrConfig, "n = %d negatives", n)
	}
	return npOrder(n, alpha, delta, ErrTooFewNegatives, "negatives", "alpha", alpha)
}
