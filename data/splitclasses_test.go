package data

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// multiclassData returns a dataset of the given class sizes, rows of classes interleaved at
// random, feature 0 the row number and feature 1 noise.
func multiclassData(t *testing.T, sizes []int, seed uint64) *Dataset {
	t.Helper()
	var y []float64
	for c, n := range sizes {
		for range n {
			y = append(y, float64(c))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
	ds := &Dataset{Y: y, Rows: len(y), Cols: 2, FeatureNames: []string{"row", "noise"}, LabelName: "class",
		Classes: []string{"a", "b", "c", "d"}[:len(sizes)]}
	for i := range y {
		ds.X = append(ds.X, float64(i), rng.NormFloat64())
	}
	require.NoError(t, ds.Validate())
	return ds
}

// TestSplitMulticlass: a multi-class Split covers the rows once, keeps each part's rows in
// order, gives every part every class, each class's count in each part the apportioned share
// of its rows (within one of n_c·fraction for the larger classes, at least one), keeps the
// class names, and is a
// function of the seed; SplitStandardizedInPlace gives SplitStandardized's parts.
func TestSplitMulticlass(t *testing.T) {
	sizes := []int{50, 20, 5, 3}
	ds := multiclassData(t, sizes, 1)
	cfg := SplitConfig{Train: 0.7, Validation: 0.2, Test: 0.1, Seed: 3}
	tr, val, te, err := Split(ds, cfg)
	require.NoError(t, err)
	seen := map[float64]bool{}
	for p, part := range []*Dataset{tr, val, te} {
		require.Equal(t, ds.Classes, part.Classes)
		require.NoError(t, part.Validate())
		counts := make([]int, len(sizes))
		for i := range part.Rows {
			r := part.X[i*2]
			require.False(t, seen[r], "row %v in two parts", r)
			seen[r] = true
			require.Equal(t, ds.Y[int(r)], part.Y[i])
			if i > 0 {
				require.Less(t, part.X[(i-1)*2], r, "part %d keeps the rows' order", p)
			}
			counts[int(part.Y[i])]++
		}
		for c, n := range sizes {
			// Within one of the share n_c·fraction, as Split's binary classes, except for the
			// rows moved so that no part lacks a class: class d's 3 rows go one to each part.
			share := float64(n) * [3]float64{0.7, 0.2, 0.1}[p]
			require.GreaterOrEqual(t, counts[c], 1, "part %d class %d", p, c)
			require.Equal(t, apportion(n, [3]float64{0.7, 0.2, 0.1})[p], counts[c], "part %d class %d", p, c)
			if n >= 10 {
				require.LessOrEqual(t, math.Abs(float64(counts[c])-share), 1+1e-9, "part %d class %d: %d rows for a share %v", p, c, counts[c], share)
			}
		}
	}
	require.Len(t, seen, ds.Rows)

	tr2, _, _, err := Split(ds, cfg)
	require.NoError(t, err)
	require.Equal(t, tr.X, tr2.X)
	cfg.Seed++
	tr3, _, _, err := Split(ds, cfg)
	require.NoError(t, err)
	require.NotEqual(t, tr.X, tr3.X)

	a, b, c, _, err := SplitStandardized(ds, cfg)
	require.NoError(t, err)
	cp := *ds
	cp.X, cp.Y = slices.Clone(ds.X), slices.Clone(ds.Y)
	a2, b2, c2, _, err := SplitStandardizedInPlace(&cp, cfg)
	require.NoError(t, err)
	for i, pair := range [][2]*Dataset{{a, a2}, {b, b2}, {c, c2}} {
		require.Equal(t, pair[0].X, pair[1].X, "part %d", i)
		require.Equal(t, pair[0].Y, pair[1].Y, "part %d", i)
		require.Equal(t, pair[0].Classes, pair[1].Classes, "part %d", i)
	}
}

// TestSplitMulticlassErrors: a class of two rows and a label outside the classes are refused;
// so are a multi-label dataset too small for two strata of three rows and one with a label
// other than 0 or 1 (multi-label data are split since Split stratifies by Strata).
func TestSplitMulticlassErrors(t *testing.T) {
	ds := multiclassData(t, []int{10, 10, 2}, 1)
	_, _, _, err := Split(ds, SplitConfig{})
	require.ErrorIs(t, err, ErrClassTooSmall)
	require.ErrorContains(t, err, `class "c" has 2 rows`)

	ds = multiclassData(t, []int{10, 10, 10}, 1)
	ds.Y[4] = 3
	_, _, _, err = Split(ds, SplitConfig{})
	require.ErrorIs(t, err, rocops.ErrLabel)

	ml := &Dataset{X: []float64{1, 2, 3}, Y: []float64{0, 1, 1, 0, 0, 1}, Rows: 3, Cols: 1,
		FeatureNames: []string{"x"}, Labels: []string{"p", "q"}}
	_, _, _, err = Split(ml, SplitConfig{})
	require.ErrorIs(t, err, ErrClassTooSmall)
	require.ErrorContains(t, err, "the 3 rows' label sets give 1 strata of at least 3 rows")
	ml.Y[3] = 2
	_, _, _, err = Split(ml, SplitConfig{})
	require.ErrorIs(t, err, rocops.ErrLabel)
	require.ErrorContains(t, err, `row 1, label "q" is 2`)
}
