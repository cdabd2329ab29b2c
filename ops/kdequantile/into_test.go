package kdequantile

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGradientInto: GradientInto overwrites a buffer full of NaN with, bit for bit, the
// gradient and the Result of Gradient, for both operating points and the tail; a buffer of
// another length is ErrLength, and invalid input gives Gradient's error.
func TestGradientInto(t *testing.T) {
	scores := []float64{-1.5, 0.2, 0.7, 2.1, -0.3, 1.4, 0.9, -2.2}
	labels := []float64{0, 0, 1, 1, 0, 1, 0, 0}
	for _, cfg := range []Config{{Alpha: 0.25}, {Recall: 0.7}, {Alpha: 0.1, Tail: true, V0: 2}} {
		want, wantRes, err := Gradient(scores, labels, cfg)
		require.NoError(t, err)
		grad := make([]float64, len(scores))
		for i := range grad {
			grad[i] = math.NaN()
		}
		res, err := GradientInto(grad, scores, labels, cfg)
		require.NoError(t, err)
		require.Equal(t, wantRes, res, "%+v", cfg)
		require.Equal(t, want, grad, "%+v", cfg)
		_, err = GradientInto(grad[:3], scores, labels, cfg)
		require.ErrorIs(t, err, ErrLength)
	}
	_, err := GradientInto(make([]float64, 2), []float64{1, 2}, []float64{1, 1}, Config{Alpha: 0.1})
	require.ErrorIs(t, err, ErrNoNegatives)
}
