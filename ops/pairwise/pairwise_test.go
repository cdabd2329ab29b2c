package pairwise

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/floats"
	logisticfn "github.com/rocops/rocops/internal/logistic"
	"github.com/rocops/rocops/internal/testbatch"
)

// tolExact is the relative tolerance of the fast algorithms against the naive loop: both sum
// at most ~4·10⁵ float64 terms, whose rounding stays far below it.
const tolExact = 1e-10

// requireClose asserts |got − want| ≤ tolExact·|want| for the loss and
// |got_k − want_k| ≤ tolExact·max_k |want_k| for every gradient coordinate.
func requireClose(t *testing.T, wantLoss, gotLoss float64, want, got []float64) {
	t.Helper()
	require.InDelta(t, wantLoss, gotLoss, tolExact*math.Abs(wantLoss), "loss")
	scale := 0.0
	for _, g := range want {
		scale = max(scale, math.Abs(g))
	}
	require.Len(t, got, len(want))
	for k := range want {
		require.InDelta(t, want[k], got[k], tolExact*scale, "gradient[%d]", k)
	}
}

type dataset struct {
	name string
	f, y []float64
}

func datasets() []dataset {
	var ds []dataset
	f, y := testbatch.Shifted(1, 7, 200, 0.3, 0.5)
	ds = append(ds, dataset{"random", f, y})
	f, y = testbatch.Shifted(2, 7, 97, 0.05, 1)
	ds = append(ds, dataset{"imbalanced", f, y})
	f, y = testbatch.Shifted(3, 7, 150, 0.5, 0)
	for k := range f {
		f[k] += 1e4 // far from zero: the gaps are much smaller than the scores
	}
	ds = append(ds, dataset{"offset", f, y})
	// Ties: scores on a grid of quarters, so that many pairs sit exactly at x = m for every
	// margin tested (all exact in binary) and many scores tie within and across classes.
	r := rand.New(rand.NewPCG(4, 7))
	f, y = make([]float64, 120), make([]float64, 120)
	for k := range f {
		f[k] = float64(r.IntN(13)-6) / 4
		y[k] = float64(k % 3 % 2)
	}
	ds = append(ds, dataset{"ties", f, y})
	// Every pair exactly at the kink of margin 1 or 2 apart from it: x ∈ {0, 1, 2}.
	ds = append(ds, dataset{"kink", []float64{1.25, 0.25, 2.25, 1.25, 0.25}, []float64{1, 0, 1, 0, 0}})
	// −0 and +0 tie: with m = 1 the negative's g = −1 + 1 = +0 equals the positive's −0.
	ds = append(ds, dataset{"signed zero", []float64{math.Copysign(0, -1), -1, 3}, []float64{1, 0, 0}})
	ds = append(ds, dataset{"one pair", []float64{-0.3, 0.4}, []float64{1, 0}})
	return ds
}

// TestAllPairsMatchesNaive checks every surrogate's exact algorithm, value and gradient,
// against the naive double loop.
func TestAllPairsMatchesNaive(t *testing.T) {
	for _, d := range datasets() {
		for _, s := range Surrogates() {
			for _, margin := range []float64{0, 0.5, 2} {
				t.Run(fmt.Sprintf("%s/%v/margin=%v", d.name, s, margin), func(t *testing.T) {
					m := margin
					if m == 0 {
						m = 1 // the documented default
					}
					wantLoss, want := naive(s, m, d.f, d.y)
					cfg := Config{Surrogate: s, Margin: margin}
					grad, loss, err := Gradient(d.f, d.y, cfg)
					require.NoError(t, err)
					requireClose(t, wantLoss, loss, want, grad)
					value, err := Evaluate(d.f, d.y, cfg)
					require.NoError(t, err)
					require.Equal(t, loss, value, "Evaluate and Gradient share one computation")
				})
			}
		}
	}
}

// TestLogisticTasksAndWorkers covers the split of the logistic algorithm into several tasks,
// tiles and either class being the larger, and checks that the result does not depend on
// the number of workers, to the bit.
func TestLogisticTasksAndWorkers(t *testing.T) {
	cases := []struct {
		name   string
		n1, n0 int
	}{
		{"one task over several tiles", 40, 3000},     // 120k pairs: 1 task, 3 tiles
		{"several tasks, negatives larger", 400, 900}, // 360k pairs: 5 tasks
		{"several tasks, positives larger", 900, 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, y := testbatch.Shifted(5, 7, c.n1+c.n0, 0, 0)
			for k := range y {
				y[k] = 0
				if k < c.n1 {
					y[k] = 1
					f[k] += 0.7
				}
			}
			wantLoss, want := naive(Logistic, 1, f, y)
			b, err := newBatch(f, y)
			require.NoError(t, err)
			var ref []float64
			for _, workers := range []int{1, 2, 3, 8} {
				got := make([]float64, len(f))
				loss := logistic(b, got, workers)
				requireClose(t, wantLoss, loss, want, got)
				if ref == nil {
					ref = append(got, loss)
				} else {
					require.Equal(t, ref, append(got, loss), "workers=%d", workers)
				}
			}
		})
	}
}

// TestGradientsSumToZero: the loss depends on score differences only, so shifting every
// score by δ leaves it unchanged and Σ_k ∂L/∂f_k = 0 — for sampled pairs too.
func TestGradientsSumToZero(t *testing.T) {
	const tolSum = 1e-12 // a sum of ~100 gradients of magnitude < 1e-1, cancelling
	f, y := testbatch.Shifted(6, 7, 100, 0.2, 0.3)
	for _, s := range Surrogates() {
		for _, pairs := range []int{0, 50} {
			grad, _, err := Gradient(f, y, Config{Surrogate: s, Pairs: pairs, Seed: 9})
			require.NoError(t, err)
			var sum float64
			for _, g := range grad {
				sum += g
			}
			require.InDelta(t, 0, sum, tolSum, "%v pairs=%d", s, pairs)
		}
	}
}

// TestExponentialOverflow: with the positives' scores near −720, e^(−f_i) ≈ e^720 overflows
// float64 (largest ≈ e^709.78) and the negatives' e^(f_j) ≈ e^−720 is subnormal, yet every
// pair term e^(−(f_i − f_j)) is moderate. The reference is the naive loop, which works on the
// differences and never forms the overflowing factor, and a case worked by hand.
func TestExponentialOverflow(t *testing.T) {
	require.True(t, math.IsInf(math.Exp(720), 1), "the factor alone must overflow")
	t.Run("by hand", func(t *testing.T) {
		// One pair, x = −720 − (−721) = 1: L = e^−1, ∂L/∂f_pos = −e^−1, ∂L/∂f_neg = e^−1.
		grad, loss, err := Gradient([]float64{-720, -721}, []float64{1, 0}, Config{Surrogate: Exponential})
		require.NoError(t, err)
		e := math.Exp(-1)
		requireClose(t, e, loss, []float64{-e, e}, grad)
	})
	t.Run("batch", func(t *testing.T) {
		f := []float64{-720, -719.5, -721.25, -718, -722, -720.75, -719}
		y := []float64{1, 1, 1, 0, 0, 0, 0}
		wantLoss, want := naive(Exponential, 1, f, y)
		require.False(t, math.IsInf(wantLoss, 0))
		grad, loss, err := Gradient(f, y, Config{Surrogate: Exponential})
		require.NoError(t, err)
		requireClose(t, wantLoss, loss, want, grad)
		// The same pairs sampled: every sampled pair is moderate too.
		_, loss, err = Gradient(f, y, Config{Surrogate: Exponential, Pairs: 100})
		require.NoError(t, err)
		require.False(t, math.IsInf(loss, 0))
	})
	t.Run("true overflow", func(t *testing.T) {
		// x = −800: the loss e^800/1 is beyond float64; an error, not +Inf.
		for _, pairs := range []int{0, 3} {
			_, err := Evaluate([]float64{-800, 0}, []float64{1, 0}, Config{Surrogate: Exponential, Pairs: pairs})
			require.ErrorIs(t, err, rocops.ErrRange)
			_, _, err = Gradient([]float64{-800, 0}, []float64{1, 0}, Config{Surrogate: Exponential, Pairs: pairs})
			require.ErrorIs(t, err, rocops.ErrRange)
		}
	})
}

func TestErrors(t *testing.T) {
	good := []float64{0.5, -0.5}
	labels := []float64{1, 0}
	cases := []struct {
		name   string
		f, y   []float64
		cfg    Config
		want   error
		detail string
	}{
		{"empty", nil, nil, Config{}, rocops.ErrEmpty, ""},
		{"length", good, []float64{1}, Config{}, rocops.ErrLength, "2 scores, 1 labels"},
		{"NaN score", []float64{math.NaN(), 0}, labels, Config{}, rocops.ErrNonFinite, "scores[0]"},
		{"Inf score", []float64{0, math.Inf(-1)}, labels, Config{}, rocops.ErrNonFinite, "scores[1]"},
		{"label 2", good, []float64{1, 2}, Config{}, rocops.ErrLabel, "labels[1] = 2"},
		{"label NaN", good, []float64{math.NaN(), 0}, Config{}, rocops.ErrLabel, "labels[0]"},
		{"no positives", good, []float64{0, 0}, Config{}, rocops.ErrOneClass, "no positives"},
		{"no negatives", good, []float64{1, 1}, Config{}, rocops.ErrOneClass, "no negatives"},
		{"negative margin", good, labels, Config{Surrogate: Hinge, Margin: -1}, rocops.ErrConfig, "invalid setting: Margin = -1"},
		{"NaN margin", good, labels, Config{Margin: math.NaN()}, rocops.ErrConfig, "Margin = NaN"},
		{"Inf margin", good, labels, Config{Surrogate: Square, Margin: math.Inf(1)}, rocops.ErrConfig, "Margin = +Inf"},
		{"negative pairs", good, labels, Config{Pairs: -1}, rocops.ErrConfig, "Pairs = -1"},
		{"unknown surrogate", good, labels, Config{Surrogate: 5}, rocops.ErrConfig, "Surrogate = 5, want logistic, exp"},
		{"overflow", []float64{-1e308, 1e308}, labels, Config{Surrogate: Square}, rocops.ErrRange, "square"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Evaluate(c.f, c.y, c.cfg)
			require.ErrorIs(t, err, c.want)
			require.Contains(t, err.Error(), "pairwise: ")
			require.Contains(t, err.Error(), c.detail)
			_, _, err = Gradient(c.f, c.y, c.cfg)
			require.ErrorIs(t, err, c.want)
		})
	}
}

func TestParseSurrogate(t *testing.T) {
	names := map[string]Surrogate{
		"logistic": Logistic, "exp": Exponential, "square": Square, "hinge": Hinge, "sqhinge": SquaredHinge,
	}
	for name, want := range names {
		got, err := ParseSurrogate(name)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.Equal(t, name, want.String())
		var s Surrogate
		require.NoError(t, s.UnmarshalText([]byte(strings.ToUpper(name))))
		require.Equal(t, want, s)
		text, err := want.MarshalText()
		require.NoError(t, err)
		require.Equal(t, name, string(text))
	}
	require.Len(t, Surrogates(), len(names))
	_, err := ParseSurrogate("hinges")
	require.True(t, errors.Is(err, rocops.ErrConfig))
	require.ErrorContains(t, err, `pairwise: invalid setting: unknown surrogate "hinges"`)
	require.Equal(t, "surrogate(-1)", Surrogate(-1).String())
	_, err = Surrogate(9).MarshalText()
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.ErrorContains(t, err, "pairwise: invalid setting: unknown surrogate 9")
}

func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 7))
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1)}
	for _, n := range []int{0, 1, 2, 33, 1000} {
		xs := make([]float64, n)
		for k := range xs {
			switch k % 4 {
			case 0:
				xs[k] = special[r.IntN(len(special))]
			case 1:
				xs[k] = float64(r.IntN(5)) // ties
			default:
				xs[k] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
			}
		}
		items := make([]item, n)
		for k, x := range xs {
			items[k] = item{key: floats.OrderKey(x), ref: k << 1}
			require.Equal(t, x == 0, items[k].value() == 0 && !math.Signbit(items[k].value()))
			if x != 0 {
				require.Equal(t, x, items[k].value(), "value inverts floats.OrderKey")
			}
		}
		sorted := radixSort(items, make([]item, n))
		for k := 1; k < n; k++ {
			a, b := sorted[k-1], sorted[k]
			require.LessOrEqual(t, xs[a.index()], xs[b.index()], "order at %d", k)
			if xs[a.index()] == xs[b.index()] {
				require.Less(t, a.index(), b.index(), "stable at %d", k)
			}
		}
	}
}

// TestLogisticScoreRanges checks the logistic algorithm against the naive loop where its
// factored exponentials e^{±f} are stressed: classes so far apart that every pair's loss is
// about e^{−40} (the log1p recurrence must keep its relative accuracy), scores spread over
// the whole factored range ±maxFactored, and one score that widens the spread beyond
// 2·maxFactored, which switches the batch to one exponential per pair.
func TestLogisticScoreRanges(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	spread := func(n int, lo, hi float64) ([]float64, []float64) {
		f, y := make([]float64, n), make([]float64, n)
		for k := range f {
			f[k] = lo + (hi-lo)*r.Float64()
			y[k] = float64(k % 2)
		}
		return f, y
	}
	separated, ys := spread(600, -1, 1)
	for k := range separated {
		separated[k] += 40 * ys[k]
	}
	wide, yw := spread(600, -maxFactored, maxFactored)
	beyond := append([]float64{3 * maxFactored}, wide[1:]...) // a spread beyond 2·maxFactored
	for _, c := range []struct {
		name string
		f, y []float64
	}{
		{"separated", separated, ys},
		{"whole factored range", wide, yw},
		{"beyond the factored range", beyond, yw},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantLoss, want := naive(Logistic, 1, c.f, c.y)
			got, loss, err := Gradient(c.f, c.y, Config{Surrogate: Logistic})
			require.NoError(t, err)
			requireClose(t, wantLoss, loss, want, got)
		})
	}
}

// TestLogisticRowPaths: the factored row and the row with one exponential per pair agree on
// scores within the factored range, including exact ties (x = 0) and both signs of x.
func TestLogisticRowPaths(t *testing.T) {
	const tol = 1e-13 // relative; both are exact to a few ulps per pair
	f, _ := testbatch.Shifted(12, 7, 1000, 0, 0)
	tile := gatherTerms(f, seq(len(f)), true)
	for _, fp := range []float64{0, f[3], 2.5, -30} {
		p := termAt(gatherTerms([]float64{fp}, []int{0}, true), 0)
		g1, g2 := make([]float64, len(tile.F)), make([]float64, len(tile.F))
		l1, w1 := logisticfn.PairRow(p, tile, g1)
		l2, w2 := logisticRowExp(fp, tile.F, g2)
		require.InDelta(t, l2, l1, tol*l2, "loss at f = %v", fp)
		require.InDelta(t, w2, w1, tol*w2, "weight at f = %v", fp)
		require.InDeltaSlice(t, g2, g1, tol, "weights at f = %v", fp)
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for k := range s {
		s[k] = k
	}
	return s
}
