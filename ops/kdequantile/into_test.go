package kdequantile

import (
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// TestGradientInto: one buffer reused across batches, as the trainer reuses it, holds after
// each call exactly (bit for bit) the gradient of Gradient, and the Result is Gradient's,
// for both operating points and the tail; a buffer of another length is rocops.ErrLength, and
// invalid input gives Gradient's error.
func TestGradientInto(t *testing.T) {
	const n = 300
	grad := make([]float64, n)
	for k, cfg := range []Config{{Alpha: 0.05}, {Recall: 0.8}, {Alpha: 0.2, Tail: true, V0: 3}, {Alpha: 0.1}} {
		scores, labels := testbatch.Shifted(uint64(k), 7, n, 0.2, 1.5)
		want, wantRes := mustGradient(t, scores, labels, cfg)
		res, err := GradientInto(grad, scores, labels, cfg)
		require.NoError(t, err)
		require.Equal(t, wantRes, res, "%+v", cfg)
		require.Equal(t, want, grad, "%+v", cfg)
		_, err = GradientInto(grad[:n-1], scores, labels, cfg)
		require.ErrorIs(t, err, rocops.ErrLength)
	}
	_, err := GradientInto(make([]float64, 2), []float64{1, 2}, []float64{1, 1}, Config{Alpha: 0.1})
	require.ErrorIs(t, err, rocops.ErrNoNegatives)
}
