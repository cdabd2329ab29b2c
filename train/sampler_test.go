package train

import (
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops/data"
	"github.com/stretchr/testify/require"
)

// strataOf returns ds.Strata(), failing t on an error.
func strataOf(t testing.TB, ds *data.Dataset) data.Strata {
	t.Helper()
	s, err := ds.Strata()
	require.NoError(t, err)
	return s
}

func TestBatchComposition(t *testing.T) {
	cases := []struct {
		name       string
		b          int
		frac, p    float64
		nPos, nNeg int
	}{
		{"data fraction", 100, 0, 0.1, 10, 90},
		{"requested fraction", 100, 0.5, 0.1, 50, 50},
		{"rare class still present", 64, 0, 0.001, 1, 63},
		{"rounding 0.375·64 = 24", 64, 0, 0.375, 24, 40},
		{"at least one negative", 8, 0.99, 0.5, 7, 1},
		{"two rows", 2, 0, 0.5, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, n := batchComposition(c.b, c.frac, c.p)
			require.Equal(t, c.nPos, p)
			require.Equal(t, c.nNeg, n)
		})
	}
}

// Every row of a class is visited once before any is visited twice, positives are
// oversampled when rare, and the same seed gives the same batches.
func TestSamplerCoversAndOversamples(t *testing.T) {
	labels := make([]float64, 100)
	for i := 0; i < 5; i++ {
		labels[i*20] = 1 // 5 positives, 95 negatives
	}
	draw := func(seed uint64) [][]int {
		s := newSampler(strataOf(t, &data.Dataset{Y: labels, Rows: len(labels)}), 4, 12, rand.New(rand.NewPCG(seed, 1)))
		var out [][]int
		for range 10 {
			b := make([]int, 16)
			s.next(b)
			out = append(out, b)
		}
		return out
	}
	batches := draw(7)
	require.Equal(t, batches, draw(7))
	require.NotEqual(t, batches, draw(8))

	seenNeg := map[int]int{}
	posCount := map[int]int{}
	for bi, b := range batches {
		for k, r := range b {
			if k < 4 {
				require.Equal(t, 1.0, labels[r], "batch %d slot %d", bi, k)
				posCount[r]++
			} else {
				require.Equal(t, 0.0, labels[r], "batch %d slot %d", bi, k)
				seenNeg[r]++
			}
		}
	}
	// 10 batches × 12 = 120 negative draws over 95 rows: the first full pass visits all 95
	// once, the next 25 draws start a second pass, so every row is drawn once or twice.
	require.Len(t, seenNeg, 95)
	twice := 0
	for _, c := range seenNeg {
		require.LessOrEqual(t, c, 2)
		if c == 2 {
			twice++
		}
	}
	require.Equal(t, 25, twice)
	// 40 positive draws over 5 rows: 8 full passes, each row exactly 8 times.
	for r, c := range posCount {
		require.Equal(t, 8, c, "positive row %d", r)
	}
}
