package pairwise

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGradientInto: GradientInto overwrites a buffer full of NaN with, bit for bit, the
// gradient and the loss of Gradient, for every surrogate, all pairs and sampled; a buffer of
// another length is ErrLength, and invalid input gives Gradient's error.
func TestGradientInto(t *testing.T) {
	scores := []float64{-1.5, 0.2, 0.7, 2.1, -0.3, 1.4, 0.9, -2.2}
	labels := []float64{0, 0, 1, 1, 0, 1, 0, 0}
	for _, s := range []Surrogate{Logistic, Exponential, Square, Hinge, SquaredHinge} {
		for _, pairs := range []int{0, 7} {
			cfg := Config{Surrogate: s, Pairs: pairs, Seed: 3}
			want, wantLoss, err := Gradient(scores, labels, cfg)
			require.NoError(t, err)
			grad := make([]float64, len(scores))
			for i := range grad {
				grad[i] = math.NaN()
			}
			loss, err := GradientInto(grad, scores, labels, cfg)
			require.NoError(t, err)
			require.Equal(t, wantLoss, loss, "%+v", cfg)
			require.Equal(t, want, grad, "%+v", cfg)
			_, err = GradientInto(grad[:3], scores, labels, cfg)
			require.ErrorIs(t, err, ErrLength)
		}
	}
	_, err := GradientInto(make([]float64, 2), []float64{1, math.NaN()}, []float64{1, 0}, Config{})
	require.ErrorIs(t, err, ErrNonFinite)
}
