package data

import (
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// TestMulticlassDataset: a dataset with Classes holds class indices in Y, one per row; a
// dataset with Labels a Rows×k indicator. Validate, Subset and Standardizer.Apply keep them.
func TestMulticlassDataset(t *testing.T) {
	mc := &Dataset{X: []float64{1, 2, 3, 4}, Y: []float64{0, 2, 1, 2}, Rows: 4, Cols: 1,
		FeatureNames: []string{"x"}, Classes: []string{"a", "b", "c"}}
	require.NoError(t, mc.Validate())
	require.Equal(t, rocops.Classes(3), mc.Task())
	require.Equal(t, 1, mc.Task().LabelsPerRow())
	require.Equal(t, 3, mc.Task().K())
	sub, err := mc.Subset([]int{3, 0})
	require.NoError(t, err)
	require.Equal(t, []float64{2, 0}, sub.Y)
	require.Equal(t, mc.Classes, sub.Classes)

	ml := &Dataset{X: []float64{1, 2, 3}, Y: []float64{0, 1, 1, 1, 0, 0}, Rows: 3, Cols: 1,
		FeatureNames: []string{"x"}, Labels: []string{"p", "q"}}
	require.NoError(t, ml.Validate())
	require.Equal(t, rocops.Labels(2), ml.Task())
	require.Equal(t, 2, ml.Task().LabelsPerRow())
	require.Equal(t, 2, ml.Task().K())
	sub, err = ml.Subset([]int{2, 0, 2})
	require.NoError(t, err)
	require.Equal(t, []float64{0, 0, 0, 1, 0, 0}, sub.Y)
	require.Equal(t, []float64{3, 1, 3}, sub.X)
	require.Equal(t, ml.Labels, sub.Labels)
	st, err := FitStandardizer(ml)
	require.NoError(t, err)
	std, err := st.Apply(ml)
	require.NoError(t, err)
	require.Equal(t, ml.Labels, std.Labels)
	require.Equal(t, ml.Y, std.Y)

	bad := []struct {
		name string
		edit func(mc, ml *Dataset) *Dataset
		want error
	}{
		{"class index ≥ k", func(mc, _ *Dataset) *Dataset { mc.Y[1] = 3; return mc }, rocops.ErrLabel},
		{"fractional class index", func(mc, _ *Dataset) *Dataset { mc.Y[1] = 1.5; return mc }, rocops.ErrLabel},
		{"negative class index", func(mc, _ *Dataset) *Dataset { mc.Y[1] = -1; return mc }, rocops.ErrLabel},
		{"one class", func(mc, _ *Dataset) *Dataset { mc.Classes = []string{"a"}; return mc }, ErrShape},
		{"multi-label label 2", func(_, ml *Dataset) *Dataset { ml.Y[3] = 2; return ml }, rocops.ErrLabel},
		{"multi-label Y not rows×k", func(_, ml *Dataset) *Dataset { ml.Y = ml.Y[:5]; return ml }, ErrShape},
		{"both", func(mc, _ *Dataset) *Dataset { mc.Labels = []string{"p"}; return mc }, ErrShape},
		{"empty Labels", func(_, ml *Dataset) *Dataset { ml.Labels = []string{}; return ml }, ErrShape},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			a, b := *mc, *ml
			a.Y, b.Y = append([]float64(nil), mc.Y...), append([]float64(nil), ml.Y...)
			require.ErrorIs(t, c.edit(&a, &b).Validate(), c.want)
		})
	}
}
