package data

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// randomDataset returns rows rows of cols features on several scales with 20% positives.
func randomDataset(t testing.TB, rows, cols int, seed uint64) *Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	x, y := make([]float64, rows*cols), make([]float64, rows)
	for i := range x {
		x[i] = rng.NormFloat64() * float64(1+i%cols*10)
	}
	for i := range y {
		if rng.Float64() < 0.2 {
			y[i] = 1
		}
	}
	ds, err := New(x, y, cols)
	require.NoError(t, err)
	return ds
}

// refSplit is the split of Split computed the plain way: the rows of each class listed,
// shuffled, and dealt to the parts in turn, each part then sorted.
func refSplit(ds *Dataset, cfg SplitConfig) [3][]int {
	fr, _ := cfg.fractions()
	var byClass [2][]int
	for i, y := range ds.Y {
		byClass[int(y)] = append(byClass[int(y)], i)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, splitStream))
	var parts [3][]int
	for _, rows := range byClass {
		rng.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		for k, n := range apportion(len(rows), fr) {
			parts[k] = append(parts[k], rows[:n]...)
			rows = rows[n:]
		}
	}
	for _, p := range parts {
		slices.Sort(p)
	}
	return parts
}

func TestSplitOrder(t *testing.T) {
	for seed := range uint64(20) {
		ds := randomDataset(t, 3+int(seed)*37, 1, seed)
		cfg := SplitConfig{Seed: seed}
		if seed%2 == 1 {
			cfg = SplitConfig{Seed: seed, Train: 0.7, Validation: 0.1, Test: 0.2}
		}
		if p := ds.Positives(); p < 3 || ds.Rows-p < 3 {
			continue
		}
		order, sizes, err := splitOrder(ds, cfg)
		require.NoError(t, err)
		want := refSplit(ds, cfg)
		for k, n := range sizes {
			require.Equal(t, want[k], order[:n], "seed %d, part %d", seed, k)
			order = order[n:]
		}
	}
}

// TestSplitStandardizedInPlace: the in-place preparation gives, bit for bit, the parts and
// standardizer of Split, FitStandardizer and Apply, as views of the input's memory, and the
// copying SplitStandardized leaves its input unchanged.
func TestSplitStandardizedInPlace(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		seed       uint64
	}{{10, 1, 1}, {257, 3, 2}, {5000, 7, 3}} {
		ds := randomDataset(t, c.rows, c.cols, c.seed)
		cfg := SplitConfig{Seed: c.seed, Train: 0.5, Validation: 0.3, Test: 0.2}
		// The reference: copies at every stage.
		p0, p1, p2, err := Split(ds, cfg)
		require.NoError(t, err)
		wantSt, err := FitStandardizer(p0)
		require.NoError(t, err)
		var want []*Dataset
		for _, p := range []*Dataset{p0, p1, p2} {
			q, err := wantSt.Apply(p)
			require.NoError(t, err)
			want = append(want, q)
		}

		before := slices.Clone(ds.X)
		a, b, cc, st, err := SplitStandardized(ds, cfg)
		require.NoError(t, err)
		require.Equal(t, before, ds.X, "SplitStandardized changed its input")
		require.Equal(t, wantSt, st)
		for k, p := range []*Dataset{a, b, cc} {
			requireSameBits(t, want[k], p)
		}

		tr, val, test, st, err := SplitStandardizedInPlace(ds, cfg)
		require.NoError(t, err)
		require.Equal(t, wantSt, st)
		for k, p := range []*Dataset{tr, val, test} {
			requireSameBits(t, want[k], p)
		}
		require.Equal(t, c.rows, tr.Rows+val.Rows+test.Rows)
		// Views: the parts are consecutive pieces of ds.X, capped.
		require.Same(t, &ds.X[0], &tr.X[0])
		require.Same(t, &ds.X[tr.Rows*c.cols], &val.X[0])
		require.Same(t, &ds.X[(tr.Rows+val.Rows)*c.cols], &test.X[0])
		require.Equal(t, len(tr.X), cap(tr.X))
		require.Equal(t, slices.Concat(tr.Y, val.Y, test.Y), ds.Y)
	}
}

func BenchmarkSplitStandardized(b *testing.B) {
	for _, rows := range []int{10_000, 100_000} {
		ds := randomDataset(b, rows, 30, 1)
		b.Run("copy/rows="+strconv.Itoa(rows), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, _, err := SplitStandardized(ds, SplitConfig{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("inplace/rows="+strconv.Itoa(rows), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cp := *ds
				b.StopTimer()
				cp.X, cp.Y = slices.Clone(ds.X), slices.Clone(ds.Y)
				b.StartTimer()
				if _, _, _, _, err := SplitStandardizedInPlace(&cp, SplitConfig{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
