package train

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// TestFitRejectsFeaturesBeyondFloat32: training rows are narrowed to the model's dtype; a
// feature a float32 model cannot hold is rocops.ErrRange naming the row, not a batch of ±Inf.
func TestFitRejectsFeaturesBeyondFloat32(t *testing.T) {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Dtype: tensor.Float32})
	require.NoError(t, err)
	x := []float64{0, 1, 2, 3, 1e39, 5, 6, 7}
	ds, err := data.New(x, []float64{0, 1, 0, 1}, 2)
	require.NoError(t, err)
	_, err = fit(t, m, Config{Epochs: 1}, ds, nil)
	require.False(t, !errors.Is(err, rocops.ErrRange) || !strings.Contains(err.Error(), "row 2, feature 0"), "Fit: %v, want rocops.ErrRange naming row 2, feature 0", err)
}

// TestFitChecksTheData: Fit refuses, before training, what Validate refuses — reading the
// features once, in nn.CheckInput, and the labels and shape through data.Dataset.Strata —
// naming the part: a non-finite feature (nn.ErrInput, its row and feature), a label that is
// not 0 or 1 (rocops.ErrLabel), features held twice, feature names of another number and
// labels of another number of rows (data.ErrShape).
func TestFitChecksTheData(t *testing.T) {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2})
	require.NoError(t, err)
	good := func() *data.Dataset {
		ds, err := data.New([]float64{0, 1, 2, 3, 4, 5, 6, 7}, []float64{0, 1, 0, 1}, 2)
		require.NoError(t, err)
		return ds
	}
	for _, c := range []struct {
		name string
		edit func(*data.Dataset)
		want error
		msg  string
	}{
		{"NaN feature", func(ds *data.Dataset) { ds.X[5] = math.NaN() }, nn.ErrInput, "row 2, feature 1 is NaN"},
		{"infinite feature", func(ds *data.Dataset) { ds.X[0] = math.Inf(-1) }, nn.ErrInput, "row 0, feature 0 is -Inf"},
		{"label 2", func(ds *data.Dataset) { ds.Y[3] = 2 }, rocops.ErrLabel, "row 3 has label 2"},
		{"X and X32", func(ds *data.Dataset) { ds.X32 = make([]float32, 8) }, data.ErrShape, "both X and X32"},
		{"names", func(ds *data.Dataset) { ds.FeatureNames = ds.FeatureNames[:1] }, data.ErrShape, "1 feature names"},
		{"labels", func(ds *data.Dataset) { ds.Y = ds.Y[:3] }, data.ErrShape, "3 labels for 4 rows"},
	} {
		for _, part := range []string{"training", "validation"} {
			tr, val := good(), good()
			if part == "training" {
				c.edit(tr)
			} else {
				c.edit(val)
			}
			_, err := fit(t, m, Config{Epochs: 1}, tr, val)
			assert.False(t, !errors.Is(err, c.want) || !strings.Contains(err.Error(), "train: "+part+" data: ") || !strings.Contains(err.Error(), c.msg), "%s in the %s data: %v, want %v saying %q", c.name, part, err, c.want, c.msg)
		}
	}
}
