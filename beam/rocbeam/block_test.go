package rocbeam

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/metrics"
)

// The order key sorts as the scores do, −0 and +0 alike, and so do the buckets.
func TestOrderKey(t *testing.T) {
	xs := []float64{-math.MaxFloat64, -1e300, -3, -1, -0.5, -math.SmallestNonzeroFloat64, math.Copysign(0, -1), 0,
		math.SmallestNonzeroFloat64, 1e-300, 0.25, 0.5, 0.5000001, 0.75, 1, 2, 1e300, math.MaxFloat64}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		xs = append(xs, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)))
	}
	slices.Sort(xs)
	for i := 1; i < len(xs); i++ {
		a, b := xs[i-1], xs[i]
		if a == b {
			require.Equal(t, orderKey(a), orderKey(b), "%v and %v", a, b)
			continue
		}
		require.Less(t, orderKey(a), orderKey(b), "%v < %v", a, b)
		require.LessOrEqual(t, bucket(a), bucket(b), "%v < %v", a, b)
	}
	require.Equal(t, orderKey(0), orderKey(math.Copysign(0, -1)))
	require.NotEqual(t, bucket(0.5), bucket(0.99), "a binade spreads over several buckets")
}

// Counting rows in chunks (the bundles), flushing often, and merging the blocks of each bucket
// in a random order gives the counts of all rows at once.
func TestTallyAndMerge(t *testing.T) {
	defer func(m int) { maxTally = m }(maxTally)
	maxTally = 5
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 5000
	scores, labels := problem(rng, n, 0.3, 40)
	for i := range 200 { // some continuous scores and a few −0 among the ties
		scores[i] = rng.NormFloat64()
	}
	scores[300], scores[301] = math.Copysign(0, -1), 0
	byBucket := map[int64][]Block{}
	for lo := 0; lo < n; {
		hi := min(n, lo+1+rng.IntN(700))
		var tl tally
		emit := func(k int64, b Block) {
			require.True(t, slices.IsSorted(b.Scores))
			for _, x := range b.Scores {
				require.Equal(t, k, bucket(x))
			}
			byBucket[k] = append(byBucket[k], b)
		}
		for i := lo; i < hi; i++ {
			tl.add(scores[i], int(labels[i]))
			if tl.full() {
				tl.flush(emit)
			}
		}
		tl.flush(emit)
		lo = hi
	}
	var merged []Block
	for _, blocks := range byBucket {
		rng.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
		var acc Block
		for _, b := range blocks {
			acc = mergeFn{}.MergeAccumulators(acc, b)
		}
		require.True(t, slices.IsSorted(acc.Scores))
		for i := 1; i < acc.Len(); i++ {
			require.NotEqual(t, acc.Scores[i-1], acc.Scores[i], "merged scores are distinct")
		}
		merged = append(merged, acc)
	}
	got, err := gather(merged)
	require.NoError(t, err)
	direct := make([]metrics.ScoreCount, n)
	for i, x := range scores {
		direct[i] = metrics.ScoreCount{Score: x, Pos: int64(labels[i]), Neg: 1 - int64(labels[i])}
	}
	want, err := metrics.NewCurveFromCounts(direct)
	require.NoError(t, err)
	require.Equal(t, want.Counts(), got.Counts())
}
