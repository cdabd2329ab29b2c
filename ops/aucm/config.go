package aucm

import (
	"cmp"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Config holds the loss's settings. The zero value is the binary loss with the margin m = 1 of
// Yuan et al.
type Config struct {
	// Task is the shape of the scores and labels (see [rocops.Task]) and the number K of output
	// columns, each with its own a, b and α: binary, the zero value, for n scores and n 0/1
	// labels (K = 1); Classes(k) for row-major n×k scores and n class indices, each column
	// against the indicator of its class (one-vs-rest); Labels(k) for n×k scores and n×k 0/1
	// labels, each column against its labels.
	Task rocops.Task
	// Margin is m, the margin the loss asks between the class means of h = σ(z); 0 means the
	// default 1. It must be finite and not negative.
	Margin float64
}

// pkg prefixes the package's error messages.
const pkg = "aucm"

// Validate reports a margin that is negative, infinite or NaN, or an invalid Task (classes or
// labels with k < 2), as [rocops.ErrConfig], naming the setting.
func (c Config) Validate() error {
	switch {
	case !(c.Margin >= 0) || math.IsInf(c.Margin, 1):
		return check.Errorf(pkg, rocops.ErrConfig, "Margin = %v, want a finite margin ≥ 0 (0 = 1)", c.Margin)
	case c.Task.Validate() != nil:
		return check.Errorf(pkg, rocops.ErrConfig, "Task = %v, want binary, or k ≥ 2 classes or labels", c.Task)
	}
	return nil
}

// margin is the effective margin m of a valid Config: Margin, or 1 for 0.
func (c Config) margin() float64 { return cmp.Or(c.Margin, 1) }
