package train

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/synth"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
)

// tiltedTask is synth.Tilted's draw of n rows from seed, the tilted-outlier task where
// cross-entropy is misspecified for the low-FPR region.
func tiltedTask(t testing.TB, n int, seed uint64) *data.Dataset {
	t.Helper()
	ds, err := synth.Tilted(n, seed)
	require.NoError(t, err)
	return ds
}

// trainTuned trains a linear scorer by recipe r for each learning rate, with the settings of
// the experiments in docs/results.md (batches of 128, early stopping on validation partial AUC
// up to alpha), and returns the test TPR at FPR alpha of the one with the best validation
// partial AUC.
func trainTuned(t *testing.T, r Recipe, alpha float64, tr, val, test *data.Dataset) float64 {
	t.Helper()
	bestVal, bestTest := -1.0, 0.0
	for _, lr := range []float64{0.001, 0.003, 0.01} {
		m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 1})
		require.NoError(t, err)
		cfg := Config{Epochs: 40, Patience: 8, BatchSize: 128, LearningRate: lr, Metric: PartialAUC(alpha), Seed: 2, Progress: io.Discard}
		h, err := r.Fit(context.Background(), m, cfg, tr, val)
		require.NoError(t, err)
		if v := h.Epochs[h.Best].Metric; v > bestVal {
			s, err := nn.Scores(m, test.X, test.Rows)
			require.NoError(t, err)
			bestVal = v
			bestTest, err = metrics.TPRAtFPR(s, test.Y, alpha)
			require.NoError(t, err)
		}
	}
	return bestTest
}

// The default KDE recipe (KDERecipe: cross-entropy, then KDE fine-tuning) beats tuned
// cross-entropy on the tilted task by more than minMargin TPR at FPR 0.05 on average over
// three independent draws. When the test was written the mean difference was 0.21 (draws of
// +0.16 to +0.28; cross-entropy 0.42 to 0.53, the recipe 0.68 to 0.69). The mean, not every
// draw, is asserted: one draw can be close. Cross-entropy's figure depends on where early
// stopping catches it, before or after it has tilted (docs/results.md: 0.60 ± 0.11 over ten
// seeds, against the recipe's 0.683 ± 0.007).
func TestKDERecipeBeatsCrossEntropyWhenCrossEntropyIsMisspecified(t *testing.T) {
	const (
		alpha     = 0.05
		draws     = 3
		minMargin = 0.05
	)
	var sum float64
	for d := range uint64(draws) {
		tr, val, test := tiltedTask(t, 3000, 3*d+1), tiltedTask(t, 3000, 3*d+2), tiltedTask(t, 20000, 3*d+3)
		ce := trainTuned(t, Plain(nil), alpha, tr, val, test)
		kde := trainTuned(t, KDERecipe(kdequantile.Config{Alpha: alpha}), alpha, tr, val, test)
		t.Logf("draw %d: held-out TPR at FPR %g: cross-entropy %.3f, KDE recipe %.3f", d, alpha, ce, kde)
		sum += kde - ce
	}
	t.Logf("mean difference %.3f", sum/draws)
	require.Greater(t, sum/draws, minMargin)
}
