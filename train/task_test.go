package train

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
)

// Validation data of other classes or labels than training's is ErrTask naming how they
// differ — the names each part lacks, or the order when both hold the same names — before any
// step (the message said that they differ, not which).
func TestFitNamesValidationClassesThatDiffer(t *testing.T) {
	weights := []float64{1, 1, 1}
	cases := []struct {
		name   string
		labels bool // multi-label parts
		edit   func(val *data.Dataset)
		want   string
	}{
		{"a class renamed", false, func(val *data.Dataset) { val.Classes[2] = "other" },
			`train: the model, loss or settings do not fit the data's task: the validation data's multi-class differ from the training data's: validation lacks "c3"; training lacks "other"`},
		{"classes in another order", false, func(val *data.Dataset) { val.Classes[0], val.Classes[1] = val.Classes[1], val.Classes[0] },
			`train: the model, loss or settings do not fit the data's task: the validation data's multi-class differ from the training data's: training has ["c1" "c2" "c3"], validation ["c2" "c1" "c3"]`},
		{"a label renamed", true, func(val *data.Dataset) { val.Labels[0] = "m1" },
			`train: the model, loss or settings do not fit the data's task: the validation data's multi-label differ from the training data's: validation lacks "l1"; training lacks "m1"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, val := classBlobs(t, 90, 4, weights, 3, 1), classBlobs(t, 60, 4, weights, 3, 2)
			if c.labels {
				tr, val = labelBlobs(t, 100, 4, 3, 1), labelBlobs(t, 100, 4, 3, 2)
			}
			c.edit(val)
			trn, err := New(classMLP(t, 4, 3, tensor.Float64, 1), Config{Loss: CrossEntropy{}, Epochs: 1, Progress: io.Discard})
			require.NoError(t, err)
			steps := 0
			trn.cfg.Hooks = []Hook{{Name: "count", OnStep: func(StepInfo) error { steps++; return nil }}}
			_, err = trn.Fit(context.Background(), tr, val)
			require.ErrorIs(t, err, ErrTask)
			require.EqualError(t, err, c.want)
			require.Zero(t, steps)
		})
	}
}
