package train

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/aucm"
)

// TestPESGThreeSteps: PESG against a sequence worked by hand. Two model parameters θ = (θ₁, θ₂)
// start at (1, −1), a = b = α = 0; η = 0.1, Clip = 1, WeightDecay λ = 0.1, EpochDecay ε = 0.5,
// Momentum μ = 0.5, margin m = 1, and the reference point is set to θ_ref = (0.1, −0.2),
// a_ref = b_ref = 0. The gradients (g₁, g₂, g_a, g_b) of the three steps are given:
// (2, −0.5, −1, −0.5), (0.4, 3, 0.6, 0.3), (−1.5, 0.2, −0.2, 2). Per coordinate
// d = clip(g) + λθ + ε(θ − θ_ref), v = d at step 1 and (1 − μ)v + μd after, θ ← θ − ηv; then
// α ← clamp(α + η(2(m + b − a) − 2α), 0, 999).
//
// Step 1: θ₁: d = 1 + 0.1 + 0.5·0.9 = 1.55, θ₁ = 1 − 0.155 = 0.845;
// θ₂: d = −0.5 − 0.1 + 0.5·(−0.8) = −1, θ₂ = −0.9; a: d = −1, a = 0.1; b: d = −0.5, b = 0.05;
// α = 0.1·2(1 + 0.05 − 0.1) = 0.19.
// Step 2: θ₁: d = 0.4 + 0.0845 + 0.5·0.745 = 0.857, v = (1.55 + 0.857)/2 = 1.2035,
// θ₁ = 0.845 − 0.12035 = 0.72465; θ₂: d = 1 − 0.09 − 0.35 = 0.56, v = (−1 + 0.56)/2 = −0.22,
// θ₂ = −0.878; a: d = 0.6 + 0.01 + 0.05 = 0.66, v = −0.17, a = 0.117; b: d = 0.3 + 0.005 +
// 0.025 = 0.33, v = −0.085, b = 0.0585; α = 0.19 + 0.1·(2(1 + 0.0585 − 0.117) − 0.38) = 0.3403.
// Step 3: θ₁: d = −1 + 0.072465 + 0.5·0.62465 = −0.61521, v = (1.2035 − 0.61521)/2 =
// 0.294145, θ₁ = 0.6952355; θ₂: d = 0.2 − 0.0878 − 0.339 = −0.2268, v = −0.2234,
// θ₂ = −0.85566; a: d = −0.2 + 0.0117 + 0.0585 = −0.1298, v = −0.1499, a = 0.13199;
// b: d = 1 + 0.00585 + 0.02925 = 1.0351, v = 0.47505, b = 0.010995;
// α = 0.3403 + 0.1·(2(1 + 0.010995 − 0.13199) − 0.6806) = 0.448041.
// A decay epoch then sets θ_ref to the mean of the three iterates, θ₁: (0.845 + 0.72465 +
// 0.6952355)/3 = 0.7549618333…, and η to 0.1/10 = 0.01.
func TestPESGThreeSteps(t *testing.T) {
	const tol = 1e-12 // a few roundings of numbers below 2
	set := PESG{Clip: 1, WeightDecay: 0.1, EpochDecay: 0.5, Momentum: 0.5}
	require.NoError(t, set.check())
	p := newPESG(set, 0.1, 1, []int{2}, 1, 1)
	p.ref[0] = []float64{0.1, -0.2}
	p.ref[1][0], p.ref[2][0] = 0, 0
	theta := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{1, -1}))
	steps := [][4]float64{{2, -0.5, -1, -0.5}, {0.4, 3, 0.6, 0.3}, {-1.5, 0.2, -0.2, 2}}
	want := []struct{ t1, t2, a, b, alpha float64 }{
		{0.845, -0.9, 0.1, 0.05, 0.19},
		{0.72465, -0.878, 0.117, 0.0585, 0.3403},
		{0.6952355, -0.85566, 0.13199, 0.010995, 0.448041},
	}
	for k, g := range steps {
		grad := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{g[0], g[1]}))
		require.NoError(t, p.step([]*tensor.Dense{theta}, []*tensor.Dense{grad}, []float64{g[2]}, []float64{g[3]}))
		w := theta.Float64s()
		st := p.state()
		require.InDelta(t, want[k].t1, w[0], tol, "step %d θ₁", k+1)
		require.InDelta(t, want[k].t2, w[1], tol, "step %d θ₂", k+1)
		require.InDelta(t, want[k].a, st.A[0], tol, "step %d a", k+1)
		require.InDelta(t, want[k].b, st.B[0], tol, "step %d b", k+1)
		require.InDelta(t, want[k].alpha, st.Alpha[0], tol, "step %d α", k+1)
	}
	p.decayEpoch()
	require.InDelta(t, (0.845+0.72465+0.6952355)/3, p.ref[0][0], tol)
	require.InDelta(t, (0.1+0.117+0.13199)/3, p.ref[1][0], tol)
	require.InDelta(t, 0.01, p.state().LearningRate, 1e-15)
	st := p.state()
	require.Equal(t, []float64{p.a[0], p.b[0], p.alpha[0], 0.01}, []float64{st.A[0], st.B[0], st.Alpha[0], st.LearningRate})
	require.Equal(t, []int{3, 0}, []int{st.Steps, st.SinceReset})
}

// TestPESGResume: an optimiser resumed from another's state, through JSON, takes the same
// next steps to the bit, momentum and reference points included.
func TestPESGResume(t *testing.T) {
	set := PESG{Clip: 1, WeightDecay: 0.1, EpochDecay: 0.5, Momentum: 0.5}
	p := newPESG(set, 0.1, 1, []int{2}, 1, 1)
	theta := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{1, -1}))
	grad := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{0.7, -2}))
	for range 2 {
		require.NoError(t, p.step([]*tensor.Dense{theta}, []*tensor.Dense{grad}, []float64{0.3}, []float64{-0.4}))
	}
	raw, err := json.Marshal(p.state())
	require.NoError(t, err)
	var st PESGState
	require.NoError(t, json.Unmarshal(raw, &st))
	q := newPESG(set, 0.5, 1, []int{2}, 1, 99) // another rate and reference draw, both replaced
	require.NoError(t, q.resume(st))
	theta2 := tensor.New(tensor.WithShape(2), tensor.WithBacking(slices.Clone(theta.Float64s())))
	for range 2 {
		require.NoError(t, p.step([]*tensor.Dense{theta}, []*tensor.Dense{grad}, []float64{-0.1}, []float64{0.2}))
		require.NoError(t, q.step([]*tensor.Dense{theta2}, []*tensor.Dense{grad}, []float64{-0.1}, []float64{0.2}))
	}
	p.decayEpoch()
	q.decayEpoch()
	require.Equal(t, theta.Float64s(), theta2.Float64s())
	require.Equal(t, p.state(), q.state())

	err = newPESG(set, 0.1, 1, []int{3}, 1, 1).resume(st)
	require.ErrorIs(t, err, rocops.ErrConfig, "another model's state")
	require.ErrorContains(t, err, "train: invalid setting: PESG: ")
	bad := st
	bad.Alpha = []float64{math.NaN()}
	err = q.resume(bad)
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.ErrorContains(t, err, "train: invalid setting: PESG: ")
}

// TestPESGAlphaProjected: α's ascent is clamped at 0 (a far above b drives it down).
func TestPESGAlphaProjected(t *testing.T) {
	p := newPESG(PESG{}, 1, 1, []int{1}, 1, 1)
	p.a[0], p.b[0] = 5, 0
	theta := tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{0}))
	grad := tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{0}))
	require.NoError(t, p.step([]*tensor.Dense{theta}, []*tensor.Dense{grad}, []float64{0}, []float64{0}))
	require.Zero(t, p.alpha[0]) // 0 + 1·2(1 + 0 − 5) = −8, projected to 0
}

// TestAUCMSeparable: AUC-M with PESG at LibAUC's defaults reaches a test AUC ≥ 0.99 on a
// separable task (a 4-feature linear scorer; the classes 6 standard deviations apart along
// the first feature, so the Bayes AUC is above 0.9999), starting from the scorer −x₁, which
// ranks the test set almost exactly backwards, and reports its trained a, b, α: a above b,
// as the class means of σ(score) are after training.
func TestAUCMSeparable(t *testing.T) {
	tr := blobs(t, 600, 4, 0.2, 6, 1)
	val := blobs(t, 300, 4, 0.2, 6, 2)
	test := blobs(t, 1000, 4, 0.2, 6, 3)
	m, err := nn.NewMLP(nn.MLPConfig{In: 4, Seed: 5})
	require.NoError(t, err)
	setParams(m, []float64{-1, 0, 0, 0, 0})
	scorer, err := nn.NewScorer(m)
	require.NoError(t, err)
	defer scorer.Close()
	s, err := nn.ScoresWith(scorer, test.X, test.Rows)
	require.NoError(t, err)
	before, err := metrics.AUC(s, test.Y)
	require.NoError(t, err)
	require.Less(t, before, 0.01, "the start ranks backwards")

	var st PESGState
	h, err := Plain(AUCM{State: &st}).Fit(context.Background(), m, Config{Epochs: 10, BatchSize: 64, Progress: io.Discard}, tr, val)
	require.NoError(t, err)
	require.Len(t, h.Epochs, 10)
	s, err = nn.ScoresWith(scorer, test.X, test.Rows)
	require.NoError(t, err)
	auc, err := metrics.AUC(s, test.Y)
	require.NoError(t, err)
	require.GreaterOrEqual(t, auc, 0.99)
	require.Equal(t, 10*((600+63)/64), st.Steps)
	require.Greater(t, st.A[0], st.B[0])
	require.GreaterOrEqual(t, st.Alpha[0], 0.0)
}

// TestAUCMDecayEpochs: the learning rate is divided at each decay epoch and nowhere else.
func TestAUCMDecayEpochs(t *testing.T) {
	tr := blobs(t, 200, 3, 0.3, 2, 4)
	m, err := nn.NewMLP(nn.MLPConfig{In: 3, Seed: 1})
	require.NoError(t, err)
	set := DefaultPESG()
	set.DecayEpochs, set.DecayFactor = []int{2, 3}, 4
	var st PESGState
	_, err = Plain(AUCM{PESG: &set, State: &st}).Fit(context.Background(), m, Config{Epochs: 4, LearningRate: 0.2, Progress: io.Discard}, tr, nil)
	require.NoError(t, err)
	require.InDelta(t, 0.2/16, st.LearningRate, 1e-15)
	require.Equal(t, 1, st.SinceReset) // 200 rows in batches of 200: one step after the last reset
}

// TestAUCMBadSettings: negative or NaN PESG settings, a momentum above 1, a decay factor
// below 1, a decay epoch below 1 and a negative margin are named errors.
func TestAUCMBadSettings(t *testing.T) {
	tr := blobs(t, 100, 2, 0.3, 2, 5)
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 1})
	require.NoError(t, err)
	for name, mod := range map[string]func(*PESG){
		"negative lr":       func(p *PESG) { p.LearningRate = -0.1 },
		"NaN lr":            func(p *PESG) { p.LearningRate = math.NaN() },
		"negative clip":     func(p *PESG) { p.Clip = -1 },
		"NaN weight decay":  func(p *PESG) { p.WeightDecay = math.NaN() },
		"negative ep decay": func(p *PESG) { p.EpochDecay = -2e-3 },
		"infinite momentum": func(p *PESG) { p.Momentum = math.Inf(1) },
		"momentum above 1":  func(p *PESG) { p.Momentum = 1.5 },
		"decay factor 0.5":  func(p *PESG) { p.DecayFactor = 0.5 },
		"decay epoch 0":     func(p *PESG) { p.DecayEpochs = []int{0} },
	} {
		set := DefaultPESG()
		mod(&set)
		_, err := Plain(AUCM{PESG: &set}).Fit(context.Background(), m, Config{Epochs: 1, Progress: io.Discard}, tr, nil)
		require.ErrorIs(t, err, rocops.ErrConfig, name)
		require.ErrorContains(t, err, "train: invalid setting: PESG: ", name)
		for _, err := range []error{AUCM{PESG: &set}.Check(rocops.Task{}), Plain(AUCM{PESG: &set}).Check(rocops.Task{})} {
			require.ErrorIs(t, err, rocops.ErrConfig, name)
			require.ErrorContains(t, err, "train: invalid setting: PESG: ", name)
		}
	}
	require.NoError(t, Plain(AUCM{}).Check(rocops.Task{}))
	require.ErrorIs(t, Plain(AUCM{Config: aucm.Config{Margin: math.NaN()}}).Check(rocops.Task{}), rocops.ErrConfig)
	require.ErrorContains(t, Plain(AUCM{Config: aucm.Config{Margin: math.NaN()}}).Check(rocops.Task{}), "aucm: invalid setting: Margin = NaN")
	_, err = Plain(AUCM{Config: aucm.Config{Margin: -1}}).Fit(context.Background(), m, Config{Epochs: 1, Progress: io.Discard}, tr, nil)
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.ErrorContains(t, err, "aucm: invalid setting: Margin = -1")
	_, err = Plain(AUCM{}).Fit(context.Background(), m, Config{Epochs: 1, WeightDecay: 0.1, Progress: io.Discard}, tr, nil)
	require.ErrorIs(t, err, rocops.ErrConfig)
}

// TestAUCMResume: a run resumed from an earlier run's State continues its step and epoch
// counts, a, b, α and learning rate rather than starting afresh: its one epoch is epoch 2 of
// DecayEpochs.
func TestAUCMResume(t *testing.T) {
	tr := blobs(t, 200, 3, 0.3, 2, 6)
	m, err := nn.NewMLP(nn.MLPConfig{In: 3, Seed: 1})
	require.NoError(t, err)
	set := DefaultPESG()
	set.DecayEpochs = []int{1, 2}
	cfg := Config{Epochs: 1, BatchSize: 50, Progress: io.Discard}
	var first, second PESGState
	_, err = Plain(AUCM{PESG: &set, State: &first}).Fit(context.Background(), m, cfg, tr, nil)
	require.NoError(t, err)
	require.Equal(t, 4, first.Steps)
	require.InDelta(t, 0.01, first.LearningRate, 1e-15) // 0.1, decayed once
	_, err = Plain(AUCM{PESG: &set, State: &second, Resume: &first}).Fit(context.Background(), m, cfg, tr, nil)
	require.NoError(t, err)
	require.Equal(t, 8, second.Steps)
	require.Equal(t, 2, second.Epochs)
	require.InDelta(t, 0.001, second.LearningRate, 1e-15) // epoch 2 of the run: decayed again
	require.NotEqual(t, first.Alpha[0], second.Alpha[0])
}

// foreignModel is a model of another package: it wraps an nn model but is not one, so the
// trainer builds it into a graph.
type foreignModel struct{ nn.Model }

// TestAUCMGraphStep: a model without an nn.Pass trains AUC-M through the graph of the
// aucm.Loss op, and ends where the direct step ends from the same start: weights, a, b and α
// equal up to rounding after 3 epochs (float64; the two paths sum in other orders).
func TestAUCMGraphStep(t *testing.T) {
	tr := blobs(t, 300, 3, 0.3, 1.5, 7)
	set := DefaultPESG()
	set.DecayEpochs = []int{2}
	var got [2]PESGState
	var weights [2][][]float64
	for k, wrap := range []bool{false, true} {
		m, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4}, Seed: 3})
		require.NoError(t, err)
		var model nn.Model = m
		if wrap {
			model = foreignModel{m}
			_, err := nn.NewPass(model, 4)
			require.ErrorIs(t, err, nn.ErrNoPass)
		}
		_, err = Plain(AUCM{PESG: &set, State: &got[k]}).Fit(context.Background(), model, Config{Epochs: 3, BatchSize: 50, Progress: io.Discard}, tr, nil)
		require.NoError(t, err)
		weights[k] = params(t, m)
	}
	const tol = 1e-9
	require.Equal(t, got[0].Steps, got[1].Steps)
	require.InDelta(t, got[0].A[0], got[1].A[0], tol)
	require.InDelta(t, got[0].B[0], got[1].B[0], tol)
	require.InDelta(t, got[0].Alpha[0], got[1].Alpha[0], tol)
	require.NotZero(t, got[0].Alpha[0])
	for i := range weights[0] {
		for j := range weights[0][i] {
			require.InDelta(t, weights[0][i][j], weights[1][i][j], tol, "parameter %d[%d]", i, j)
		}
	}
}

// TestAUCMAsConfigLoss: AUCM is a Loss: as a Trainer's Config.Loss it trains with PESG's own
// step, as the recipe Plain(AUCM) does, to the same weights and state bit for bit; as a loss
// evaluated outside training it is AUC-M at a = b = α = 0.
func TestAUCMAsConfigLoss(t *testing.T) {
	tr := blobs(t, 200, 3, 0.3, 2, 8)
	set := DefaultPESG()
	set.DecayEpochs = []int{2}
	cfg := Config{Epochs: 3, BatchSize: 50, Progress: io.Discard}
	var viaRecipe, viaTrainer PESGState
	m1, err := nn.NewMLP(nn.MLPConfig{In: 3, Seed: 2})
	require.NoError(t, err)
	_, err = Plain(AUCM{PESG: &set, State: &viaRecipe}).Fit(context.Background(), m1, cfg, tr, nil)
	require.NoError(t, err)
	m2, err := nn.NewMLP(nn.MLPConfig{In: 3, Seed: 2})
	require.NoError(t, err)
	c := cfg
	c.Loss = AUCM{PESG: &set, State: &viaTrainer}
	trn, err := New(m2, c)
	require.NoError(t, err)
	_, err = trn.Fit(context.Background(), tr, nil)
	require.NoError(t, err)
	require.Equal(t, viaRecipe, viaTrainer)
	require.Equal(t, params(t, m1), params(t, m2))
	require.Equal(t, 3*4, viaTrainer.Steps)

	scores, labels := []float64{0.3, -1.2, 2.1, 0.4}, []float64{1, 0, 1, 0}
	zero := []float64{0}
	dz, _, _, _, want, err := aucm.Gradient(scores, labels, zero, zero, zero, aucm.Config{})
	require.NoError(t, err)
	grad := make([]float64, len(scores))
	got, err := AUCM{}.ValueGradInto(grad, scores, labels, rocops.Task{})
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, dz, grad)
}
