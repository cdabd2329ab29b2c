package data

import (
	"fmt"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// indexedDataset has rows labelled by the pattern labels and a single feature holding the
// row's index, so that a split can be traced back to the original rows.
func indexedDataset(t *testing.T, labels []float64) *Dataset {
	t.Helper()
	x := make([]float64, len(labels))
	for i := range x {
		x[i] = float64(i)
	}
	ds, err := New(x, labels, 1)
	require.NoError(t, err)
	return ds
}

func TestApportion(t *testing.T) {
	// Cumulative rounding by hand: boundaries round(n·0.6) and round(n·0.8).
	cases := []struct {
		n    int
		fr   [3]float64
		want [3]int
	}{
		{10, [3]float64{0.6, 0.2, 0.2}, [3]int{6, 2, 2}},
		{7, [3]float64{0.6, 0.2, 0.2}, [3]int{4, 2, 1}},       // round(4.2) = 4, round(5.6) = 6
		{357, [3]float64{0.6, 0.2, 0.2}, [3]int{214, 72, 71}}, // round(214.2), round(285.6) = 286
		{212, [3]float64{0.6, 0.2, 0.2}, [3]int{127, 43, 42}}, // round(127.2), round(169.6) = 170
		{3, [3]float64{0.6, 0.2, 0.2}, [3]int{1, 1, 1}},       // 2, 0, 1, then one moved to the empty part
		{4, [3]float64{0.8, 0.1, 0.1}, [3]int{2, 1, 1}},       // 3, 0, 1 → 2, 1, 1
		{20, [3]float64{0.7, 0.2, 0.1}, [3]int{14, 4, 2}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, apportion(c.n, c.fr), "n=%d fractions %v", c.n, c.fr)
	}
}

func TestSplitWDBC(t *testing.T) {
	ds, err := WDBC()
	require.NoError(t, err)
	train, val, test, err := Split(ds, SplitConfig{Seed: 1})
	require.NoError(t, err)
	// Default fractions 0.6/0.2/0.2 per class (TestApportion): negatives 214/72/71 and
	// positives 127/43/42.
	for _, c := range []struct {
		name      string
		part      *Dataset
		rows, pos int
	}{{"train", train, 341, 127}, {"validation", val, 115, 43}, {"test", test, 113, 42}} {
		require.Equal(t, c.rows, c.part.Rows, c.name)
		require.Equal(t, c.pos, c.part.Positives(), c.name)
		require.Equal(t, ds.Cols, c.part.Cols, c.name)
		require.Equal(t, ds.FeatureNames, c.part.FeatureNames, c.name)
		require.NoError(t, c.part.Validate(), c.name)
	}
}

func TestSplitPartition(t *testing.T) {
	// 200 rows, 30 positives, scattered.
	labels := make([]float64, 200)
	for i := 3; i < 200; i += 7 {
		if i/7 < 30 {
			labels[i] = 1
		}
	}
	ds := indexedDataset(t, labels)
	const tolRatio = 1.0 / 40 // a part's positive share may be off by one positive in a part of ≥ 40 rows
	cfg := SplitConfig{Train: 0.6, Validation: 0.2, Test: 0.2, Seed: 42}
	train, val, test, err := Split(ds, cfg)
	require.NoError(t, err)

	seen := make(map[float64]string)
	for name, part := range map[string]*Dataset{"train": train, "validation": val, "test": test} {
		require.InDelta(t, 30.0/200, float64(part.Positives())/float64(part.Rows), tolRatio, name)
		for i := range part.Rows {
			orig := part.Row(i)[0]
			require.NotContains(t, seen, orig, "row %v is in %s and %s", orig, seen[orig], name)
			seen[orig] = name
			require.Equal(t, labels[int(orig)], part.Y[i], "label travels with its row")
			if i > 0 {
				require.Less(t, part.Row(i - 1)[0], orig, "rows keep their order")
			}
		}
	}
	require.Len(t, seen, 200, "the parts cover the dataset")

	// Determinism: the same seed gives the same parts, another seed other parts.
	train2, val2, test2, err := Split(ds, cfg)
	require.NoError(t, err)
	require.Equal(t, [3]*Dataset{train, val, test}, [3]*Dataset{train2, val2, test2})
	cfg.Seed = 43
	train3, _, _, err := Split(ds, cfg)
	require.NoError(t, err)
	require.NotEqual(t, train.X, train3.X)
}

func TestSplitSmallClass(t *testing.T) {
	// Three positives among 50 rows: one in each part.
	labels := make([]float64, 50)
	labels[5], labels[17], labels[40] = 1, 1, 1
	for seed := range uint64(20) {
		parts := make([]*Dataset, 3)
		var err error
		parts[0], parts[1], parts[2], err = Split(indexedDataset(t, labels), SplitConfig{Seed: seed})
		require.NoError(t, err)
		for k, p := range parts {
			require.Equal(t, 1, p.Positives(), "seed %d part %d", seed, k)
		}
	}

	labels[40] = 0
	_, _, _, err := Split(indexedDataset(t, labels), SplitConfig{})
	require.ErrorIs(t, err, ErrClassTooSmall)
	require.EqualError(t, err, "data: class too small to split: class 1 has 2 rows, need one in each of the 3 parts")
}

func TestSplitErrors(t *testing.T) {
	ds := indexedDataset(t, []float64{0, 1, 0, 1, 0, 1, 0, 1})
	for _, cfg := range []SplitConfig{
		{Train: 0.8, Test: 0.2},                  // a zero part
		{Train: 0.6, Validation: 0.2, Test: 0.3}, // sums to 1.1
		{Train: 1.2, Validation: -0.1, Test: -0.1},
	} {
		t.Run(fmt.Sprint(cfg), func(t *testing.T) {
			_, _, _, err := Split(ds, cfg)
			require.ErrorIs(t, err, rocops.ErrConfig)
		})
	}
	_, _, _, err := Split(nil, SplitConfig{})
	require.ErrorIs(t, err, ErrShape)
	ds.Y[0] = 3
	_, _, _, err = Split(ds, SplitConfig{})
	require.ErrorIs(t, err, rocops.ErrLabel)
}
