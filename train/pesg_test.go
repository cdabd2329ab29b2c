package train

import (
	"context"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/optim"
)

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

	var st optim.PESGState
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
	set := optim.DefaultPESG()
	set.DecayEpochs, set.DecayFactor = []int{2, 3}, 4
	var st optim.PESGState
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
	for name, mod := range map[string]func(*optim.PESG){
		"negative lr":       func(p *optim.PESG) { p.LearningRate = -0.1 },
		"NaN lr":            func(p *optim.PESG) { p.LearningRate = math.NaN() },
		"negative clip":     func(p *optim.PESG) { p.Clip = -1 },
		"NaN weight decay":  func(p *optim.PESG) { p.WeightDecay = math.NaN() },
		"negative ep decay": func(p *optim.PESG) { p.EpochDecay = -2e-3 },
		"infinite momentum": func(p *optim.PESG) { p.Momentum = math.Inf(1) },
		"momentum above 1":  func(p *optim.PESG) { p.Momentum = 1.5 },
		"decay factor 0.5":  func(p *optim.PESG) { p.DecayFactor = 0.5 },
		"decay epoch 0":     func(p *optim.PESG) { p.DecayEpochs = []int{0} },
	} {
		set := optim.DefaultPESG()
		mod(&set)
		_, err := Plain(AUCM{PESG: &set}).Fit(context.Background(), m, Config{Epochs: 1, Progress: io.Discard}, tr, nil)
		require.ErrorIs(t, err, rocops.ErrConfig, name)
		require.ErrorContains(t, err, "optim: invalid setting: PESG: ", name)
		for _, err := range []error{AUCM{PESG: &set}.Check(rocops.Task{}), Plain(AUCM{PESG: &set}).Check(rocops.Task{})} {
			require.ErrorIs(t, err, rocops.ErrConfig, name)
			require.ErrorContains(t, err, "optim: invalid setting: PESG: ", name)
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
	set := optim.DefaultPESG()
	set.DecayEpochs = []int{1, 2}
	cfg := Config{Epochs: 1, BatchSize: 50, Progress: io.Discard}
	var first, second optim.PESGState
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
	set := optim.DefaultPESG()
	set.DecayEpochs = []int{2}
	var got [2]optim.PESGState
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
	set := optim.DefaultPESG()
	set.DecayEpochs = []int{2}
	cfg := Config{Epochs: 3, BatchSize: 50, Progress: io.Discard}
	var viaRecipe, viaTrainer optim.PESGState
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
