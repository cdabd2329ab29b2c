package train

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/optim"
)

// TestAUCMMulticlassSeparable: AUC-M one-vs-rest with PESG at LibAUC's defaults trains a
// linear scorer of 3 outputs on three nearly separable classes (class c centred at 5·e_c in
// unit noise, so that the score x_c alone ranks class c against the rest with AUC
// Φ(5/√2) ≈ 0.9998) to a test macro one-vs-rest AUC ≥ 0.99 in 20 epochs, on three seeds; the
// history's metric is the trainer's default for multi-class data, the validation macro OvR
// AUC, and the state holds a, b, α per class, each class's a above its b.
func TestAUCMMulticlassSeparable(t *testing.T) {
	weights := []float64{0.5, 0.3, 0.2}
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			tr := classBlobs(t, 600, 4, weights, 5, seed)
			val := classBlobs(t, 300, 4, weights, 5, seed+100)
			test := classBlobs(t, 1000, 4, weights, 5, seed+200)
			m, err := nn.NewMLP(nn.MLPConfig{In: 4, Outputs: 3, Seed: seed})
			require.NoError(t, err)
			var st optim.PESGState
			h, err := Plain(AUCM{State: &st}).Fit(context.Background(), m,
				Config{Epochs: 20, BatchSize: 64, Seed: seed, Progress: io.Discard}, tr, val)
			require.NoError(t, err)
			s, err := nn.Scores(m, test.X, test.Rows)
			require.NoError(t, err)
			auc, err := metrics.TaskAUC(s, test.Y, rocops.Classes(3), metrics.OvR, metrics.Macro)
			require.NoError(t, err)
			t.Logf("test macro OvR AUC %.5f", auc)
			require.GreaterOrEqual(t, auc, 0.99)
			vs, err := nn.Scores(m, val.X, val.Rows)
			require.NoError(t, err)
			vauc, err := metrics.TaskAUC(vs, val.Y, rocops.Classes(3), metrics.OvR, metrics.Macro)
			require.NoError(t, err)
			require.InDelta(t, vauc, h.Epochs[h.Best].Metric, 1e-12, "the best epoch's metric is the validation macro OvR AUC")
			require.Len(t, st.A, 3)
			for c := range 3 {
				require.Greater(t, st.A[c], st.B[c], "class %d", c)
				require.GreaterOrEqual(t, st.Alpha[c], 0.0)
			}
		})
	}
}

// TestAUCMMultilabelTrains: on three labels each nearly linear in its own feature (a column
// AUC near 0.95 at best) AUC-M over the label columns trains an MLP to a validation macro
// label-wise AUC of at least 0.9, with a, b, α per label.
func TestAUCMMultilabelTrains(t *testing.T) {
	tr, val := labelBlobs(t, 600, 4, 3, 1), labelBlobs(t, 300, 4, 3, 2)
	m := classMLP(t, 4, 3, tensor.Float64, 1)
	var st optim.PESGState
	h, err := Plain(AUCM{State: &st}).Fit(context.Background(), m, Config{Epochs: 15, BatchSize: 64, Progress: io.Discard}, tr, val)
	require.NoError(t, err)
	scores, err := nn.Scores(m, val.X, val.Rows)
	require.NoError(t, err)
	auc, err := metrics.TaskAUC(scores, val.Y, rocops.Labels(3), metrics.OvR, metrics.Macro)
	require.NoError(t, err)
	require.GreaterOrEqual(t, auc, 0.9)
	require.InDelta(t, auc, h.Epochs[h.Best].Metric, 1e-12)
	require.Len(t, st.Alpha, 3)
}

// TestAUCMMulticlassFirstStep: the first PESG step of a multi-class run is the one-vs-rest
// AUC-M gradient of the first batch (aucm.Gradient on 3 classes at a = b = α = 0) fed to PESG:
// after one step of one full batch, each a_c and b_c equal −η·clip(∂F/∂a_c) (and so on; no
// momentum yet, EpochDecay 0, WeightDecay 0) and each α_c = η·2(m + b_c − a_c), from the
// a_c and b_c just updated.
func TestAUCMMulticlassFirstStep(t *testing.T) {
	tr := classBlobs(t, 90, 3, []float64{1, 1, 1}, 2, 9)
	m, err := nn.NewMLP(nn.MLPConfig{In: 3, Outputs: 3, Seed: 2})
	require.NoError(t, err)
	s, err := nn.Scores(m, tr.X, tr.Rows)
	require.NoError(t, err)
	zero := make([]float64, 3)
	_, da, db, _, _, err := aucm.Gradient(s, tr.Y, zero, zero, zero, aucm.Config{Task: rocops.Classes(3)})
	require.NoError(t, err)
	set := optim.PESG{Clip: 10, Momentum: 0.9}
	var st optim.PESGState
	_, err = Plain(AUCM{PESG: &set, State: &st}).Fit(context.Background(), m,
		Config{Epochs: 1, BatchSize: 90, LearningRate: 0.5, Progress: io.Discard}, tr, nil)
	require.NoError(t, err)
	require.Equal(t, 1, st.Steps)
	for c := range 3 {
		a, b := -0.5*da[c], -0.5*db[c]
		require.InDelta(t, a, st.A[c], 1e-15, "a_%d", c)
		require.InDelta(t, b, st.B[c], 1e-15, "b_%d", c)
		require.InDelta(t, 0.5*2*(1+b-a), st.Alpha[c], 1e-15, "α_%d", c)
	}
}

// TestAUCMMulticlassGraphStep: a multi-class model without an nn.Pass trains through the graph
// of aucm.Loss on the Classes task and ends where the direct step ends, weights, a, b and α per class
// equal up to rounding after 3 epochs; the same for multi-label data (the Labels task).
func TestAUCMMulticlassGraphStep(t *testing.T) {
	for _, ml := range []bool{false, true} {
		t.Run(fmt.Sprint("multilabel=", ml), func(t *testing.T) {
			tr := classBlobs(t, 300, 3, []float64{0.5, 0.3, 0.2}, 1.5, 7)
			if ml {
				tr = labelBlobs(t, 300, 3, 3, 7)
			}
			set := optim.DefaultPESG()
			set.DecayEpochs = []int{2}
			var got [2]optim.PESGState
			var weights [2][][]float64
			for k, wrap := range []bool{false, true} {
				m := classMLP(t, 3, 3, tensor.Float64, 3)
				var model nn.Model = m
				if wrap {
					model = foreignOutputs{foreignModel{m}, 3}
				}
				_, err := Plain(AUCM{PESG: &set, State: &got[k]}).Fit(context.Background(), model,
					Config{Epochs: 3, BatchSize: 50, Progress: io.Discard}, tr, nil)
				require.NoError(t, err)
				weights[k] = params(t, m)
			}
			const tol = 1e-9
			require.Equal(t, got[0].Steps, got[1].Steps)
			for c := range 3 {
				require.InDelta(t, got[0].A[c], got[1].A[c], tol)
				require.InDelta(t, got[0].B[c], got[1].B[c], tol)
				require.InDelta(t, got[0].Alpha[c], got[1].Alpha[c], tol)
			}
			for i := range weights[0] {
				for j := range weights[0][i] {
					require.InDelta(t, weights[0][i][j], weights[1][i][j], tol, "parameter %d[%d]", i, j)
				}
			}
		})
	}
}

// TestAUCMMulticlassBadInput: a model whose outputs are not the data's k classes (ErrTask), a
// class without training rows (ErrClasses), and a resumed state of another number of classes
// (rocops.ErrConfig, a PESG setting) are refused with their named errors.
func TestAUCMMulticlassBadInput(t *testing.T) {
	tr := classBlobs(t, 120, 3, []float64{1, 1, 1}, 2, 3)
	cfg := Config{Epochs: 1, BatchSize: 30, Progress: io.Discard}
	m2, err := nn.NewMLP(nn.MLPConfig{In: 3, Outputs: 2, Seed: 1})
	require.NoError(t, err)
	_, err = Plain(AUCM{}).Fit(context.Background(), m2, cfg, tr, nil)
	require.ErrorIs(t, err, ErrTask)

	m3, err := nn.NewMLP(nn.MLPConfig{In: 3, Outputs: 3, Seed: 1})
	require.NoError(t, err)
	gap := &data.Dataset{X: tr.X, Y: append([]float64(nil), tr.Y...), Rows: tr.Rows, Cols: tr.Cols,
		FeatureNames: tr.FeatureNames, LabelName: tr.LabelName, Classes: tr.Classes}
	for i, y := range gap.Y {
		if y == 1 {
			gap.Y[i] = 0
		}
	}
	_, err = Plain(AUCM{}).Fit(context.Background(), m3, cfg, gap, nil)
	require.ErrorIs(t, err, ErrClasses)

	var st optim.PESGState
	_, err = Plain(AUCM{State: &st}).Fit(context.Background(), m3, cfg, tr, nil)
	require.NoError(t, err)
	require.Len(t, st.A, 3)
	bin := blobs(t, 100, 3, 0.3, 2, 4)
	m1, err := nn.NewMLP(nn.MLPConfig{In: 3, Seed: 1})
	require.NoError(t, err)
	// A binary model of 4 parameters against a state of 3 classes: the a, b and α of 3
	// columns are named first.
	_, err = Plain(AUCM{Resume: &st}).Fit(context.Background(), m1, cfg, bin, nil)
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.ErrorContains(t, err, "optim: invalid setting: PESG: ")
	require.ErrorContains(t, err, "3, 3 and 3 columns, the run 1")
}

// foreignOutputs is a foreign model of k outputs.
type foreignOutputs struct {
	foreignModel
	k int
}

func (f foreignOutputs) Outputs() int { return f.k }
