package data

import (
	"fmt"
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

func TestNew(t *testing.T) {
	ds, err := New([]float64{1, 2, 3, 4, 5, 6}, []float64{0, 1, 1}, 2)
	require.NoError(t, err)
	require.Equal(t, 3, ds.Rows)
	require.Equal(t, []string{"x1", "x2"}, ds.FeatureNames)
	require.Equal(t, "y", ds.LabelName)
	require.Equal(t, []float64{3, 4}, ds.Row(1))
	require.Equal(t, 2, ds.Positives())

	bad := []struct {
		name string
		x, y []float64
		cols int
		want error
	}{
		{"x not rows×cols", []float64{1, 2, 3}, []float64{0, 1}, 2, ErrShape},
		{"no features", nil, []float64{0, 1}, 0, ErrShape},
		{"NaN feature", []float64{1, math.NaN()}, []float64{0, 1}, 1, ErrNotNumber},
		{"infinite feature", []float64{math.Inf(-1), 1}, []float64{0, 1}, 1, ErrNotNumber},
		{"label 2", []float64{1, 2}, []float64{0, 2}, 1, rocops.ErrLabel},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.x, c.y, c.cols)
			require.ErrorIs(t, err, c.want)
		})
	}
	var nilDS *Dataset
	require.ErrorIs(t, nilDS.Validate(), ErrShape)
}

func TestRowIsCapped(t *testing.T) {
	ds, err := New([]float64{1, 2, 3, 4}, []float64{0, 1}, 2)
	require.NoError(t, err)
	_ = append(ds.Row(0), 99)
	require.Equal(t, []float64{1, 2, 3, 4}, ds.X, "appending to a row must not overwrite the next")
}

func TestSubset(t *testing.T) {
	ds, err := New([]float64{1, 2, 3, 4, 5, 6}, []float64{0, 1, 1}, 2)
	require.NoError(t, err)
	sub, err := ds.Subset([]int{2, 0, 2})
	require.NoError(t, err)
	require.Equal(t, []float64{5, 6, 1, 2, 5, 6}, sub.X)
	require.Equal(t, []float64{1, 0, 1}, sub.Y)
	require.Equal(t, 3, sub.Rows)

	sub.X[0], sub.FeatureNames[0] = -1, "renamed"
	require.Equal(t, 5.0, ds.X[4], "a subset copies the features")
	require.Equal(t, "x1", ds.FeatureNames[0], "a subset copies the names")

	for _, idx := range [][]int{{3}, {-1}} {
		_, err = ds.Subset(idx)
		require.ErrorIs(t, err, ErrShape)
	}
}

// BenchmarkValidate checks n rows × 30 finite features and their 0/1 labels.
func BenchmarkValidate(b *testing.B) {
	const n, cols = 1 << 20, 30
	x, y := make([]float64, n*cols), make([]float64, n)
	for i := range x {
		x[i] = math.Sin(float64(i))
	}
	for i := range y {
		y[i] = float64(i % 2)
	}
	ds, err := New(x, y, cols)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(8 * (len(x) + len(y))))
		for b.Loop() {
			if err := ds.Validate(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
