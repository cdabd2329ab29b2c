package train

import (
	"context"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/pairwise"
)

// The logit sets: six rows of three classes, two rows each, whose features are the logits
// z_i1…z_i3 a model of identity weights gives them (identityModel).
//
// softmaxWins: the probabilities rank every class's rows above the others (macro one-vs-rest
// AUC 1), the logits do not. Counted by hand over the 2·4 (positive, negative) pairs of each
// class, ties ½: column 1 ranks class 1's row (2, 3, 2) above class 0's (1, 0, 0), so it wins
// 6 of 8 pairs; column 2 wins 6.5 (a tie of 1 with 1, a loss of 1 to 2.5); column 3 wins 7 (2.5
// below 3): macro (6 + 6.5 + 7)/24 = 0.8125. The probabilities of (1, 0, 0) are
// (e, 1, 1)/(e + 2) = (0.576, 0.212, 0.212), of (2, 3, 2) (1, e, 1)/(e + 2).
//
// logitsWin: the reverse, the logits ahead. By the same count the logits win 7, 8 and 6 pairs
// (macro 21/24 = 0.875) and the probabilities 5, 7 and 6 (macro 18/24 = 0.75): class 1's row
// (4, 2, 6) has the second-largest first logit but, its third logit larger, p₁ = 0.119, below
// class 2's row (3, 3, 3) at ⅓ and class 1's (5, 4, 0) at 0.727.
var (
	softmaxWins = [][3]float64{{1, 0, 0}, {3, 2.5, 2}, {2, 3, 2}, {0, 1, 0.5}, {0, 0, 2}, {1.5, 1, 2.5}}
	logitsWin   = [][3]float64{{6, 0, 1}, {4, 2, 6}, {0, 5, 1}, {5, 4, 0}, {2, 1, 3}, {3, 3, 3}}
)

// logitSet returns rows as a dataset of three features and three classes, rows 2c and 2c+1 of
// class c.
func logitSet(t testing.TB, rows [][3]float64) *data.Dataset {
	t.Helper()
	x, y := make([]float64, 0, 3*len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		x = append(x, r[:]...)
		y[i] = float64(i / 2)
	}
	ds := &data.Dataset{X: x, Y: y, Rows: len(rows), Cols: 3, FeatureNames: names("z", 3), LabelName: "class", Classes: names("c", 3)}
	require.NoError(t, ds.Validate())
	return ds
}

// identityModel returns a linear model of three inputs and three outputs whose scores are its
// inputs: weight matrix the identity, biases 0.
func identityModel(t testing.TB) *nn.MLP {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: 3, Outputs: 3})
	require.NoError(t, err)
	ps := m.Params()
	require.Len(t, ps, 2)
	w, b := ps[0].Value.Data().([]float64), ps[1].Value.Data().([]float64)
	require.Len(t, w, 9)
	for i := range w {
		w[i] = 0
		if i%4 == 0 {
			w[i] = 1
		}
	}
	clear(b)
	return m
}

// frozen is a Config whose steps leave the model's scores as they are: optim.Adam moves each weight
// by about LearningRate a step, 1e-300, below the rounding of every logit of the sets but 0,
// which stays below every other logit of its column.
func frozen(epochs int) Config {
	return Config{Epochs: epochs, BatchSize: 6, LearningRate: 1e-300, Progress: io.Discard}
}

// macroOf returns the macro AUC of method m of a model's outputs on ds, of their softmax
// probabilities when probs is set.
func macroOf(t testing.TB, model nn.Model, ds *data.Dataset, m metrics.Method, probs bool) float64 {
	t.Helper()
	s, err := nn.Scores(model, ds.X, ds.Rows)
	require.NoError(t, err)
	if probs {
		s, err = crossentropy.Softmax(s, 3)
		require.NoError(t, err)
	}
	auc, err := metrics.TaskAUC(s, ds.Y, rocops.Classes(3), m, metrics.Macro)
	require.NoError(t, err)
	return auc
}

var sqOvR = Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}

// TestLogitSets: the hand counts of the logit sets' comment, so that the tests below compare
// two rankings that differ.
func TestLogitSets(t *testing.T) {
	for _, c := range []struct {
		rows          [][3]float64
		logits, probs float64
	}{{softmaxWins, 19.5 / 24, 1}, {logitsWin, 21.0 / 24, 18.0 / 24}} {
		ds, m := logitSet(t, c.rows), identityModel(t)
		require.InDelta(t, c.logits, macroOf(t, m, ds, metrics.OvR, false), 1e-12)
		require.InDelta(t, c.probs, macroOf(t, m, ds, metrics.OvR, true), 1e-12)
	}
}

// TestSoftmaxScoredOnProbabilities: a model trained with the softmax cross-entropy —
// CrossEntropy on multi-class data, a nil loss, a positive multiple of CrossEntropy — has each epoch's metric equal
// to the macro AUC of crossentropy.Softmax of its outputs, one-vs-rest and one-vs-one, not to
// that of the outputs (which differ on softmaxWins), and History.Probabilities set; after a
// pairwise loss the metric is the outputs' AUC and Probabilities false.
func TestSoftmaxScoredOnProbabilities(t *testing.T) {
	ds := logitSet(t, softmaxWins)
	for _, c := range []struct {
		loss  Loss
		probs bool
	}{
		{nil, true},
		{CrossEntropy{}, true},
		{Weighted{{Weight: 2, Loss: CrossEntropy{}}}, true},
		{Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 1, Loss: sqOvR}}, false},
		{Weighted{{Weight: -1, Loss: CrossEntropy{}}}, false}, // not a positive multiple
		{sqOvR, false},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge, OvO: true}}, false},
	} {
		for _, method := range []metrics.Method{metrics.OvR, metrics.OvO} {
			m := identityModel(t)
			cfg := frozen(2)
			cfg.Metric = MacroAUC(method)
			h, err := Plain(c.loss).Fit(context.Background(), m, cfg, ds, ds)
			require.NoError(t, err)
			require.Equal(t, c.probs, h.Probabilities, "%v", c.loss)
			want, other := macroOf(t, m, ds, method, c.probs), macroOf(t, m, ds, method, !c.probs)
			require.NotEqual(t, want, other, "the two rankings differ")
			for _, e := range h.Epochs {
				require.Equal(t, want, e.Metric, "%v, %v, epoch %d", c.loss, method, e.Index)
			}
		}
	}
}

// TestTrainedSoftmaxMetric: a softmax model trained in earnest (three classes in unit noise,
// centres 2√2 apart, where logits and probabilities rank differently) keeps the epoch whose
// metric is the macro AUC of its restored outputs' probabilities, bit for bit.
func TestTrainedSoftmaxMetric(t *testing.T) {
	weights := []float64{0.6, 0.3, 0.1}
	tr, val := classBlobs(t, 400, 4, weights, 2, 1), classBlobs(t, 300, 4, weights, 2, 2)
	m := classMLP(t, 4, 3, tensor.Float64, 1)
	h, err := fit(t, m, Config{Epochs: 8, BatchSize: 64, Seed: 1}, tr, val)
	require.NoError(t, err)
	require.True(t, h.Probabilities)
	auc := macroOf(t, m, val, metrics.OvR, true)
	require.Equal(t, auc, h.Epochs[h.Best].Metric)
	require.NotEqual(t, macroOf(t, m, val, metrics.OvR, false), auc)
}

// TestProbabilitiesOfKeptEpoch: History.Probabilities follows the loss of the epoch whose
// weights the model keeps — the warm-up's in a FineTune whose second phase does not improve on
// it or fails, the main phase's when it does improve or in Plain, which keeps a main-phase
// epoch — and each epoch's metric is that of its own loss's scores.
func TestProbabilitiesOfKeptEpoch(t *testing.T) {
	win, lose := logitSet(t, softmaxWins), logitSet(t, logitsWin)
	ctx := context.Background()

	// Plain with a warm-up keeps a main-phase epoch: the warm-up's probabilities score 1, the
	// pairwise epochs' outputs 0.8125, and the kept weights are pairwise ones.
	m := identityModel(t)
	h, err := WithWarmup(2, sqOvR).Fit(ctx, m, frozen(2), win, win)
	require.NoError(t, err)
	require.Equal(t, []float64{1, 1, 19.5 / 24, 19.5 / 24}, epochMetrics(h))
	require.Equal(t, Main, h.Epochs[h.Best].Stage)
	require.False(t, h.Probabilities)
	// Without validation data the last epoch's loss decides.
	h, err = WithWarmup(2, sqOvR).Fit(ctx, identityModel(t), frozen(2), win, nil)
	require.NoError(t, err)
	require.False(t, h.Probabilities)
	h, err = WithWarmup(2, CrossEntropy{}).Fit(ctx, identityModel(t), frozen(2), win, nil)
	require.NoError(t, err)
	require.True(t, h.Probabilities)

	// FineTune: the phases compete, each on its own scores.
	for _, c := range []struct {
		name   string
		ds     *data.Dataset
		loss   Loss
		failAt int // the OnStep call that fails; 0 = none
		warmup bool
		probs  bool
	}{
		{"probabilities ahead", win, sqOvR, 0, true, true},
		{"outputs ahead", lose, sqOvR, 0, false, false},
		{"second phase fails", lose, sqOvR, 3, true, true},
		{"softmax second phase", lose, CrossEntropy{}, 0, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := identityModel(t)
			cfg := frozen(2)
			calls := 0
			failure := errors.New("stop")
			cfg.Hooks = []Hook{{Name: "fail", OnStep: func(StepInfo) error {
				if calls++; calls == c.failAt {
					return failure
				}
				return nil
			}}}
			h, err := FineTune(Phase{Loss: c.loss, LearningRateScale: 1}).Fit(ctx, m, cfg, c.ds, c.ds)
			if c.failAt > 0 {
				require.ErrorIs(t, err, failure)
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, c.warmup, h.Epochs[h.Best].Stage == Warmup, "best epoch %d of %v", h.Best, epochMetrics(h))
			require.Equal(t, c.probs, h.Probabilities)
			require.Equal(t, macroOf(t, m, c.ds, metrics.OvR, c.probs), h.Epochs[h.Best].Metric)
		})
	}
}

// TestProbabilitiesOtherTasks: binary and multi-label training keep Probabilities false, with or
// without a warm-up: the sigmoid is monotone, so their outputs rank as their probabilities.
func TestProbabilitiesOtherTasks(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Epochs: 2, BatchSize: 32, Progress: io.Discard}
	bin, binVal := blobs(t, 120, 4, 0.3, 2, 1), blobs(t, 80, 4, 0.3, 2, 2)
	ml, mlVal := labelBlobs(t, 120, 4, 3, 1), labelBlobs(t, 80, 4, 3, 2)
	for _, r := range []Recipe{Plain(nil), WithWarmup(1, Pairwise{}), FineTune(Phase{Loss: Pairwise{}})} {
		h, err := r.Fit(ctx, mlp(t, 4, 1), cfg, bin, binVal)
		require.NoError(t, err, "%v", r)
		require.False(t, h.Probabilities, "%v", r)
	}
	for _, r := range []Recipe{Plain(nil), WithWarmup(1, Pairwise{}), FineTune(Phase{Loss: Pairwise{}})} {
		h, err := r.Fit(ctx, classMLP(t, 4, 3, tensor.Float64, 1), cfg, ml, mlVal)
		require.NoError(t, err, "%v", r)
		require.False(t, h.Probabilities, "%v", r)
	}
}

// epochMetrics returns h's per-epoch metrics, rounded to 12 digits for comparison with hand
// counts.
func epochMetrics(h *History) []float64 {
	out := make([]float64, len(h.Epochs))
	for i, e := range h.Epochs {
		out[i] = math.Round(e.Metric*1e12) / 1e12
	}
	return out
}
