package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
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
	hCE, err := Plain(nil).Fit(context.Background(), ce, cfg, tr, val)
	require.NoError(t, err)

	m := mlp(t, 3, 5)
	ft := FineTune(Phase{Loss: Weighted{{-1, CrossEntropy{}}}, LearningRateScale: 1, Epochs: 2})
	h, err := ft.Fit(context.Background(), m, cfg, tr, val)
	require.NoError(t, err)
	require.Len(t, h.Epochs, 6)
	require.Equal(t, Warmup, h.Epochs[h.Best].Stage)
	require.Equal(t, hCE.Best, h.Best)
	for i, e := range h.Epochs {
		require.Equal(t, i+1, e.Index)
		require.Equal(t, i < 4, e.Stage == Warmup, "epoch %d", i+1)
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
	require.Equal(t, Main, best.Stage)
	ceBest := 0.0
	for _, e := range h.Epochs {
		if e.Stage == Warmup {
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
		// FineTune without a loss is the fine-tuning of cross-entropy by cross-entropy now (a
		// nil Loss is the data's cross-entropy); a recipe without a phase trains nothing.
		{"no phase", Recipe{}, Config{}, true},
		{"FineTune with Config.Loss", FineTune(Phase{Loss: kde}), Config{Loss: kde}, true},
		// Config.WarmupEpochs is gone: a warm-up is a phase, and one out of place is refused.
		{"a warm-up last", Recipe{{}, {Epochs: 2, Warmup: true}}, Config{}, true},
		{"two warm-ups", Recipe{{Epochs: 2, Warmup: true}, {Epochs: 2, Warmup: true}, {Loss: kde}}, Config{}, true},
		{"a warm-up of no epochs", Recipe{{Warmup: true}, {Loss: kde}}, Config{}, true},
		{"a warm-up with a loss", Recipe{{Epochs: 2, Warmup: true, Loss: kde}, {Loss: kde}}, Config{}, true},
		{"a warm-up with its own batches", Recipe{{Epochs: 2, Warmup: true, BatchSize: 8}, {Loss: kde}}, Config{}, true},
		{"a warm-up before AUCM", Recipe{{Epochs: 2, Warmup: true}, {Loss: AUCM{}}}, Config{}, true},
		{"FineTune without validation data", FineTune(Phase{Loss: kde}), Config{}, false},
		{"FineTune with a negative scale", FineTune(Phase{Loss: kde, LearningRateScale: -1}), Config{}, true},
		{"FineTune with a negative positive fraction", FineTune(Phase{Loss: kde, PositiveFraction: -0.5}), Config{}, true},
		{"Plain with Config.Loss", Plain(kde), Config{Loss: kde}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := val
			if !c.val {
				v = nil
			}
			_, err := c.r.Fit(context.Background(), mlp(t, 2, 1), c.cfg, tr, v)
			require.True(t, errors.Is(err, rocops.ErrConfig), "%v", err)
			if c.cfg.Loss == nil && c.val {
				require.ErrorIs(t, c.r.Check(rocops.Task{}), rocops.ErrConfig, "Check refuses what Fit refuses of the recipe")
			}
		})
	}
}

func TestRecipeStrings(t *testing.T) {
	point := kdequantile.Config{Recall: 0.9}
	require.Equal(t, "ce→kde(recall=0.9, v0=0, v1=0) at lr×0.1", KDERecipe(point).String())
	require.Equal(t, "ce(3 epochs)→sqhinge(margin=1, pairs=all)", WithWarmup(3, Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}).String())
	require.Equal(t, "ce", Plain(nil).String())
	require.Equal(t, "ce", WithWarmup(0, nil).String())
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
	require.True(t, errors.Is(TNRAtTPR(1.5).check(), rocops.ErrConfig))
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
	a := Anneal(point, widths, cfg.Epochs)
	ws := widths
	if ws == nil {
		ws = []float64{4, 2, 1}
	}
	require.Len(t, a, len(ws))
	for k, w := range ws {
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
		require.Equal(t, Main, e.Stage)
	}
	require.Equal(t, bestMetric, h.Epochs[h.Best].Metric)
	require.Equal(t, bestPhase, h.Best/2, "the kept phase")
	require.Equal(t, kept, bestPhase, "the case the widths were chosen to show")
	require.Equal(t, keep, params(t, m))
}

// A width of 0 is the rule's own bandwidth, kdequantile.Config.Widen's zero value: the phase of
// width 0 trains the loss of width 1, bit for bit.
func TestAnnealZeroWidthIsTheRules(t *testing.T) {
	point := kdequantile.Config{Alpha: 0.1}
	zero, one := Anneal(point, []float64{2, 0}, 4), Anneal(point, []float64{2, 1}, 4)
	require.NoError(t, zero.Check(rocops.Task{}))
	tr, val := blobs(t, 100, 2, 0.3, 1, 1), blobs(t, 100, 2, 0.3, 1, 2)
	cfg := Config{Seed: 3, Progress: io.Discard}
	m0, m1 := mlp(t, 2, 1), mlp(t, 2, 1)
	h0, err := zero.Fit(context.Background(), m0, cfg, tr, val)
	require.NoError(t, err)
	h1, err := one.Fit(context.Background(), m1, cfg, tr, val)
	require.NoError(t, err)
	require.Equal(t, h1, h0)
	require.Equal(t, params(t, m1), params(t, m0))
}

func TestAnnealRejectsBadConfig(t *testing.T) {
	tr, val := blobs(t, 100, 2, 0.3, 1, 1), blobs(t, 100, 2, 0.3, 1, 2)
	point := kdequantile.Config{Alpha: 0.1}
	for _, c := range []struct {
		name string
		a    Recipe
		cfg  Config
		val  bool
	}{
		{"no widths", Anneal(point, []float64{}, 0), Config{}, true},
		{"NaN width", Anneal(point, []float64{math.NaN()}, 0), Config{}, true},
		{"negative pool", pooled(Anneal(point, nil, 0), -1), Config{}, true},
		{"Config.Loss set", Anneal(point, nil, 0), Config{Loss: CrossEntropy{}}, true},
		{"no validation data", Anneal(point, nil, 0), Config{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := val
			if !c.val {
				v = nil
			}
			c.cfg.Progress = io.Discard
			_, err := c.a.Fit(context.Background(), mlp(t, 2, 1), c.cfg, tr, v)
			require.ErrorIs(t, err, rocops.ErrConfig)
		})
	}
	// Anneal sets the widths itself: a Point.Widen given is replaced by each phase's width (the
	// old Anneal refused it).
	for k, p := range Anneal(kdequantile.Config{Alpha: 0.1, Widen: 2}, nil, 0) {
		require.Equal(t, []float64{4, 2, 1}[k], p.Loss.(KDE).Config.Widen)
	}
}

// pooled returns r with NegativePool = pool on every phase, as "kde-plain:anneal:pool=n" sets
// it (the old Anneal recipe's NegativePool).
func pooled(r Recipe, pool int) Recipe {
	for k := range r {
		r[k].NegativePool = pool
	}
	return r
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
		{FineTune(Phase{Loss: KDE{Config: point}}), 3}, // 3 of cross-entropy, 3 of KDE
		{Anneal(point, nil, 6), 6},                     // 2 per width
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
				require.Equal(t, h.Epochs[i].Stage, d.Stage, "epoch %d", d.Epoch)
			}
		})
	}
}

// History.Stopped reports early stopping in any phase of a recipe: FineTune's cross-entropy
// phase stopped by Patience on flipped validation labels, and its second phase of one epoch
// (too short to stop), give a stopped History (the old FineTune reported its second phase's
// only).
func TestRecipeStoppedIsAnyPhase(t *testing.T) {
	tr := blobs(t, 400, 3, 0.3, 3, 3)
	flipped := blobs(t, 400, 3, 0.3, 3, 4)
	for i, y := range flipped.Y {
		flipped.Y[i] = 1 - y
	}
	const patience = 2
	cfg := Config{Epochs: 30, BatchSize: 32, Patience: patience, LearningRate: 0.05, Progress: io.Discard}
	first, err := Plain(nil).Fit(context.Background(), mlp(t, 3, 6), cfg, tr, flipped)
	require.NoError(t, err)
	require.True(t, first.Stopped, "the cross-entropy phase alone stops early")
	n := len(first.Epochs)
	require.Less(t, n, 30)

	h, err := FineTune(Phase{Loss: CrossEntropy{}, Epochs: 1}).Fit(context.Background(), mlp(t, 3, 6), cfg, tr, flipped)
	require.NoError(t, err)
	require.Len(t, h.Epochs, n+1, "the first phase stops where it stops alone; the second runs its one epoch")
	require.Equal(t, Warmup, h.Epochs[n-1].Stage)
	require.Equal(t, Main, h.Epochs[n].Stage)
	require.True(t, h.Stopped)
}
