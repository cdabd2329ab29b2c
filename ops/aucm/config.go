package aucm

import (
	"cmp"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Config holds the loss's settings. The zero value is the margin m = 1 of Yuan et al.
type Config struct {
	// Margin is m, the margin the loss asks between the class means of h = σ(z); 0 means the
	// default 1. It must be finite and not negative.
	Margin float64
}

// pkg prefixes the package's error messages.
const pkg = "aucm"

// Validate reports a margin that is negative, infinite or NaN as [rocops.ErrConfig], naming it.
func (c Config) Validate() error {
	if !(c.Margin >= 0) || math.IsInf(c.Margin, 1) {
		return check.Errorf(pkg, rocops.ErrConfig, "Margin = %v, want a finite margin ≥ 0 (0 = 1)", c.Margin)
	}
	return nil
}

// margin is the effective margin m of a valid Config: Margin, or 1 for 0.
func (c Config) margin() float64 { return cmp.Or(c.Margin, 1) }
