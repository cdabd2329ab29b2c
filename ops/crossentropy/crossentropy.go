package crossentropy

import (
	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/logistic"
)

// pkg prefixes the package's error messages.
const pkg = "crossentropy"

// Evaluate returns the mean binary cross-entropy L of the logits scores against labels (see
// the package documentation). scores must be finite and labels 0 or 1, of one non-zero length.
func Evaluate(scores, labels []float64) (float64, error) {
	return compute(scores, labels, nil)
}

// Gradient returns ∂L/∂z_i = (σ(z_i) − y_i)/n for every score and the loss L of [Evaluate],
// computed together in one pass.
func Gradient(scores, labels []float64) ([]float64, float64, error) {
	g := make([]float64, len(scores))
	l, err := compute(scores, labels, g)
	if err != nil {
		return nil, 0, err
	}
	return g, l, nil
}

// GradientInto is [Gradient] writing ∂L/∂z into grad, which must have the scores' length,
// for callers that reuse one buffer across steps. grad is unspecified on error.
func GradientInto(grad, scores, labels []float64) (float64, error) {
	if len(grad) != len(scores) {
		return 0, check.Errorf(pkg, rocops.ErrLength, "%d scores, a gradient buffer of %d", len(scores), len(grad))
	}
	return compute(scores, labels, grad)
}

// compute returns L and, when grad is not nil, fills it with ∂L/∂z.
func compute(scores, labels, grad []float64) (float64, error) {
	if _, err := check.Scores(pkg, scores, labels); err != nil {
		return 0, err
	}
	inv := 1 / float64(len(scores))
	var l float64
	for i, z := range scores {
		term, s := logistic.LogLoss(z, labels[i])
		l += term * inv // term/n ≤ (|z| + log 2)/n, so the mean cannot overflow
		if grad != nil {
			grad[i] = (s - labels[i]) * inv
		}
	}
	return l, nil
}
