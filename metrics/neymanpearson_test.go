package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mathext"

	"github.com/rocops/rocops"
)

// exactTails returns P(X ≥ k) for X ~ Binomial(n, q) and every k in 0…n+1, by the exact sums
// of the terms C(n, j)·q^j·(1−q)^(n−j) in 600-bit floating point, with q read exactly from its
// float64: an evaluation independent of binomialTail's log-space expansion.
func exactTails(n int, q float64) []*big.Float {
	const prec = 600
	bq := new(big.Float).SetPrec(prec).SetFloat64(q)
	bp := new(big.Float).SetPrec(prec).Sub(new(big.Float).SetPrec(prec).SetInt64(1), bq)
	tails := make([]*big.Float, n+2)
	tails[n+1] = new(big.Float).SetPrec(prec)
	for j := n; j >= 0; j-- {
		c := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Binomial(int64(n), int64(j)))
		c.Mul(c, pow(bq, j, prec))
		c.Mul(c, pow(bp, n-j, prec))
		tails[j] = c.Add(c, tails[j+1])
	}
	return tails
}

func pow(x *big.Float, e int, prec uint) *big.Float {
	r := new(big.Float).SetPrec(prec).SetInt64(1)
	b := new(big.Float).SetPrec(prec).Set(x)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r.Mul(r, b)
		}
		b.Mul(b, b)
	}
	return r
}

// exactOrder is k* by the exact tails: the smallest k in 1…n with P(X ≥ k) ≤ δ, 0 for none;
// tie reports that the tail at k* equals δ to within 1e-12 (relative), where float64 cannot
// tell the two apart and k* + 1 is also correct, on the safe side.
func exactOrder(n int, alpha, delta float64) (k int, tie bool) {
	d := new(big.Float).SetPrec(600).SetFloat64(delta)
	tails := exactTails(n, 1-alpha)
	for k := 1; k <= n; k++ {
		if tail := tails[k]; tail.Cmp(d) <= 0 {
			v, _ := tail.Float64()
			return k, math.Abs(v-delta) <= 1e-12*delta
		}
	}
	return 0, false
}

// TestNPOrderMatchesExactBinomial compares k* with the one the exact binomial tails give, on a
// grid of n, α and δ; where no k qualifies the error must be ErrTooFewNegatives.
func TestNPOrderMatchesExactBinomial(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 10, 29, 58, 59, 100, 200, 377, 1000} {
		for _, alpha := range []float64{0.01, 0.05, 0.1, 0.25, 0.5, 0.9} {
			for _, delta := range []float64{0.01, 0.05, 0.1, 0.3, 0.5, 0.9} {
				want, tie := exactOrder(n, alpha, delta)
				got, err := negativesOrder(n, alpha, delta)
				if want == 0 {
					require.ErrorIs(t, err, ErrTooFewNegatives, "n=%d alpha=%v delta=%v", n, alpha, delta)
					continue
				}
				require.NoError(t, err, "n=%d alpha=%v delta=%v", n, alpha, delta)
				if tie && got == want+1 {
					continue // P(X ≥ k*) = δ exactly (n = 59, α = δ = 0.5 is one): the safe side
				}
				require.Equal(t, want, got, "n=%d alpha=%v delta=%v", n, alpha, delta)
			}
		}
	}
}

// TestBinomialTailMatchesExact compares the log-space tail with the exact sum at every k of a
// few n, to a relative error of 1e-12 where the tail is at least 1e-300.
func TestBinomialTailMatchesExact(t *testing.T) {
	const tol = 1e-12
	for _, n := range []int{1, 7, 40, 300} {
		for _, q := range []float64{0.02, 0.5, 0.95, 0.999} {
			tails := exactTails(n, q)
			for k := 0; k <= n+1; k++ {
				want, _ := tails[k].Float64()
				got := binomialTail(k, n, q)
				if want < 1e-300 {
					require.LessOrEqual(t, got, 1e-290, "n=%d q=%v k=%d", n, q, k)
					continue
				}
				require.InEpsilon(t, want, got, tol, "n=%d q=%v k=%d", n, q, k)
			}
		}
	}
}

// lgammaTail is P(Binomial(n, q) ≥ k) summed term by term from log-gamma functions, an
// evaluation independent of binomialTail's (and less precise: about 1e-7 relative at n = 10⁸).
func lgammaTail(k, n int, q float64) float64 {
	ln, _ := math.Lgamma(float64(n + 1))
	sum := 0.0
	for j := k; j <= n; j++ {
		a, _ := math.Lgamma(float64(j + 1))
		b, _ := math.Lgamma(float64(n - j + 1))
		v := math.Exp(ln - a - b + float64(j)*math.Log(q) + float64(n-j)*math.Log1p(-q))
		sum += v
		if v < sum*1e-18 && float64(j) > float64(n)*q {
			break
		}
	}
	return sum
}

// TestNPOrderLargeN checks k* for n up to 10⁸ against two other evaluations of the tail: the
// regularised incomplete beta function, P(Binomial(n, q) ≥ k) = I_q(k, n−k+1) (gonum's
// mathext.RegIncBeta, which agrees to 1e-9 up to n = 10⁶ and fails beyond: 0.536 for a tail
// of 0.49994 at n = 10⁸), and the sum of log-gamma terms: the tail at k* is at most δ and the
// tail at k* − 1 above it, to the precision of the reference.
func TestNPOrderLargeN(t *testing.T) {
	for _, n := range []int{10_000, 123_457, 1_000_000, 100_000_000} {
		tail, tol := lgammaTail, 1e-5
		if n <= 1_000_000 {
			tail, tol = func(k, n int, q float64) float64 {
				return mathext.RegIncBeta(float64(k), float64(n-k+1), q)
			}, 1e-8
		}
		for _, alpha := range []float64{0.001, 0.05, 0.2} {
			for _, delta := range []float64{0.01, 0.05, 0.5} {
				k, err := negativesOrder(n, alpha, delta)
				require.NoError(t, err)
				q := 1 - alpha
				require.LessOrEqual(t, tail(k, n, q), delta*(1+tol), "n=%d alpha=%v delta=%v k=%d", n, alpha, delta, k)
				require.Greater(t, tail(k-1, n, q), delta*(1-tol), "n=%d alpha=%v delta=%v k=%d", n, alpha, delta, k)
				// k* lies above the mean n·q by about z_{1−δ} standard deviations.
				sd := math.Sqrt(float64(n) * q * alpha)
				require.InDelta(t, float64(n)*q, float64(k), 5*sd+2)
			}
		}
	}
}

// TestNPOrderBoundary: at α = δ = 0.05 the smallest n is ⌈log 0.05 / log 0.95⌉ = 59 (0.95⁵⁹ =
// 0.0485 ≤ 0.05 < 0.95⁵⁸ = 0.0510); at 59 negatives k* = 59, the threshold above them all.
func TestNPOrderBoundary(t *testing.T) {
	_, err := negativesOrder(58, 0.05, 0.05)
	require.ErrorIs(t, err, ErrTooFewNegatives)
	require.ErrorContains(t, err, "58 negatives")
	require.ErrorContains(t, err, "at least 59")
	k, err := negativesOrder(59, 0.05, 0.05)
	require.NoError(t, err)
	require.Equal(t, 59, k)

	scores := make([]float64, 59)
	labels := make([]float64, 59)
	for i := range scores {
		scores[i] = float64(i)
	}
	th, err := ThresholdNP(scores, labels, 0.05, 0.05)
	require.NoError(t, err)
	require.Equal(t, math.Nextafter(58, math.Inf(1)), th)
	_, err = ThresholdNP(scores[:58], labels[:58], 0.05, 0.05)
	require.ErrorIs(t, err, ErrTooFewNegatives)
}

// TestThresholdNPErrors: bad rates are rocops.ErrConfig naming them, bad batches the shared
// vocabulary.
func TestThresholdNPErrors(t *testing.T) {
	s, y := []float64{0.1, 0.2, 0.3}, []float64{0, 0, 1}
	for _, bad := range []float64{0, 1, -0.1, 1.5, math.NaN(), math.Inf(1)} {
		_, err := ThresholdNP(s, y, bad, 0.1)
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.ErrorContains(t, err, "alpha")
		_, err = ThresholdNP(s, y, 0.1, bad)
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.ErrorContains(t, err, "delta")
		_, err = ThresholdNPRecall(s, y, bad, 0.1)
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.ErrorContains(t, err, "recall")
		_, _, err = ClopperPearson(1, 3, bad)
		require.ErrorIs(t, err, rocops.ErrConfig)
	}
	_, err := ThresholdNP(nil, nil, 0.1, 0.1)
	require.ErrorIs(t, err, rocops.ErrEmpty)
	_, err = ThresholdNP(s, y[:2], 0.1, 0.1)
	require.ErrorIs(t, err, rocops.ErrLength)
	_, err = ThresholdNP([]float64{1, math.NaN()}, []float64{0, 0}, 0.1, 0.1)
	require.ErrorIs(t, err, rocops.ErrNonFinite)
	_, err = ThresholdNP([]float64{1, 2}, []float64{0, 2}, 0.1, 0.1)
	require.ErrorIs(t, err, rocops.ErrLabel)
	_, err = ThresholdNP([]float64{1, 2}, []float64{1, 1}, 0.1, 0.1)
	require.ErrorIs(t, err, rocops.ErrNoNegatives)
	_, err = ThresholdNPRecall([]float64{1, 2}, []float64{0, 0}, 0.9, 0.1)
	require.ErrorIs(t, err, rocops.ErrNoPositives)
	_, err = ThresholdNPRecall([]float64{1, 2}, []float64{1, 1}, 0.9, 0.1)
	require.ErrorIs(t, err, ErrTooFewPositives)
	require.True(t, strings.HasPrefix(err.Error(), "metrics: "), err.Error())
	// The mirror's message names the recall, not the rate 1 − recall it is computed at.
	require.ErrorContains(t, err, "2 positives, the guarantee at recall = 0.9 with delta = 0.1 needs at least 22")
	for _, c := range [][2]int{{-1, 3}, {4, 3}, {0, 0}} {
		_, _, err = ClopperPearson(c[0], c[1], 0.95)
		require.ErrorIs(t, err, rocops.ErrConfig)
	}
}

// TestThresholdNPFlagsAboveTheOrderStatistic: with heavy ties, flagging score ≥ t flags exactly
// the scores above s(k*), whatever rows tie with it, and the positives play no part.
func TestThresholdNPFlagsAboveTheOrderStatistic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := 0; trial < 200; trial++ {
		n := 60 + rng.IntN(400)
		scores := make([]float64, n)
		labels := make([]float64, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(1 + trial%7)) // 1 to 7 distinct values
			if rng.Float64() < 0.3 {
				labels[i] = 1
			}
		}
		var neg []float64
		for i, y := range labels {
			if y == 0 {
				neg = append(neg, scores[i])
			}
		}
		alpha, delta := 0.05+0.3*rng.Float64(), 0.05+0.5*rng.Float64()
		k, err := negativesOrder(len(neg), alpha, delta)
		if err != nil {
			continue
		}
		slices.Sort(neg)
		th, err := ThresholdNP(scores, labels, alpha, delta)
		require.NoError(t, err)
		for _, s := range scores {
			require.Equal(t, s > neg[k-1], s >= th, "score %v, s(k*) = %v, t = %v", s, neg[k-1], th)
		}
	}
}

// violationRate draws the validation negatives reps times from draw, sets the threshold of
// rule on each draw, and returns the share of draws whose rule exceeds alpha on the whole
// distribution, whose false-positive rate at t is fpr(t).
func violationRate(rng *rand.Rand, n, reps int, alpha, delta float64, draw func() float64, fpr func(t float64) float64) float64 {
	scores := make([]float64, n)
	labels := make([]float64, n)
	violations := 0
	for r := 0; r < reps; r++ {
		for i := range scores {
			scores[i] = draw()
		}
		th, err := ThresholdNP(scores, labels, alpha, delta)
		if err != nil {
			panic(err)
		}
		if fpr(th) > alpha {
			violations++
		}
	}
	return float64(violations) / float64(reps)
}

// TestThresholdNPGuarantee: over many draws of n negatives from a known distribution, the share
// of thresholds whose false-positive rate exceeds α matches P(Binomial(n, 1−α) ≥ k*), which is
// at most δ and the largest such tail (k* − 1 would exceed δ), to within four standard errors:
// the guarantee holds and is not loose. Continuous scores (standard normal) and tie-heavy ones
// (a Poisson score, where the guarantee still holds and the rate can only fall).
func TestThresholdNPGuarantee(t *testing.T) {
	const reps = 4000
	rng := rand.New(rand.NewPCG(11, 13))
	for _, c := range []struct {
		n            int
		alpha, delta float64
	}{{200, 0.05, 0.1}, {500, 0.1, 0.05}, {100, 0.2, 0.3}} {
		k, err := negativesOrder(c.n, c.alpha, c.delta)
		require.NoError(t, err)
		tail := binomialTail(k, c.n, 1-c.alpha)
		require.LessOrEqual(t, tail, c.delta)
		require.Greater(t, binomialTail(k-1, c.n, 1-c.alpha), c.delta)
		se := math.Sqrt(tail * (1 - tail) / reps)

		normal := violationRate(rng, c.n, reps, c.alpha, c.delta, rng.NormFloat64,
			func(t float64) float64 { return 0.5 * math.Erfc(t/math.Sqrt2) })
		require.InDelta(t, tail, normal, 4*se, "%+v: normal scores", c)

		// Poisson(3) scores: FPR(t) = P(S ≥ t) for the integer scores at or above t.
		poissonAtLeast := func(t float64) float64 {
			m := int(math.Ceil(t))
			p, cdf := math.Exp(-3), 0.0
			for j := 0; j < m; j++ {
				cdf += p
				p *= 3 / float64(j+1)
			}
			return 1 - cdf
		}
		poisson := violationRate(rng, c.n, reps, c.alpha, c.delta, func() float64 {
			j, p := 0, math.Exp(-3)
			for u := rng.Float64(); u > p; j++ {
				u -= p
				p *= 3 / float64(j+1)
			}
			return float64(j)
		}, poissonAtLeast)
		require.LessOrEqual(t, poisson, tail+4*se, "%+v: tied scores", c)
	}
}

// TestPlainRuleViolates measures what the umbrella threshold mends: the plain rule
// (ThresholdAtFPR) on 200 validation negatives at α = 0.05 sets t = s(191), whose rate on fresh
// negatives exceeds α when at least 191 of 200 fall below the 0.95-quantile, with probability
// P(Binomial(200, 0.95) ≥ 191) = 0.4547; the simulated share matches it.
func TestPlainRuleViolates(t *testing.T) {
	const reps, n, alpha = 4000, 200, 0.05
	rng := rand.New(rand.NewPCG(23, 29))
	scores := make([]float64, n+1)
	labels := make([]float64, n+1)
	scores[n], labels[n] = 2, 1 // one positive, above every negative
	violations := 0
	for r := 0; r < reps; r++ {
		for i := range n {
			scores[i] = rng.Float64() // uniform: FPR(t) = 1 − t
		}
		th, _, _, err := ThresholdAtFPR(scores, labels, alpha)
		require.NoError(t, err)
		if 1-th > alpha {
			violations++
		}
	}
	want := binomialTail(191, n, 1-alpha)
	require.InDelta(t, 0.4547, want, 5e-5)
	require.InDelta(t, want, float64(violations)/reps, 4*math.Sqrt(want*(1-want)/reps))
}

// TestThresholdNPRecallMirrors: the recall threshold flags exactly the positives that the
// false-positive threshold of the mirrored batch (−score, 1 − label) at α = 1 − recall leaves
// unflagged, and its guarantee holds in simulation.
func TestThresholdNPRecallMirrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	for trial := 0; trial < 100; trial++ {
		n := 80 + rng.IntN(300)
		scores := make([]float64, n)
		labels := make([]float64, n)
		mirror := make([]float64, n)
		flip := make([]float64, n)
		for i := range scores {
			scores[i] = math.Round(rng.NormFloat64() * 4) // ties
			if rng.Float64() < 0.6 {
				labels[i] = 1
			}
			mirror[i], flip[i] = -scores[i], 1-labels[i]
		}
		recall, delta := 0.6+0.35*rng.Float64(), 0.05+0.4*rng.Float64()
		tr, err := ThresholdNPRecall(scores, labels, recall, delta)
		tm, errm := ThresholdNP(mirror, flip, 1-recall, delta)
		if errors.Is(err, ErrTooFewPositives) {
			require.ErrorIs(t, errm, ErrTooFewNegatives)
			continue
		}
		require.NoError(t, err)
		require.NoError(t, errm)
		for i, s := range scores {
			if labels[i] == 1 {
				require.Equal(t, s >= tr, !(mirror[i] >= tm), "trial %d row %d", trial, i)
			}
		}
	}

	const reps, n, recall, delta = 4000, 150, 0.9, 0.1
	k, err := negativesOrder(n, 1-recall, delta)
	require.NoError(t, err)
	tail := binomialTail(k, n, recall)
	scores := make([]float64, n)
	labels := slices.Repeat([]float64{1}, n)
	misses := 0
	for r := 0; r < reps; r++ {
		for i := range scores {
			scores[i] = rng.Float64() // uniform: TPR(t) = 1 − t
		}
		th, err := ThresholdNPRecall(scores, labels, recall, delta)
		require.NoError(t, err)
		if 1-th < recall {
			misses++
		}
	}
	require.InDelta(t, tail, float64(misses)/reps, 4*math.Sqrt(tail*(1-tail)/reps))
}

// TestClopperPearson against R's binom.test(k, n)$conf.int (R 4.x, 95%): the exact interval.
func TestClopperPearson(t *testing.T) {
	const tol = 1e-6
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.3084971},
		{5, 10, 0.1870860, 0.8129140},
		{10, 10, 0.6915029, 1},
		{1, 20, 0.001264846, 0.248732762},
		{3, 100, 0.006229972, 0.085176053},
	} {
		lo, hi, err := ClopperPearson(c.k, c.n, 0.95)
		require.NoError(t, err)
		require.InDelta(t, c.lo, lo, tol, "%d/%d", c.k, c.n)
		require.InDelta(t, c.hi, hi, tol, "%d/%d", c.k, c.n)
	}
}

// BenchmarkThresholdNP times the threshold of n negatives (and as many positives) against
// sort.Float64s of the n negatives, the cost it must stay below.
func BenchmarkThresholdNP(b *testing.B) {
	for _, n := range []int{1 << 14, 1 << 20} {
		rng := rand.New(rand.NewPCG(1, 2))
		scores := make([]float64, 2*n)
		labels := make([]float64, 2*n)
		neg := make([]float64, n)
		for i := range scores {
			scores[i] = rng.NormFloat64()
			labels[i] = float64(i % 2)
			if i%2 == 0 {
				neg[i/2] = scores[i]
			}
		}
		b.Run(fmt.Sprintf("op=np/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ThresholdNP(scores, labels, 0.05, 0.05); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("op=sort/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]float64, n)
			for b.Loop() {
				copy(buf, neg)
				sort.Float64s(buf)
			}
		})
		// A curve already ranked (as roctrain's validation curve and rocbeam's merged counts
		// are): the threshold is a bisection over its distinct scores.
		c, err := NewCurve(scores, labels)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("op=curve/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.ThresholdNP(0.05, 0.05); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCurveThresholdNP: the curve's umbrella thresholds, read off its sorted counts, are the
// functions' on the same scores, bit for bit, for a curve of the rows and for one of their
// counts split into shards; too few rows of the guarded class is the functions' error, word for
// word, and bad rates are rocops.ErrConfig naming them.
func TestCurveThresholdNP(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	checked := 0
	for trial := 0; trial < 400; trial++ {
		n := 2 + rng.IntN(500)
		scores := make([]float64, n)
		labels := make([]float64, n)
		for i := range scores {
			switch trial % 3 {
			case 0:
				scores[i] = rng.NormFloat64() // distinct
			case 1:
				scores[i] = float64(rng.IntN(1 + trial%9)) // heavy ties
			default:
				scores[i] = math.Round(rng.NormFloat64()*3) / 4
			}
			if rng.Float64() < 0.1+0.8*float64(trial%5)/4 {
				labels[i] = 1
			}
		}
		labels[0], labels[1] = 0, 1 // both classes, as a curve needs
		c, err := NewCurve(scores, labels)
		require.NoError(t, err)
		// The counts in three shards, a score's counts spread over them.
		var counts []ScoreCount
		for _, sc := range c.Counts() {
			for range 3 {
				p, q := rng.Int64N(sc.Pos+1), rng.Int64N(sc.Neg+1)
				counts = append(counts, ScoreCount{Score: sc.Score, Pos: p, Neg: q})
				sc.Pos, sc.Neg = sc.Pos-p, sc.Neg-q
			}
			counts = append(counts, sc)
		}
		rng.Shuffle(len(counts), func(i, j int) { counts[i], counts[j] = counts[j], counts[i] })
		fromCounts, err := NewCurveFromCounts(counts)
		require.NoError(t, err)

		alpha, delta := 0.02+0.4*rng.Float64(), 0.02+0.5*rng.Float64()
		recall := 0.5 + 0.45*rng.Float64()
		want, wantErr := ThresholdNP(scores, labels, alpha, delta)
		wantR, wantRErr := ThresholdNPRecall(scores, labels, recall, delta)
		for _, curve := range []*Curve{c, fromCounts} {
			got, err := curve.ThresholdNP(alpha, delta)
			gotR, errR := curve.ThresholdNPRecall(recall, delta)
			if wantErr != nil {
				require.ErrorIs(t, err, ErrTooFewNegatives)
				require.EqualError(t, err, wantErr.Error())
			} else {
				require.NoError(t, err)
				require.Equal(t, math.Float64bits(want), math.Float64bits(got), "trial %d: %v, want %v", trial, got, want)
				checked++
			}
			if wantRErr != nil {
				require.ErrorIs(t, errR, ErrTooFewPositives)
				require.EqualError(t, errR, wantRErr.Error())
			} else {
				require.NoError(t, errR)
				require.Equal(t, wantR, gotR, "trial %d (recall)", trial)
				checked++
			}
		}
	}
	require.Greater(t, checked, 800) // most trials have rows enough for both guarantees

	c, err := NewCurve([]float64{0.1, 0.2, 0.3}, []float64{0, 0, 1})
	require.NoError(t, err)
	for _, bad := range []float64{0, 1, math.NaN()} {
		_, err := c.ThresholdNP(bad, 0.1)
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.ErrorContains(t, err, "alpha")
		_, err = c.ThresholdNP(0.5, bad)
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.ErrorContains(t, err, "delta")
		_, err = c.ThresholdNPRecall(bad, 0.5)
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.ErrorContains(t, err, "recall")
	}
}
