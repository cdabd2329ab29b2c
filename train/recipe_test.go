package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// A second phase that ascends cross-entropy (weight −1) moves the weights and makes the
// validation metric worse, so FineTune must end with the cross-entropy phase's best weights —
// bit for bit those of a plain cross-entropy run with the same settings — and point Best at a
// warm-up epoch.
func TestFineTuneKeepsCrossEntropyUnlessValidationImproves(t *testing.T) {
	tr, val := blobs(t, 400, 3, 0.3, 1.5, 1), blobs(t, 200, 3, 0.3, 1.5, 2)
	cfg := Config{Epochs: 4, BatchSize: 64, Seed: 3, Metric: PartialAUC(0.2), Progress: io.Discard}

	ce := mlp(t, 3, 5)
	hCE, err := Plain{}.Fit(context.Background(), ce, cfg, tr, val)
	require.NoError(t, err)

	m := mlp(t, 3, 5)
	ft := FineTune{Loss: Weighted{{-1, CrossEntropy{}}}, LearningRateScale: 1, Epochs: 2}
	h, err := ft.Fit(context.Background(), m, cfg, tr, val)
	require.NoError(t, err)
	require.Len(t, h.Epochs, 6)
	require.Equal(t, Warmup, h.Epochs[h.Best].Phase)
	require.Equal(t, hCE.Best, h.Best)
	for i, e := range h.Epochs {
		require.Equal(t, i+1, e.Index)
		require.Equal(t, i < 4, e.Phase == Warmup, "epoch %d", i+1)
	}
	require.Less(t, h.Epochs[5].Metric, h.Epochs[h.Best].Metric, "the second phase must have moved the weights")
	require.Equal(t, params(t, ce), params(t, m))
}

// When the second phase improves the validation metric, FineTune keeps it: on the tilted task
// the KDE phase raises validation TPR at FPR 0.05 over cross-entropy's best (by about 0.1 when
// this test was written), and the model holds the weights of that main-phase epoch.
func TestFineTuneKeepsAnImprovingSecondPhase(t *testing.T) {
	tr, val := tiltedTask(t, 3000, 101), tiltedTask(t, 3000, 102)
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 1})
	require.NoError(t, err)
	cfg := Config{Epochs: 10, BatchSize: 250, LearningRate: 0.03, Metric: TPRAtFPR(0.05), Seed: 2, Progress: io.Discard}
	h, err := KDERecipe(kdequantile.Config{Alpha: 0.05}).Fit(context.Background(), m, cfg, tr, val)
	require.NoError(t, err)
	best := h.Epochs[h.Best]
	require.Equal(t, Main, best.Phase)
	ceBest := 0.0
	for _, e := range h.Epochs {
		if e.Phase == Warmup {
			ceBest = max(ceBest, e.Metric)
		}
	}
	require.Greater(t, best.Metric, ceBest+0.02)
	s, err := nn.Scores(m, val.X, val.Rows)
	require.NoError(t, err)
	got, err := TPRAtFPR(0.05).eval(s, val.Y)
	require.NoError(t, err)
	require.Equal(t, best.Metric, got, "the model must hold the best epoch's weights")
	t.Logf("validation TPR@0.05: cross-entropy %.3f, after KDE fine-tuning %.3f", ceBest, best.Metric)
}

func TestRecipesRejectBadConfig(t *testing.T) {
	tr, val := blobs(t, 100, 2, 0.3, 1, 1), blobs(t, 100, 2, 0.3, 1, 2)
	kde := KDE{Config: kdequantile.Config{Alpha: 0.1}}
	for _, c := range []struct {
		name string
		r    Recipe
		cfg  Config
		val  bool
	}{
		{"FineTune without a loss", FineTune{}, Config{}, true},
		{"FineTune with Config.Loss", FineTune{Loss: kde}, Config{Loss: kde}, true},
		{"FineTune with a warm-up", FineTune{Loss: kde}, Config{WarmupEpochs: 2}, true},
		{"FineTune without validation data", FineTune{Loss: kde}, Config{}, false},
		{"FineTune with a negative scale", FineTune{Loss: kde, LearningRateScale: -1}, Config{}, true},
		{"FineTune with a negative positive fraction", FineTune{Loss: kde, PositiveFraction: -0.5}, Config{}, true},
		{"Plain with Config.Loss", Plain{Loss: kde}, Config{Loss: kde}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := val
			if !c.val {
				v = nil
			}
			_, err := c.r.Fit(context.Background(), mlp(t, 2, 1), c.cfg, tr, v)
			require.True(t, errors.Is(err, ErrConfig), "%v", err)
		})
	}
}

func TestRecipeStrings(t *testing.T) {
	point := kdequantile.Config{Recall: 0.9}
	require.Equal(t, "ce→kde(recall=0.9, v0=0, v1=0) at lr×0.1", KDERecipe(point).String())
	require.Equal(t, "ce(3 epochs)→sqhinge(margin=1, pairs=all)", Plain{Loss: Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}, WarmupEpochs: 3}.String())
	require.Equal(t, "ce", Plain{}.String())
}

// TNRAtTPR is 1 − metrics.FPRAtTPR. Scores 4, 3, 2, 1 with labels 1, 0, 1, 0: the ROC polyline
// runs (0, 0) → (0, ½) → (½, ½) → (½, 1) → (1, 1), so TPR ½ is reached at FPR 0 and TPR ¾
// at FPR ½ (worked by hand): TNR 1 and ½.
func TestTNRAtTPR(t *testing.T) {
	scores, labels := []float64{4, 3, 2, 1}, []float64{1, 0, 1, 0}
	for _, c := range []struct{ tpr, want float64 }{{0.5, 1}, {0.75, 0.5}} {
		got, err := TNRAtTPR(c.tpr).eval(scores, labels)
		require.NoError(t, err)
		require.InDelta(t, c.want, got, 1e-15)
	}
	require.Equal(t, "TNR@TPR=0.9", TNRAtTPR(0.9).String())
	require.True(t, errors.Is(TNRAtTPR(1.5).check(), ErrConfig))
}

// Anneal is its phases run by hand: the plain KDE loss with each width in turn, a share of
// the epochs each, each from the previous phase's best weights, and the model ends with the
// weights of the phase whose best epoch scored highest — bit for bit. The default widths
// keep their last phase here; widths 1, 0.001, 0.001 keep their first, since kernels a
// thousand times too narrow reach almost no score and do not improve on it, so both ways of
// ending are checked.
func TestAnnealIsItsPhases(t *testing.T) {
	for _, c := range []struct {
		widths []float64
		kept   int
	}{{nil, 2}, {[]float64{1, 1e-3, 1e-3}, 0}} {
		t.Run(fmt.Sprint(c.widths), func(t *testing.T) { annealIsItsPhases(t, c.widths, c.kept) })
	}
}

func annealIsItsPhases(t *testing.T, widths []float64, kept int) {
	tr, val := blobs(t, 400, 3, 0.2, 1.5, 1), blobs(t, 300, 3, 0.2, 1.5, 2)
	cfg := Config{Epochs: 7, BatchSize: 64, Seed: 3, Metric: PartialAUC(0.2), Progress: io.Discard}
	point := kdequantile.Config{Alpha: 0.2}

	byHand := mlp(t, 3, 5)
	var keep [][]float64
	bestMetric, bestPhase := -1.0, -1
	a := Anneal{Point: point, Widths: widths}
	for k, w := range a.widths() {
		c := cfg
		c.Epochs = 2 // ⌊7/3⌋
		p := point
		p.Widen = w
		c.Loss = KDE{Config: p}
		h, err := fit(t, byHand, c, tr, val)
		require.NoError(t, err)
		if m := h.Epochs[h.Best].Metric; m > bestMetric {
			bestMetric, bestPhase, keep = m, k, params(t, byHand)
		}
	}

	m := mlp(t, 3, 5)
	h, err := a.Fit(context.Background(), m, cfg, tr, val)
	require.NoError(t, err)
	require.Len(t, h.Epochs, 6)
	for i, e := range h.Epochs {
		require.Equal(t, i+1, e.Index)
		require.Equal(t, Main, e.Phase)
	}
	require.Equal(t, bestMetric, h.Epochs[h.Best].Metric)
	require.Equal(t, bestPhase, h.Best/2, "the kept phase")
	require.Equal(t, kept, bestPhase, "the case the widths were chosen to show")
	require.Equal(t, keep, params(t, m))
}

func TestAnnealRejectsBadConfig(t *testing.T) {
	tr, val := blobs(t, 100, 2, 0.3, 1, 1), blobs(t, 100, 2, 0.3, 1, 2)
	point := kdequantile.Config{Alpha: 0.1}
	for _, c := range []struct {
		name string
		a    Anneal
		cfg  Config
		val  bool
	}{
		{"Point.Widen set", Anneal{Point: kdequantile.Config{Alpha: 0.1, Widen: 2}}, Config{}, true},
		{"no widths", Anneal{Point: point, Widths: []float64{}}, Config{}, true},
		{"zero width", Anneal{Point: point, Widths: []float64{2, 0}}, Config{}, true},
		{"NaN width", Anneal{Point: point, Widths: []float64{math.NaN()}}, Config{}, true},
		{"negative pool", Anneal{Point: point, NegativePool: -1}, Config{}, true},
		{"Config.Loss set", Anneal{Point: point}, Config{Loss: CrossEntropy{}}, true},
		{"no validation data", Anneal{Point: point}, Config{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := val
			if !c.val {
				v = nil
			}
			c.cfg.Progress = io.Discard
			_, err := c.a.Fit(context.Background(), mlp(t, 2, 1), c.cfg, tr, v)
			require.ErrorIs(t, err, ErrConfig)
		})
	}
}

// The recipes of several phases keep every phase's diagnoses, numbered like their epochs and
// labelled with their epoch's phase: with Diagnose every epoch, each epoch has exactly one.
func TestRecipesKeepEveryPhasesDiagnoses(t *testing.T) {
	tr, val := blobs(t, 400, 3, 0.2, 1.5, 1), blobs(t, 300, 3, 0.2, 1.5, 2)
	point := kdequantile.Config{Alpha: 0.2}
	for _, c := range []struct {
		r      Recipe
		epochs int // Config.Epochs; either recipe trains 6 epochs in all
	}{
		{FineTune{Loss: KDE{Config: point}}, 3}, // 3 of cross-entropy, 3 of KDE
		{Anneal{Point: point}, 6},               // 2 per width
	} {
		t.Run(c.r.String(), func(t *testing.T) {
			cfg := Config{Epochs: c.epochs, BatchSize: 64, Seed: 3, Metric: PartialAUC(0.2), Progress: io.Discard,
				Diagnose: &Diagnose{Selection: 64, Pool: 128}}
			h, err := c.r.Fit(context.Background(), mlp(t, 3, 5), cfg, tr, val)
			require.NoError(t, err)
			require.Len(t, h.Epochs, 6)
			require.Len(t, h.Diagnoses, len(h.Epochs))
			for i, d := range h.Diagnoses {
				require.Equal(t, i+1, d.Epoch)
				require.Equal(t, h.Epochs[i].Phase, d.Phase, "epoch %d", d.Epoch)
			}
		})
	}
}
