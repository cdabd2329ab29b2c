package diagnose_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
	"github.com/stretchr/testify/require"
)

// TestDiagnoseBoundAlongTraining checks π_M ≤ CEBound on the training scores after every
// epoch of a real run: a squared-hinge MLP on the embedded WDBC data, which moves the scores
// far from the cross-entropy scale the bound is built on.
func TestDiagnoseBoundAlongTraining(t *testing.T) {
	ds, err := data.WDBC()
	require.NoError(t, err)
	st, err := data.FitStandardizer(ds)
	require.NoError(t, err)
	ds, err = st.Apply(ds)
	require.NoError(t, err)
	m, err := nn.NewMLP(nn.MLPConfig{In: ds.Cols, Hidden: []int{8}, Seed: 1})
	require.NoError(t, err)
	checked := 0
	check := func(train.Epoch) error {
		scores, err := nn.Scores(m, ds.X, ds.Rows)
		if err != nil {
			return err
		}
		for _, sev := range []float64{0.5, 1, 2, 4} {
			mass, err := binSevereMass(scores, ds.Y, sev)
			if err != nil {
				return err
			}
			bound, err := binCEBound(scores, ds.Y, sev)
			if err != nil {
				return err
			}
			require.LessOrEqual(t, mass, bound, "M = %v: π_M = %v > CEBound = %v", sev, mass, bound)
		}
		checked++
		return nil
	}
	tr, err := train.New(m, train.Config{
		Loss:     train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
		Epochs:   6,
		Progress: io.Discard,
		Hooks:    []train.Hook{{Name: "bound", OnEpoch: check}},
	})
	require.NoError(t, err)
	_, err = tr.Fit(context.Background(), ds, nil)
	require.NoError(t, err)
	require.Equal(t, 6, checked, "checked %d epochs, want 6", checked)
}

// TestTrainRefusesPartialDiagnosis: a Fit with Diagnose of a pairwise loss with a partial-AUC
// cut, or with such a Diagnose.Surrogate for another loss, fails before its first epoch with
// diagnose's rocops.ErrConfig naming the partial-AUC cut, rather than
// diagnosing the full loss.
func TestTrainRefusesPartialDiagnosis(t *testing.T) {
	ds, err := data.WDBC()
	require.NoError(t, err)
	cut := pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.1}
	for _, c := range []struct {
		name string
		loss train.Loss
		diag train.Diagnose
	}{
		{"pairwise loss with MaxFPR", train.Pairwise{Config: cut}, train.Diagnose{}},
		{"Diagnose.Surrogate with MinTPR", train.CrossEntropy{},
			train.Diagnose{Surrogate: pairwise.Config{Surrogate: pairwise.Hinge, MinTPR: 0.5}}},
	} {
		m, err := nn.NewMLP(nn.MLPConfig{In: ds.Cols, Hidden: []int{4}, Seed: 1})
		require.NoError(t, err)
		epochs := 0
		tr, err := train.New(m, train.Config{
			Loss: c.loss, Epochs: 3, Progress: io.Discard, Diagnose: &c.diag,
			Hooks: []train.Hook{{Name: "count", OnEpoch: func(train.Epoch) error { epochs++; return nil }}},
		})
		require.NoError(t, err, "%s: New", c.name)
		_, err = tr.Fit(context.Background(), ds, nil)
		require.ErrorIs(t, err, rocops.ErrConfig, "%s: Fit: %v; want train's error of the partial-AUC cut's rocops.ErrConfig", c.name, err)
		require.True(t, strings.HasPrefix(err.Error(), "train: "), "%s: Fit: %v; want train's error of the partial-AUC cut's rocops.ErrConfig", c.name, err)
		require.True(t, isCut(err), "%s: Fit: %v; want train's error of the partial-AUC cut's rocops.ErrConfig", c.name, err)
		require.Equal(t, 0, epochs, "%s: %d epochs ran before the error", c.name, epochs)
	}
}
