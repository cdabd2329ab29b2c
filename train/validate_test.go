package train

import (
	"context"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// The settings of a loss are rocops.ErrConfig from its Check, naming the setting and wrapping
// the loss package's error, and from the Fit of a Trainer and of the recipes before any
// training, and from Recipe.Check. Before, New accepted them all, and they failed at epoch 1
// step 1 ("kde" then reported its cross-entropy phase as its result). New no longer checks
// them: they depend on the data's task, which Fit sees.
func TestFitValidatesLossSettings(t *testing.T) {
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
			err := c.loss.Check(rocops.Task{})
			require.ErrorIs(t, err, rocops.ErrConfig)
			if c.wrapped != nil {
				require.ErrorIs(t, err, c.wrapped)
			}
			require.Contains(t, err.Error(), c.mention)

			steps := 0
			cfg := Config{Epochs: 1, Progress: io.Discard, Hooks: []Hook{{Name: "count", OnStep: func(StepInfo) error { steps++; return nil }}}}
			ds := blobs(t, 40, 2, 0.3, 2, 1)
			withLoss := cfg
			withLoss.Loss = c.loss
			tr, err := New(mlp(t, 2, 1), withLoss)
			require.NoError(t, err, "New leaves the loss's settings to Fit")
			_, err = tr.Fit(context.Background(), ds, ds)
			require.ErrorIs(t, err, rocops.ErrConfig)
			require.Contains(t, err.Error(), c.mention)
			require.Zero(t, steps, "Fit trained before refusing its loss")

			for _, r := range []Recipe{Plain(c.loss), FineTune(Phase{Loss: c.loss})} {
				require.ErrorIs(t, r.Check(rocops.Task{}), rocops.ErrConfig, "%v", r)
				_, err := r.Fit(context.Background(), mlp(t, 2, 1), cfg, ds, ds)
				require.ErrorIs(t, err, rocops.ErrConfig, "%v", r)
				require.Zero(t, steps, "%v trained before refusing its loss", r)
			}
		})
	}
	for _, a := range []Recipe{
		Anneal(kdequantile.Config{}, nil, 0),
		Anneal(kdequantile.Config{Alpha: 0.1, Recall: 0.5}, nil, 0),
		Anneal(kdequantile.Config{Recall: 1e-320}, nil, 0),
		Anneal(kdequantile.Config{Alpha: 0.1}, []float64{1, 1e308}, 0),
	} {
		err := a.Check(rocops.Task{})
		require.ErrorIs(t, err, rocops.ErrConfig, "%v", a)
		require.True(t, strings.HasPrefix(err.Error(), "train: "), err.Error())
	}
	// Valid settings pass.
	for _, r := range []Recipe{KDERecipe(kdequantile.Config{Alpha: 0.05, Widen: 2}), Plain(nil), Anneal(kdequantile.Config{Recall: 0.9}, nil, 0),
		Plain(Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 0.3, Loss: KDE{Config: kdequantile.Config{Alpha: 0.1}}}})} {
		require.NoError(t, r.Check(rocops.Task{}), "%v", r)
	}
	loss := KDE{Config: kdequantile.Config{Recall: 0.9, Widen: 1e6}}
	_, err := New(mlp(t, 2, 1), Config{Loss: loss})
	require.NoError(t, err)
	require.NoError(t, loss.Check(rocops.Task{}))
	// A recipe of no phase trains nothing: Check refuses it.
	require.ErrorIs(t, Recipe(nil).Check(rocops.Task{}), rocops.ErrConfig)
}

// Counts past their bounds are rocops.ErrConfig from New and Recipe.Check, not an overflow of
// the step count (with Epochs = MaxInt and a warm-up the epoch total wrapped negative and Fit
// trained nothing) or of the diagnostic sets' sizes.
func TestNewBoundsCounts(t *testing.T) {
	for _, cfg := range []Config{
		{Epochs: math.MaxInt},
		{Epochs: MaxEpochs + 1},
		{Diagnose: &Diagnose{Selection: math.MaxInt}},
		{Diagnose: &Diagnose{Selection: maxSelection + 1}},
		{Diagnose: &Diagnose{Intervene: &Intervene{Epochs: math.MaxInt, Max: 2}}},
		{Diagnose: &Diagnose{Intervene: &Intervene{Epochs: MaxEpochs/3 + 1}}}, // Max defaults to 3
	} {
		_, err := New(mlp(t, 2, 1), cfg)
		require.ErrorIs(t, err, rocops.ErrConfig, "%+v", cfg)
	}
	// A warm-up phase is bounded as Config.Epochs is, and with Epochs = MaxInt the recipe's
	// Fit refuses the run before any step.
	require.ErrorIs(t, WithWarmup(MaxEpochs+1, nil).Check(rocops.Task{}), rocops.ErrConfig)
	require.ErrorIs(t, WithWarmup(math.MaxInt, nil).Check(rocops.Task{}), rocops.ErrConfig)
	steps := 0
	ds := blobs(t, 40, 2, 0.3, 2, 1)
	_, err := WithWarmup(1, nil).Fit(context.Background(), mlp(t, 2, 1), Config{Epochs: math.MaxInt, Progress: io.Discard,
		Hooks: []Hook{{Name: "count", OnStep: func(StepInfo) error { steps++; return nil }}}}, ds, ds)
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.Zero(t, steps)
	for _, cfg := range []Config{
		{Epochs: MaxEpochs},
		{Diagnose: &Diagnose{Selection: maxSelection, Intervene: &Intervene{Epochs: MaxEpochs / 3}}},
	} {
		_, err := New(mlp(t, 2, 1), cfg)
		require.NoError(t, err, "%+v", cfg)
	}
	require.NoError(t, WithWarmup(MaxEpochs, nil).Check(rocops.Task{}))
	require.ErrorIs(t, FineTune(Phase{Loss: CrossEntropy{}, Epochs: MaxEpochs + 1}).Check(rocops.Task{}), rocops.ErrConfig)
}
