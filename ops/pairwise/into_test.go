package pairwise

import (
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// TestGradientInto: for every surrogate, over all pairs and sampled, GradientInto overwrites
// a buffer of NaN with the gradient of Gradient, bit for bit, and returns its loss; a buffer
// of another length is rocops.ErrLength, and invalid input gives Gradient's error.
func TestGradientInto(t *testing.T) {
	f, y := testbatch.Shifted(5, 7, 120, 0.25, 1)
	for _, s := range []Surrogate{Logistic, Exponential, Square, Hinge, SquaredHinge} {
		for _, cfg := range []Config{{Surrogate: s}, {Surrogate: s, Pairs: 50, Seed: 3}} {
			want, wantLoss, err := Gradient(f, y, cfg)
			require.NoError(t, err)
			grad := filled(len(f), math.NaN())
			loss, err := GradientInto(grad, f, y, cfg)
			require.NoError(t, err)
			require.Equal(t, wantLoss, loss, "%+v", cfg)
			require.Equal(t, want, grad, "%+v", cfg)
			_, err = GradientInto(grad[1:], f, y, cfg)
			require.ErrorIs(t, err, rocops.ErrLength)
		}
	}
	_, err := GradientInto(make([]float64, 2), []float64{1, math.NaN()}, []float64{1, 0}, Config{})
	require.ErrorIs(t, err, rocops.ErrNonFinite)
}

// filled returns n copies of v.
func filled(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
