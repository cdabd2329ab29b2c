package train

import (
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// The settings of a loss are ErrConfig from New, naming the setting and wrapping the loss
// package's error, and the recipes' from their Fit before any training and from CheckRecipe.
// Before, New accepted them all, and they failed at epoch 1 step 1 ("kde" then reported its
// cross-entropy phase as its result).
func TestNewValidatesLossSettings(t *testing.T) {
	kde := func(c kdequantile.Config) Loss { return KDE{Config: c} }
	for _, c := range []struct {
		name    string
		loss    Loss
		wrapped error
		mention string
	}{
		{"Alpha 0", kde(kdequantile.Config{}), rocops.ErrConfig, "set exactly one of Alpha and Recall, got Alpha = 0"},
		{"Alpha 2", kde(kdequantile.Config{Alpha: 2}), rocops.ErrConfig, "Alpha = 2, want (0, 1)"},
		{"Alpha and Recall", kde(kdequantile.Config{Alpha: 0.1, Recall: 0.9}), rocops.ErrConfig, "Recall = 0.9"},
		{"Widen 1e308", kde(kdequantile.Config{Alpha: 0.1, Widen: 1e308}), rocops.ErrConfig, "Widen = 1e+308"},
		{"Recall 1e-320", kde(kdequantile.Config{Recall: 1e-320}), rocops.ErrConfig, "Recall = 1e-320"},
		{"V0 negative", kde(kdequantile.Config{Alpha: 0.1, V0: -1}), rocops.ErrConfig, "V0 = -1"},
		{"in a weighted loss", Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 0.1, Loss: kde(kdequantile.Config{Alpha: 0.1, Widen: 1e308})}}, rocops.ErrConfig, "term 1"},
		{"weighted NaN weight", Weighted{{Weight: math.NaN(), Loss: CrossEntropy{}}}, nil, "term 0"},
		{"empty weighted", Weighted{}, nil, "at least one term"},
		{"pairwise margin", Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge, Margin: -1}}, rocops.ErrConfig, "pairwise: invalid setting: Margin = -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(mlp(t, 2, 1), Config{Loss: c.loss})
			require.ErrorIs(t, err, ErrConfig)
			if c.wrapped != nil {
				require.ErrorIs(t, err, c.wrapped)
			}
			require.Contains(t, err.Error(), c.mention)

			for _, r := range []Recipe{Plain{Loss: c.loss}, FineTune{Loss: c.loss}} {
				require.ErrorIs(t, CheckRecipe(r), ErrConfig, "%v", r)
				steps := 0
				cfg := Config{Epochs: 1, Progress: io.Discard, Hooks: []Hook{{Name: "count", OnStep: func(StepInfo) error { steps++; return nil }}}}
				ds := blobs(t, 40, 2, 0.3, 2, 1)
				_, err := r.Fit(context.Background(), mlp(t, 2, 1), cfg, ds, ds)
				require.ErrorIs(t, err, ErrConfig, "%v", r)
				require.Zero(t, steps, "%v trained before refusing its loss", r)
			}
		})
	}
	for _, a := range []Anneal{
		{Point: kdequantile.Config{}},
		{Point: kdequantile.Config{Alpha: 0.1, Recall: 0.5}},
		{Point: kdequantile.Config{Recall: 1e-320}},
		{Point: kdequantile.Config{Alpha: 0.1}, Widths: []float64{1, 1e308}},
	} {
		err := CheckRecipe(a)
		require.ErrorIs(t, err, ErrConfig, "%+v", a)
		require.True(t, strings.HasPrefix(err.Error(), "train: "), err.Error())
	}
	// Valid settings pass.
	for _, r := range []Recipe{KDERecipe(kdequantile.Config{Alpha: 0.05, Widen: 2}), Plain{}, Anneal{Point: kdequantile.Config{Recall: 0.9}},
		Plain{Loss: Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 0.3, Loss: KDE{Config: kdequantile.Config{Alpha: 0.1}}}}}} {
		require.NoError(t, CheckRecipe(r), "%v", r)
	}
	_, err := New(mlp(t, 2, 1), Config{Loss: KDE{Config: kdequantile.Config{Recall: 0.9, Widen: 1e6}}})
	require.NoError(t, err)
	require.False(t, errors.Is(CheckRecipe(nil), ErrConfig))
}

// Counts past their bounds are ErrConfig from New, not an overflow of the step count (with
// Epochs = MaxInt and a warm-up the epoch total wrapped negative and Fit trained nothing) or
// of the diagnostic sets' sizes.
func TestNewBoundsCounts(t *testing.T) {
	for _, cfg := range []Config{
		{Epochs: math.MaxInt, WarmupEpochs: 1},
		{Epochs: MaxEpochs + 1},
		{WarmupEpochs: MaxEpochs + 1},
		{Diagnose: &Diagnose{Selection: math.MaxInt}},
		{Diagnose: &Diagnose{Selection: MaxSelection + 1}},
		{Diagnose: &Diagnose{Intervene: &Intervene{Epochs: math.MaxInt, Max: 2}}},
		{Diagnose: &Diagnose{Intervene: &Intervene{Epochs: MaxEpochs/3 + 1}}}, // Max defaults to 3
	} {
		_, err := New(mlp(t, 2, 1), cfg)
		require.ErrorIs(t, err, ErrConfig, "%+v", cfg)
	}
	for _, cfg := range []Config{
		{Epochs: MaxEpochs, WarmupEpochs: MaxEpochs},
		{Diagnose: &Diagnose{Selection: MaxSelection, Intervene: &Intervene{Epochs: MaxEpochs / 3}}},
	} {
		_, err := New(mlp(t, 2, 1), cfg)
		require.NoError(t, err, "%+v", cfg)
	}
	require.ErrorIs(t, CheckRecipe(FineTune{Loss: CrossEntropy{}, Epochs: MaxEpochs + 1}), ErrConfig)
}
