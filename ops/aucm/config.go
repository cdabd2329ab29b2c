package aucm

import (
	"errors"
	"fmt"
	"math"
)

// Config holds the loss's settings. The zero value is the margin m = 1 of Yuan et al.
type Config struct {
	// Margin is m, the margin the loss asks between the class means of h = σ(z); 0 means the
	// default 1. It must be finite and not negative.
	Margin float64
}

// pkg prefixes the package's error messages.
const pkg = "aucm"

// Errors of the package's own settings, wrapped with details; test for them with errors.Is.
// Bad input (scores, labels, nodes) is reported with the module's shared vocabulary,
// [rocops.ErrEmpty] to [rocops.ErrNode].
var (
	ErrMargin = errors.New("aucm: margin must be finite and not negative")
	// ErrAux reports an auxiliary variable a, b or α that is NaN or infinite.
	ErrAux = errors.New("aucm: a, b and alpha must be finite")
	// ErrOverflow reports a loss or gradient beyond the range of the float type, which only
	// auxiliary variables of about 1e154 or more (squared beyond float64) can produce, or,
	// in a float32 graph, a result that does not fit in float32.
	ErrOverflow = errors.New("aucm: loss overflows its float type")
)

// Validate reports whether the settings are valid (a margin that is 0 or finite and not
// negative; errors wrap ErrMargin) and returns the effective margin m: Margin, or 1 for 0.
func (c Config) Validate() (margin float64, err error) {
	switch m := c.Margin; {
	case m == 0:
		return 1, nil
	case m < 0 || math.IsNaN(m) || math.IsInf(m, 0):
		return 0, fmt.Errorf("%w, got %v", ErrMargin, m)
	default:
		return m, nil
	}
}
