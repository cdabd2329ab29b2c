package pairwise

import (
	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// GradientInto is [Gradient] writing ∂L/∂f into grad, which must have the scores' length
// (rocops.ErrLength otherwise): every element of grad is overwritten, with the gradient Gradient
// returns (computed into a slice of its own, then copied). grad is unspecified on error.
func GradientInto(grad, scores, labels []float64, cfg Config) (float64, error) {
	if len(grad) != len(scores) {
		return 0, check.Errorf(pkg, rocops.ErrLength, "%d scores, a gradient buffer of %d", len(scores), len(grad))
	}
	g, loss, err := Gradient(scores, labels, cfg)
	if err != nil {
		return 0, err
	}
	copy(grad, g)
	return loss, nil
}
