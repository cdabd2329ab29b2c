package kdequantile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// TestSmoothedFPRIsAlpha checks the defining equation: the smoothed false-positive rate
// (1/|B0|)·Σσ(v0·(f_j − τ)), summed independently in the test, equals α at the returned τ.
func TestSmoothedFPRIsAlpha(t *testing.T) {
	const tolFPR = 1e-12
	cases := []struct {
		n     int
		alpha float64
		v0    float64
	}{
		{n: 50, alpha: 0.05},
		{n: 50, alpha: 0.999, v0: 0.3},
		{n: 10000, alpha: 0.001},
		{n: 10000, alpha: 1e-6},
		{n: 10000, alpha: 0.999},
		{n: 10000, alpha: 0.5, v0: 100},
		{n: 1 << 20, alpha: 0.001},
		{n: 1 << 20, alpha: 0.05},
		{n: 1 << 20, alpha: 0.999},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("n=%d/alpha=%v/v0=%v", c.n, c.alpha, c.v0), func(t *testing.T) {
			scores, labels := testbatch.Shifted(uint64(300+i), 7, c.n, 0.1, 1.5)
			r := mustEvaluate(t, scores, labels, Config{Alpha: c.alpha, V0: c.v0})
			neg, _ := classes(scores, labels)
			fpr := refFPR(neg, r.V0, r.Tau)
			require.InDelta(t, c.alpha, fpr, tolFPR, "smoothed FPR at τ = %v is %.17g, want α = %v (off by %.2g)", r.Tau, fpr, c.alpha, fpr-c.alpha)
		})
	}
}

// TestSolverPasses checks the solver's speed on ordinary batches: at most three passes over
// the negatives from the empirical quantile (two on most).
func TestSolverPasses(t *testing.T) {
	total, count := 0, 0
	for _, n := range []int{1000, 16384, 262144} {
		for _, alpha := range []float64{0.01, 0.05, 0.5, 0.99} {
			scores, labels := testbatch.Shifted(uint64(n), 7, n, 0.1, 1.5)
			p, err := newProblem(scores, labels, Config{Alpha: alpha})
			require.NoError(t, err)
			cold := p.solve()
			require.LessOrEqual(t, cold.passes, 3, "n=%d α=%v: %d passes", n, alpha, cold.passes)
			total += cold.passes
			count++
			p.release()
		}
	}
	mean := float64(total) / float64(count)
	require.LessOrEqual(t, mean, 2.2, "%.2f passes on average, want about 2", mean)
}

// TestSolverFallsBackToBisection solves a batch on which Newton steps crawl: negatives at 0
// and 1000 with v0 = 1 and α = 1/2, whose root τ = 500 (by symmetry) is 500 kernel widths
// from the starting quantile 0, where φ is flat to e^{−500}.
func TestSolverFallsBackToBisection(t *testing.T) {
	p, err := newProblem([]float64{0, 1000, 0}, []float64{0, 0, 1}, Config{Alpha: 0.5, V0: 1, V1: 1})
	require.NoError(t, err)
	defer p.release()
	r := p.solve()
	require.InDelta(t, 500, r.tau, 1e-12, "τ = %.17g after %d passes, want 500", r.tau, r.passes)
	require.LessOrEqual(t, r.passes, 100, "τ = %.17g after %d passes, want 500", r.tau, r.passes)
	t.Logf("%d passes", r.passes)
}

func TestSelectK(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := map[string][]float64{"one": {3}, "two": {2, 1}}
	for _, n := range []int{10, 700, 5000, 100000} {
		random, ties, sorted := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			random[i] = rng.NormFloat64()
			ties[i] = float64(rng.IntN(3))
			sorted[i] = float64(i)
		}
		inputs[fmt.Sprint("random", n)] = random
		inputs[fmt.Sprint("ties", n)] = ties
		inputs[fmt.Sprint("sorted", n)] = sorted
		reversed := slices.Clone(sorted)
		slices.Reverse(reversed)
		inputs[fmt.Sprint("reversed", n)] = reversed
		inputs[fmt.Sprint("constant", n)] = make([]float64, n)
	}
	for name, in := range inputs {
		want := slices.Sorted(slices.Values(in))
		for _, k := range []int{0, len(in) / 3, len(in) / 2, len(in) * 19 / 20, len(in) - 1} {
			a := slices.Clone(in)
			selectK(a, k)
			require.Equal(t, want[k], a[k], "%s: k=%d gives %v, want %v", name, k, a[k], want[k])
			for i := range a {
				require.False(t, i < k && a[i] > a[k], "%s: k=%d: a[%d] = %v on the wrong side of %v", name, k, i, a[i], a[k])
				require.False(t, i > k && a[i] < a[k], "%s: k=%d: a[%d] = %v on the wrong side of %v", name, k, i, a[i], a[k])
			}
		}
	}
}

func TestMidpoint(t *testing.T) {
	brackets := [][2]float64{{0, 1}, {-1, 1}, {1, 2}, {-1e300, 1e300}, {0, 1e-300}, {-5e-324, 0},
		{1e-300, 1e300}, {-1e300, -1e-300}, {1, math.Nextafter(1, 2)}, {math.SmallestNonzeroFloat64, 1}}
	for _, b := range brackets {
		lo, hi := b[0], b[1]
		steps := 0
		for ; ; steps++ {
			m := midpoint(lo, hi)
			if m == lo || m == hi {
				require.Equal(t, hi, math.Nextafter(lo, hi), "%v: midpoint(%v, %v) = %v but they are not adjacent", b, lo, hi, m)
				break
			}
			require.Greater(t, m, lo, "%v: midpoint(%v, %v) = %v is outside", b, lo, hi, m)
			require.Less(t, m, hi, "%v: midpoint(%v, %v) = %v is outside", b, lo, hi, m)
			// Keep the half that holds 1/3 (or the end nearest it), as a solver would.
			if m < 1.0/3 {
				lo = m
			} else {
				hi = m
			}
		}
		require.LessOrEqual(t, steps, 64, "%v: %d halvings to reach adjacent floats", b, steps)
	}
}
