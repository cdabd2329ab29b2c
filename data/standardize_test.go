package data

import (
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// tolMoment bounds the rounding of a mean or standard deviation over a few hundred
// standardised values of order 1.
const tolMoment = 1e-12

// columnMoments returns the mean and population standard deviation of column j, computed
// the textbook way as an independent reference.
func columnMoments(ds *Dataset, j int) (mean, std float64) {
	for i := range ds.Rows {
		mean += ds.X[i*ds.Cols+j]
	}
	mean /= float64(ds.Rows)
	for i := range ds.Rows {
		d := ds.X[i*ds.Cols+j] - mean
		std += d * d
	}
	return mean, math.Sqrt(std / float64(ds.Rows))
}

func TestStandardizerHandWorked(t *testing.T) {
	// Column 1: 1, 2, 3, 4 → mean 2.5, population variance (2.25 + .25 + .25 + 2.25)/4 =
	// 1.25. Column 2 is constant 7 → mean 7, std 1, all values map to 0.
	ds, err := New([]float64{1, 7, 2, 7, 3, 7, 4, 7}, []float64{0, 1, 0, 1}, 2)
	require.NoError(t, err)
	s, err := FitStandardizer(ds)
	require.NoError(t, err)
	require.InDeltaSlice(t, []float64{2.5, 7}, s.Mean, tolMoment)
	require.InDeltaSlice(t, []float64{math.Sqrt(1.25), 1}, s.Std, tolMoment)

	got, err := s.Apply(ds)
	require.NoError(t, err)
	r := math.Sqrt(1.25)
	require.InDeltaSlice(t, []float64{-1.5 / r, 0, -0.5 / r, 0, 0.5 / r, 0, 1.5 / r, 0}, got.X, tolMoment)
	require.Equal(t, []float64{1, 7, 2, 7, 3, 7, 4, 7}, ds.X, "Apply leaves its input alone")

	row, err := s.Transform([]float64{5, 9})
	require.NoError(t, err)
	require.InDeltaSlice(t, []float64{2.5 / r, 2}, row, tolMoment)

	_, err = s.Transform([]float64{1})
	require.ErrorIs(t, err, ErrShape)
	three, err := New([]float64{1, 2, 3}, []float64{0}, 3)
	require.NoError(t, err)
	_, err = s.Apply(three)
	require.ErrorIs(t, err, ErrShape)
	_, err = FitStandardizer(&Dataset{Cols: 2, FeatureNames: []string{"a", "b"}})
	require.ErrorIs(t, err, rocops.ErrEmpty)
}

// TestStandardizerTrainOnly fits on the training part of WDBC: the standardised training
// features have mean 0 and standard deviation 1, and the test part is transformed with the
// training statistics, not its own.
func TestStandardizerTrainOnly(t *testing.T) {
	ds, err := WDBC()
	require.NoError(t, err)
	train, _, test, err := Split(ds, SplitConfig{Seed: 3})
	require.NoError(t, err)
	s, err := FitStandardizer(train)
	require.NoError(t, err)
	strain, err := s.Apply(train)
	require.NoError(t, err)
	stest, err := s.Apply(test)
	require.NoError(t, err)

	for j := range ds.Cols {
		mean, std := columnMoments(strain, j)
		require.InDelta(t, 0, mean, tolMoment, "train mean of %s", ds.FeatureNames[j])
		require.InDelta(t, 1, std, tolMoment, "train std of %s", ds.FeatureNames[j])

		trainMean, trainStd := columnMoments(train, j)
		for i := range test.Rows {
			want := (test.Row(i)[j] - trainMean) / trainStd
			require.InDelta(t, want, stest.Row(i)[j], tolMoment)
		}
	}
	// With train statistics the test part is not exactly centred (it would be if the
	// standardizer had been refitted on it).
	mean, _ := columnMoments(stest, 0)
	require.Greater(t, math.Abs(mean), 1e-6)
}

// SplitStandardized is Split, FitStandardizer on the training part and Apply to all three,
// to the bit, and passes on Split's errors.
func TestSplitStandardized(t *testing.T) {
	ds, err := WDBC()
	require.NoError(t, err)
	cfg := SplitConfig{Seed: 5}
	tr, val, te, st, err := SplitStandardized(ds, cfg)
	require.NoError(t, err)
	a, b, c, err := Split(ds, cfg)
	require.NoError(t, err)
	want, err := FitStandardizer(a)
	require.NoError(t, err)
	require.Equal(t, want, st)
	for i, pair := range [][2]*Dataset{{tr, a}, {val, b}, {te, c}} {
		applied, err := want.Apply(pair[1])
		require.NoError(t, err)
		require.Equal(t, applied, pair[0], "part %d", i)
	}
	_, _, _, _, err = SplitStandardized(ds, SplitConfig{Train: 0.5, Validation: 0.6, Test: 0.1})
	require.ErrorIs(t, err, rocops.ErrConfig)
}
