package experiment_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/optim"
	"github.com/rocops/rocops/train"
	"gorgonia.org/gorgonia"
)

// scripted is a recipe that trains nothing: for each learning rate it returns the
// validation metrics of a made-up History (its best epoch is the highest), and the error of
// fail when there is one, and it records what the search gave it.
type scripted struct {
	name    string
	metrics map[float64][]float64 // learning rate → validation metric of each epoch
	fail    map[float64]error     // learning rate → the error Fit returns with its History
	seen    *[]call
}

// call is one Fit a scripted recipe saw.
type call struct {
	recipe  string
	lr      float64
	seed    uint64
	diagSet uint64 // the Diagnose seed, 0 without Diagnose
	model   nn.Model
	weights []byte // the model's initial parameters
	hooks   []string
}

func (s scripted) String() string { return s.name }

func (s scripted) Fit(
	ctx context.Context,
	m nn.Model,
	cfg train.Config,
	tr, val *data.Dataset,
) (*train.History, error) {
	var buf bytes.Buffer
	if err := nn.Write(&buf, m); err != nil {
		return nil, err
	}
	c := call{recipe: s.name, lr: cfg.LearningRate, seed: cfg.Seed, model: m, weights: buf.Bytes()}
	if cfg.Diagnose != nil {
		c.diagSet = cfg.Diagnose.Seed
	}
	h := &train.History{Best: -1}
	for k, v := range s.metrics[cfg.LearningRate] {
		e := train.Epoch{Index: k + 1, Stage: train.Main, Metric: v}
		h.Epochs = append(h.Epochs, e)
		if h.Best < 0 || v > h.Epochs[h.Best].Metric {
			h.Best = k
		}
		for _, hook := range cfg.Hooks {
			c.hooks = append(c.hooks, hook.Name)
			if hook.OnEpoch != nil {
				if err := hook.OnEpoch(e); err != nil {
					return h, err
				}
			}
		}
	}
	*s.seen = append(*s.seen, c)
	return h, s.fail[cfg.LearningRate]
}

// named is a loss that only has a name: the placeholder of a scripted recipe, which trains nothing.
type named string

func (n named) Check(rocops.Task) error { return nil }
func (n named) Build(_, _ *gorgonia.Node, _ rocops.Task) (*gorgonia.Node, error) {
	return nil, errors.New("a scripted recipe builds nothing")
}
func (n named) ValueGradInto(_, _, _ []float64, _ rocops.Task) (float64, error) {
	return 0, train.ErrNoDirect
}
func (n named) String() string { return string(n) }

// scripts makes s search the scripted recipes rs: its recipes are placeholders named as rs, and
// each candidate of recipe k runs rs[k].Fit.
func scripts(s *experiment.Search, rs ...scripted) *experiment.Search {
	s.Recipes = nil
	for _, r := range rs {
		s.Recipes = append(s.Recipes, train.Plain(named(r.name)))
	}
	experiment.SetFit(s, func(ctx context.Context, c experiment.Candidate, m nn.Model, cfg train.Config,
		sp *experiment.Split) (*train.History, error) {
		return rs[c.Index/len(s.LearningRates)].Fit(ctx, m, cfg, sp.Train, sp.Val)
	})
	return s
}

// tinySplit is a split of a small synthetic task; the scripted recipes never read its rows.
func tinySplit(t *testing.T, seed uint64) *experiment.Split {
	t.Helper()
	ds, err := data.Teacher(data.TeacherConfig{Rows: 200, Cols: 3, Positive: 0.3, Seed: 5})
	require.NoError(t, err)
	sp, err := experiment.NewSplit(ds, seed)
	require.NoError(t, err)
	return sp
}

// The search keeps the candidate whose best epoch scores highest, whatever its place: here
// the middle learning rate's second epoch, not the last learning rate nor any last epoch.
// Every candidate starts from the same initial weights and the split's seed.
func TestSearchKeepsTheBestEpochOfAnyLearningRate(t *testing.T) {
	var seen []call
	r := scripted{name: "r", seen: &seen, metrics: map[float64][]float64{
		0.1: {0.60, 0.70, 0.65},
		0.2: {0.50, 0.90, 0.80}, // the best: epoch 2
		0.3: {0.85, 0.86, 0.88},
	}}
	s := scripts(&experiment.Search{Name: "r", LearningRates: []float64{0.1, 0.2, 0.3},
		Model: nn.MLPConfig{Hidden: []int{4}}, Config: train.Config{Diagnose: &train.Diagnose{Seed: 99}}}, r)
	sp := tinySplit(t, 7)
	best, err := s.Run(context.Background(), sp)
	require.NoError(t, err)
	if best.LearningRate != 0.2 || best.Epoch() != 2 || best.History.Epochs[best.History.Best].Metric != 0.90 || best.Index != 1 ||
		best.Failed != nil {
		assert.Fail(t, fmt.Sprintf("kept lr %v epoch %d score %v (candidate %d, failed %v), want lr 0.2 epoch 2 score 0.9 (candidate 1)",
			best.LearningRate,
			best.Epoch(),
			best.History.Epochs[best.History.Best].Metric,
			best.Index,
			best.Failed))
	}
	require.Len(t, seen, 3, "%d candidates trained, want 3", len(seen))
	assert.True(t, best.Model == seen[1].model, "the kept model is not the one the kept candidate trained")
	want, err := nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: []int{4}, Seed: 7})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, nn.Write(&buf, want))
	for k, c := range seen {
		if c.lr != s.LearningRates[k] || c.seed != 7 || c.diagSet != 7 {
			assert.Fail(t, fmt.Sprintf("candidate %d: learning rate %v, seed %d, diagnose seed %d; want %v, 7 and 7",
				k,
				c.lr,
				c.seed,
				c.diagSet,
				s.LearningRates[k]))
		}
		assert.Equal(t, c.weights, buf.Bytes(), "candidate %d does not start from the MLP of the split's seed", k)
	}
	assert.True(t, s.Config.Diagnose.Seed == 99, "the search changed its caller's Diagnose")
}

// With several recipes the recipes are searched like the learning rate: the best of all
// recipe × learning-rate candidates is kept, ties going to the first.
func TestSearchOverRecipes(t *testing.T) {
	var seen []call
	a := scripted{name: "a", seen: &seen, metrics: map[float64][]float64{0.1: {0.7}, 0.2: {0.8}}}
	b := scripted{name: "b", seen: &seen, metrics: map[float64][]float64{0.1: {0.8}, 0.2: {0.75}}}
	s := scripts(&experiment.Search{LearningRates: []float64{0.1, 0.2}}, a, b)
	best, err := s.Run(context.Background(), tinySplit(t, 1))
	require.NoError(t, err)
	if best.Recipe.String() != "a" || best.LearningRate != 0.2 || best.Index != 1 {
		assert.Fail(t, fmt.Sprintf("kept %v at %v (candidate %d), want the first of the tied: a at 0.2 (candidate 1)",
			best.Recipe,
			best.LearningRate,
			best.Index))
	}
	if got := []string{seen[0].recipe, seen[1].recipe, seen[2].recipe, seen[3].recipe}; strings.Join(
		got,
		"",
	) != "aabb" {
		assert.Fail(t, fmt.Sprintf("order %v, want learning rates inner", got))
	}
}

// A learning rate whose training fails part-way competes with its best epoch, and wins here;
// one that finishes no epoch is skipped; both errors are reported, naming the candidate.
func TestFailingLearningRateKeepsItsBestEpoch(t *testing.T) {
	var seen []call
	diverged := errors.New("loss overflows")
	r := scripted{name: "r", seen: &seen,
		metrics: map[float64][]float64{0.1: {0.6, 0.7}, 0.2: {0.8, 0.95}, 0.3: nil},
		fail:    map[float64]error{0.2: diverged, 0.3: diverged}}
	var done []string
	s := scripts(&experiment.Search{LearningRates: []float64{0.1, 0.2, 0.3},
		Hooks: experiment.Hooks{Done: func(c experiment.Candidate, h *train.History, err error) {
			done = append(done, fmt.Sprintf("%v %d %v", c.LearningRate, h.Best, err))
		}}}, r)
	best, err := s.Run(context.Background(), tinySplit(t, 1))
	require.NoError(t, err)
	assert.False(t, best.LearningRate != 0.2 || best.Epoch() != 2, "kept lr %v epoch %d, want the failed lr 0.2's epoch 2", best.LearningRate, best.Epoch())
	if !errors.Is(best.Failed, diverged) ||
		!strings.Contains(best.Failed.Error(), "learning rate 0.3: loss overflows") {
		assert.Fail(t, fmt.Sprintf("Failed = %v, want both failures named", best.Failed))
	}
	want := "0.1 1 <nil>|0.2 1 learning rate 0.2: loss overflows|0.3 -1 learning rate 0.3: loss overflows"
	if got := strings.Join(done, "|"); got != want {
		assert.Fail(t, fmt.Sprintf("Done calls\n%s\nwant\n%s", got, want))
	}

	// When no candidate finishes an epoch the search fails with every error.
	none := scripted{
		name:    "r",
		seen:    &seen,
		metrics: map[float64][]float64{},
		fail:    map[float64]error{0.1: diverged, 0.2: diverged},
	}
	s = scripts(&experiment.Search{LearningRates: []float64{0.1, 0.2}}, none)
	if _, err := s.Run(context.Background(), tinySplit(t, 1)); !errors.Is(err, diverged) ||
		!strings.Contains(err.Error(), "learning rate 0.1") ||
		!strings.Contains(err.Error(), "learning rate 0.2") {
		assert.Fail(t, fmt.Sprintf("every candidate failed: error %v, want both", err))
	}
	s = scripts(&experiment.Search{Name: "r"}, none)
	if _, err := s.Run(context.Background(), tinySplit(t, 1)); err == nil ||
		err.Error() != `experiment: a search needs at least one recipe and one learning rate ("r")` {
		assert.Fail(t, fmt.Sprintf("no learning rate: %v, want the search's error naming it", err))
	}
}

// A configuration error stops the search at once, as it is.
func TestSearchStopsOnConfigError(t *testing.T) {
	s := &experiment.Search{Recipes: []train.Recipe{train.Plain(nil)}, LearningRates: []float64{0.1, 0.2},
		Config: train.Config{Loss: train.CrossEntropy{}}} // a recipe sets the loss itself
	calls := 0
	s.Hooks.Start = func(experiment.Candidate, nn.Model) []train.Hook { calls++; return nil }
	if _, err := s.Run(context.Background(), tinySplit(t, 1)); !errors.Is(err, rocops.ErrConfig) ||
		calls != 1 {
		assert.Fail(t, fmt.Sprintf("error %v after %d candidates, want ErrConfig after 1", err, calls))
	}
}

// The real trainer: the kept model and score are those of the candidate that, trained alone,
// reaches the highest validation metric.
func TestSearchWithTheTrainer(t *testing.T) {
	sp := tinySplit(t, 3)
	lrs := []float64{0.001, 0.05, 0.3}
	cfg := train.Config{Epochs: 4, BatchSize: 32, Metric: train.PartialAUC(0.2), Progress: io.Discard}
	s := &experiment.Search{
		Recipes:       []train.Recipe{train.Plain(nil)},
		LearningRates: lrs,
		Model:         nn.MLPConfig{Hidden: []int{8}},
		Config:        cfg,
	}
	best, err := s.Run(context.Background(), sp)
	require.NoError(t, err)
	bestScore, bestLR := math.Inf(-1), 0.0
	for _, lr := range lrs {
		m, err := nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: []int{8}, Seed: 3})
		require.NoError(t, err)
		c := cfg
		c.LearningRate, c.Seed = lr, 3
		h, err := train.Plain(nil).Fit(context.Background(), m, c, sp.Train, sp.Val)
		require.NoError(t, err)
		if v := h.Epochs[h.Best].Metric; v > bestScore {
			bestScore, bestLR = v, lr
		}
	}
	if best.LearningRate != bestLR || best.History.Epochs[best.History.Best].Metric != bestScore {
		assert.Fail(t, fmt.Sprintf("kept lr %v with %v; training each alone gives lr %v with %v",
			best.LearningRate,
			best.History.Epochs[best.History.Best].Metric,
			bestLR,
			bestScore))
	}
}

// Cancelling the context stops the search after the candidate that was training: no other
// starts, and the context's error comes back.
func TestSearchStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := 0
	stop := train.Hook{Name: "cancel", OnStep: func(info train.StepInfo) error {
		if info.Step == 2 {
			cancel()
		}
		return nil
	}}
	s := &experiment.Search{
		Recipes:       []train.Recipe{train.Plain(nil)},
		LearningRates: []float64{0.01, 0.02, 0.03},
		Config: train.Config{
			Epochs:    50,
			BatchSize: 16,
			Progress:  io.Discard,
			Hooks:     []train.Hook{stop},
		},
		Hooks: experiment.Hooks{
			Start: func(experiment.Candidate, nn.Model) []train.Hook { started++; return nil },
		},
	}
	_, err := s.Run(ctx, tinySplit(t, 1))
	assert.False(t, !errors.Is(err, context.Canceled) || started != 1, "error %v after %d candidates, want context.Canceled after 1", err, started)
}

// A search over a train.AUCM recipe keeps the PESG state of the candidate it keeps: the state
// a direct AUCM Fit of that candidate (its learning rate, the split's seed and initial weights)
// ends with, a, b and α included. Every candidate trains with a State of its own, so the
// recipe's own receives nothing; a search over another recipe keeps none.
func TestSearchKeepsTheAUCMState(t *testing.T) {
	sp := tinySplit(t, 3)
	var own optim.PESGState
	mc := nn.MLPConfig{Hidden: []int{4}}
	cfg := train.Config{Epochs: 3, BatchSize: 32, Progress: io.Discard}
	s := &experiment.Search{Name: "aucm", Recipes: []train.Recipe{train.Plain(train.AUCM{State: &own})},
		LearningRates: train.PESGRates, Model: mc, Config: cfg}
	var tried int
	s.Hooks.Start = func(experiment.Candidate, nn.Model) []train.Hook { tried++; return nil }
	best, err := s.Run(context.Background(), sp)
	require.NoError(t, err)
	require.True(t, tried == len(train.PESGRates), "%d candidates, want %d", tried, len(train.PESGRates))
	require.False(t, best.PESG == nil || len(best.PESG.A) != 1 || best.PESG.Epochs != best.History.Epochs[len(best.History.Epochs)-1].Index, "kept state %+v after %d epochs", best.PESG, len(best.History.Epochs))
	assert.True(t, own.A == nil, "the recipe's own State received %+v", own)
	mc.In, mc.Seed = sp.Train.Cols, sp.Seed
	m, err := nn.NewMLP(mc)
	require.NoError(t, err)
	var want optim.PESGState
	cfg.LearningRate, cfg.Seed = best.LearningRate, sp.Seed
	if _, err := train.Plain(train.AUCM{State: &want}).Fit(context.Background(), m, cfg, sp.Train, sp.Val); err != nil {
		require.Fail(t, fmt.Sprint(err))
	}
	assert.Equal(t, want, *best.PESG, "kept state at learning rate %v:\n%+v\nwant %+v", best.LearningRate, *best.PESG, want)
	assert.False(t, want.A[0] == 0 && want.B[0] == 0 && want.Alpha[0] == 0, "a, b and α never moved: %+v", want)

	s = &experiment.Search{Name: "ce", Recipes: []train.Recipe{train.Plain(nil)}, LearningRates: []float64{0.01}, Model: mc, Config: cfg}
	cfg.LearningRate, cfg.Seed = 0, 0
	s.Config = cfg
	if best, err = s.Run(context.Background(), sp); err != nil || best.PESG != nil {
		assert.Fail(t, fmt.Sprintf("ce: PESG state %+v, error %v", best.PESG, err))
	}
}

// Init, when set, builds every candidate's initial model in place of Model: a new model per
// candidate, here an MLP of another hidden size with its body frozen, each built for the split.
func TestSearchInit(t *testing.T) {
	var seen []call
	r := scripted{name: "r", seen: &seen, metrics: map[float64][]float64{0.1: {0.6}, 0.2: {0.7}}}
	var splits []uint64
	s := scripts(&experiment.Search{Name: "r", LearningRates: []float64{0.1, 0.2}, Model: nn.MLPConfig{Hidden: []int{4}},
		Init: func(sp *experiment.Split) (nn.Model, error) {
			splits = append(splits, sp.Seed)
			base, err := nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: []int{6}, Seed: 11})
			if err != nil {
				return nil, err
			}
			return nn.Transfer(base, nn.TransferConfig{Body: 2, Freeze: 1})
		}}, r)
	sp := tinySplit(t, 7)
	best, err := s.Run(context.Background(), sp)
	require.NoError(t, err)
	if !reflect.DeepEqual(splits, []uint64{7, 7}) || len(seen) != 2 || seen[0].model == seen[1].model {
		require.Fail(t, fmt.Sprintf("Init called for splits %v, %d candidates trained; want one new model per candidate", splits, len(seen)))
	}
	want, err := nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: []int{6}, Seed: 11})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, nn.Write(&buf, want))
	for k, c := range seen {
		assert.Equal(t, c.weights, buf.Bytes(), "candidate %d does not start from Init's model", k)
		if ps := c.model.Params(); !ps[0].Frozen || ps[2].Frozen {
			assert.Fail(t, fmt.Sprintf("candidate %d: frozen flags %v, %v; want Init's (the body frozen, the last layer not)", k, ps[0].Frozen, ps[2].Frozen))
		}
	}
	assert.True(t, best.LearningRate == 0.2, "kept lr %v, want 0.2", best.LearningRate)
}
