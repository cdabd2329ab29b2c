package train

import (
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/optim"
)

// blobs returns n rows of d features: negatives from N(0, I) and a share p of positives
// from N(shift·e₁, I).
func blobs(t testing.TB, n, d int, p, shift float64, seed uint64) *data.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range n {
		if rng.Float64() < p {
			y[i] = 1
		}
		for j := range d {
			x[i*d+j] = rng.NormFloat64()
		}
		x[i*d] += shift * y[i]
	}
	y[0], y[1] = 0, 1 // both classes, whatever the draw
	ds, err := data.New(x, y, d)
	require.NoError(t, err)
	return ds
}

func mlp(t testing.TB, in int, seed uint64) *nn.MLP {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{8}, Seed: seed})
	require.NoError(t, err)
	return m
}

func fit(t testing.TB, m nn.Model, cfg Config, tr, val *data.Dataset) (*History, error) {
	t.Helper()
	cfg.Progress = io.Discard
	trn, err := New(m, cfg)
	require.NoError(t, err)
	return trn.Fit(context.Background(), tr, val)
}

// fitWarm is fit of cfg.Loss after warmup epochs of cross-entropy: the recipe
// WithWarmup(warmup, cfg.Loss) with the rest of cfg (what Config.WarmupEpochs was).
func fitWarm(t testing.TB, m nn.Model, cfg Config, warmup int, tr, val *data.Dataset) (*History, error) {
	t.Helper()
	cfg.Progress = io.Discard
	loss := cfg.Loss
	cfg.Loss = nil
	return WithWarmup(warmup, loss).Fit(context.Background(), m, cfg, tr, val)
}

func params(t testing.TB, m nn.Model) [][]float64 {
	t.Helper()
	var out [][]float64
	for _, p := range m.Params() {
		out = append(out, append([]float64(nil), p.Value.Data().([]float64)...))
	}
	return out
}

// The same seed gives a bit-identical history and identical weights, for every loss kind; a
// different batch seed gives a different history.
func TestFitIsDeterministic(t *testing.T) {
	tr := blobs(t, 300, 4, 0.2, 2, 1)
	val := blobs(t, 200, 4, 0.2, 2, 2)
	losses := []Loss{
		CrossEntropy{},
		KDE{Config: kdequantile.Config{Alpha: 0.1}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic, Pairs: 500, Seed: 3}},
	}
	for _, loss := range losses {
		t.Run(loss.String(), func(t *testing.T) {
			cfg := Config{Loss: loss, Epochs: 3, BatchSize: 64, Seed: 9}
			run := func(seed uint64) (*History, [][]float64) {
				m := mlp(t, 4, 5)
				c := cfg
				c.Seed = seed
				h, err := fitWarm(t, m, c, 1, tr, val)
				require.NoError(t, err)
				return h, params(t, m)
			}
			h1, p1 := run(9)
			h2, p2 := run(9)
			require.Equal(t, h1, h2)
			require.Equal(t, p1, p2)
			h3, _ := run(10)
			require.NotEqual(t, h1.Epochs[0].Loss, h3.Epochs[0].Loss)
			require.Len(t, h1.Epochs, 4)
			require.Equal(t, Warmup, h1.Epochs[0].Stage)
			for _, e := range h1.Epochs[1:] {
				require.Equal(t, Main, e.Stage)
			}
		})
	}
}

// With validation labels flipped, training makes the validation metric worse epoch after
// epoch, so early stopping must fire after Patience epochs and the model must hold the
// weights of the best epoch, which a hook recorded.
func TestEarlyStoppingRestoresBestEpoch(t *testing.T) {
	tr := blobs(t, 400, 3, 0.3, 3, 3)
	flipped := blobs(t, 400, 3, 0.3, 3, 4)
	for i, y := range flipped.Y {
		flipped.Y[i] = 1 - y
	}
	m := mlp(t, 3, 6)
	var snaps [][][]float64
	rec := Hook{Name: "record", OnEpoch: func(Epoch) error {
		snaps = append(snaps, params(t, m))
		return nil
	}}
	const patience = 2
	h, err := fit(t, m, Config{Epochs: 30, BatchSize: 32, Patience: patience, LearningRate: 0.05, Hooks: []Hook{rec}}, tr, flipped)
	require.NoError(t, err)
	require.True(t, h.Stopped)
	best := 0
	for i, e := range h.Epochs {
		if e.Metric > h.Epochs[best].Metric {
			best = i
		}
	}
	require.Equal(t, best, h.Best)
	require.Len(t, h.Epochs, best+1+patience, "stops after %d epochs without improvement", patience)
	require.Equal(t, snaps[best], params(t, m))
	require.NotEqual(t, snaps[len(snaps)-1], params(t, m))
}

// Without validation data there is no best epoch: the model keeps its last weights.
func TestFitWithoutValidationKeepsLastWeights(t *testing.T) {
	tr := blobs(t, 200, 3, 0.3, 2, 5)
	m := mlp(t, 3, 7)
	var last [][]float64
	rec := Hook{Name: "record", OnEpoch: func(Epoch) error { last = params(t, m); return nil }}
	h, err := fit(t, m, Config{Epochs: 3, Hooks: []Hook{rec}}, tr, nil)
	require.NoError(t, err)
	require.Equal(t, -1, h.Best)
	require.True(t, math.IsNaN(h.Epochs[2].Metric))
	require.Equal(t, last, params(t, m))
}

// A failing hook stops training with its name in the error, returns the history so far and
// leaves the model with the best weights seen.
func TestHookErrorStopsTraining(t *testing.T) {
	tr := blobs(t, 200, 3, 0.3, 2, 5)
	m := mlp(t, 3, 8)
	var bestSnap [][]float64
	steps := 0
	boom := errors.New("enough")
	hooks := []Hook{
		{Name: "keep", OnEpoch: func(Epoch) error { bestSnap = params(t, m); return nil }},
		{Name: "stopper", OnStep: func(s StepInfo) error {
			steps++
			if s.Epoch == 2 && s.Step == 2 {
				return boom
			}
			return nil
		}},
	}
	h, err := fit(t, m, Config{Epochs: 5, BatchSize: 50, Hooks: hooks}, tr, tr)
	require.ErrorIs(t, err, boom)
	require.Contains(t, err.Error(), `hook "stopper"`)
	require.Len(t, h.Epochs, 1)
	require.Equal(t, 4+2, steps) // 200 rows / 50 = 4 steps in epoch 1, then 2
	require.Equal(t, bestSnap, params(t, m), "epoch 1 was the only, hence best, epoch")
}

func TestFitStopsOnCancel(t *testing.T) {
	tr := blobs(t, 200, 3, 0.3, 2, 5)
	m := mlp(t, 3, 8)
	ctx, cancel := context.WithCancel(context.Background())
	trn, err := New(m, Config{Epochs: 5, Progress: io.Discard, Hooks: []Hook{{Name: "cancel", OnEpoch: func(Epoch) error { cancel(); return nil }}}})
	require.NoError(t, err)
	h, err := trn.Fit(ctx, tr, tr)
	require.ErrorIs(t, err, context.Canceled)
	require.Len(t, h.Epochs, 1)
}

func TestNewAndFitRejectBadInput(t *testing.T) {
	m := mlp(t, 3, 1)
	bad := []struct {
		cfg  Config
		want string // the setting the message must name
	}{
		{Config{Epochs: -1}, "Epochs = -1"},
		{Config{BatchSize: -2}, "BatchSize = -2"},
		{Config{Patience: -1}, "Patience = -1"},
		{Config{PositiveFraction: 1}, "PositiveFraction"},
		{Config{LearningRate: math.NaN()}, "LearningRate NaN"},
		{Config{WeightDecay: -1}, "WeightDecay -1"},
		{Config{Optimizer: optim.Rule(42)}, "unknown optimizer"},
		{Config{Hooks: []Hook{{}}}, "hook 0 has no name"},
		{Config{Metric: PartialAUC(0)}, "maxFPR"},
		{Config{Metric: TPRAtFPR(1.5)}, "TPR at FPR"},
		// A batch of one row cannot hold a positive and a negative, which every batch must
		// (with BatchSize 1 the sampler drew positives only and cross-entropy drove every
		// score up).
		{Config{BatchSize: 1}, "BatchSize"},
		{Config{PositiveFraction: math.NaN()}, "PositiveFraction"},
		{Config{LearningRate: math.Inf(1)}, "LearningRate +Inf"},
		{Config{NegativePool: -1}, "NegativePool = -1"},
	}
	for _, b := range bad {
		_, err := New(m, b.cfg)
		require.ErrorIs(t, err, rocops.ErrConfig, "%+v", b.cfg)
		require.ErrorContains(t, err, b.want)
		require.True(t, strings.HasPrefix(err.Error(), "train: "), "%v names the package", err)
	}
	// A warm-up of a negative count, the Config.WarmupEpochs = -1 of before.
	err := WithWarmup(-1, nil).Check(rocops.Task{})
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.ErrorContains(t, err, "Epochs:-1")
	require.True(t, strings.HasPrefix(err.Error(), "train: "), "%v names the package", err)
	_, err = New(m, Config{BatchSize: 2})
	require.NoError(t, err, "BatchSize 2 holds both classes")
	_, err = New(nil, Config{})
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.ErrorContains(t, err, "nil model")

	trn, err := New(m, Config{Progress: io.Discard})
	require.NoError(t, err)
	wrongCols := blobs(t, 50, 4, 0.3, 1, 1)
	_, err = trn.Fit(context.Background(), wrongCols, nil)
	require.ErrorContains(t, err, "4 features, the model takes 3")
	oneClass, err := data.New([]float64{1, 2, 3, 4, 5, 6}, []float64{0, 0}, 3)
	require.NoError(t, err)
	_, err = trn.Fit(context.Background(), oneClass, nil)
	require.ErrorContains(t, err, "training data needs both classes")
	good := blobs(t, 50, 3, 0.3, 1, 1)
	_, err = trn.Fit(context.Background(), good, oneClass)
	require.ErrorContains(t, err, "validation data needs both classes")
	_, err = trn.Fit(context.Background(), nil, nil)
	require.ErrorContains(t, err, "no training data")
}

// A loss that blows up is reported with its epoch and step, and the model keeps the best
// weights seen before it did.
func TestDivergenceKeepsBestWeights(t *testing.T) {
	tr := blobs(t, 200, 3, 0.3, 3, 5)
	m := mlp(t, 3, 8)
	var snaps [][][]float64
	rec := Hook{Name: "record", OnEpoch: func(Epoch) error { snaps = append(snaps, params(t, m)); return nil }}
	cfg := Config{
		Loss:         Pairwise{Config: pairwise.Config{Surrogate: pairwise.Exponential}},
		Optimizer:    optim.SGD,
		LearningRate: 1e4,
		Epochs:       50,
		Hooks:        []Hook{rec},
	}
	h, err := fit(t, m, cfg, tr, tr)
	require.ErrorIs(t, err, rocops.ErrRange)
	require.ErrorContains(t, err, "epoch")
	// The divergence must come after at least one finished epoch, or there would be no best
	// weights to keep and the test would prove nothing.
	require.NotEmpty(t, h.Epochs, "diverged before the first epoch ended")
	require.Equal(t, snaps[h.Best], params(t, m))
	for _, p := range params(t, m) {
		for _, v := range p {
			require.False(t, math.IsNaN(v) || math.IsInf(v, 0))
		}
	}
}

// Training with weight decay ends with smaller weight matrices than without.
func TestWeightDecayShrinksWeights(t *testing.T) {
	tr := blobs(t, 300, 3, 0.3, 4, 5)
	norm := func(lambda float64) float64 {
		m := mlp(t, 3, 8)
		_, err := fit(t, m, Config{Epochs: 10, BatchSize: 50, WeightDecay: lambda, LearningRate: 0.02}, tr, nil)
		require.NoError(t, err)
		var s float64
		for _, p := range m.Params() {
			if p.Value.Dims() == 2 {
				for _, v := range p.Value.Data().([]float64) {
					s += v * v
				}
			}
		}
		return s
	}
	require.Less(t, norm(5), 0.8*norm(0))
}
