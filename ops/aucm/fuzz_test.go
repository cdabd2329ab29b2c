package aucm

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/internal/fuzzbatch"
)

// FuzzGradient: no panic; valid input gives a finite value and finite derivatives (or
// ErrOverflow for a, b, α near the float64 range), a non-negative Optimum and Evaluate equal
// to Gradient's value; anything else is rejected with one of the package's errors.
func FuzzGradient(f *testing.F) {
	f.Add(fuzzbatch.Encode([]float64{0.5, -0.2, 1.5, 0.1}, []float64{1, 0, 1, 0}), 0.0, 0.0, 0.0, 0.0)
	f.Add(fuzzbatch.Encode([]float64{800, -800}, []float64{1, 0}), 0.3, 0.7, 1.0, 0.5)
	f.Add(fuzzbatch.Encode([]float64{math.NaN(), 1}, []float64{1, 0}), 0.0, 0.0, 0.0, 0.0)
	f.Add(fuzzbatch.Encode([]float64{1, 2}, []float64{1, 1}), 0.0, 0.0, 0.0, -1.0)
	f.Add(fuzzbatch.Encode([]float64{1, 2}, []float64{1, 0}), 1e300, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, data []byte, a, b, alpha, margin float64) {
		z, y := fuzzbatch.Decode(data)
		cfg := Config{Margin: margin}
		dz, da, db, dalpha, v, err := Gradient(z, y, a, b, alpha, cfg)
		if err != nil {
			if validInput(z, y, a, b, alpha, margin) {
				require.ErrorIs(t, err, ErrOverflow)
				return
			}
			known := false
			for _, e := range []error{ErrEmpty, ErrLength, ErrNonFinite, ErrLabel, ErrOneClass, ErrMargin, ErrAux, ErrOverflow} {
				known = known || errors.Is(err, e)
			}
			require.True(t, known, "unexpected error %v", err)
			return
		}
		require.True(t, validInput(z, y, a, b, alpha, margin), "invalid input accepted")
		for _, x := range append(dz, da, db, dalpha, v) {
			require.False(t, math.IsNaN(x) || math.IsInf(x, 0), "non-finite result %v", x)
		}
		opt, err := Optimum(z, y, cfg)
		require.NoError(t, err)
		require.GreaterOrEqual(t, opt, 0.0)
		e, err := Evaluate(z, y, a, b, alpha, cfg)
		require.NoError(t, err)
		require.Equal(t, v, e)
	})
}

// validInput is the documented domain, written independently of the package's checks.
func validInput(z, y []float64, a, b, alpha, margin float64) bool {
	for _, x := range []float64{a, b, alpha} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return margin >= 0 && !math.IsInf(margin, 1) && fuzzbatch.Valid(z, y)
}
