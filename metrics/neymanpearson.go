package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mathext"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// ErrTooFewNegatives reports a validation part with too few negatives for the Neyman–Pearson
// guarantee: with n negatives, even the threshold above all of them violates the rate with
// probability (1−α)^n, so (1−α)^n > δ leaves no threshold. The message gives the smallest n
// that works.
var ErrTooFewNegatives = errors.New("metrics: too few negatives for the guarantee")

// ErrTooFewPositives is ErrTooFewNegatives of [ThresholdNPRecall]: too few positives for its
// guarantee on the true-positive rate.
var ErrTooFewPositives = errors.New("metrics: too few positives for the guarantee")

// ThresholdNP returns the Neyman–Pearson umbrella threshold (Tong, Feng and Li,
// "Neyman-Pearson classification algorithms and NP receiver operating characteristics",
// Science Advances 2018): a threshold t such that flagging every row with score ≥ t keeps the
// false-positive rate at or below alpha with probability at least 1 − delta, over draws of the
// negatives, for negatives exchangeable with these (drawn from the same distribution as the
// rows the rule is deployed on). With s(1) ≤ … ≤ s(n) the n negatives' scores,
//
//	k* = min{ k ∈ 1…n : P(Binomial(n, 1−α) ≥ k) ≤ δ }
//
// and flagging score ≥ t flags exactly the scores above s(k*): t = s(k*) + one ulp
// (math.Nextafter), so a score equal to s(k*) is not flagged. The new rule's false-positive
// rate exceeds α exactly when fewer than k* of n fresh draws fall at or below the (1−α)-quantile
// of the negatives' distribution, which has probability P(Binomial(n, 1−α) ≥ k*) ≤ δ for
// continuous scores; ties (a block of negatives at s(k*)) only flag fewer rows, so the
// guarantee holds for any scores. It needs no model assumption, only order statistics, and
// costs one selection of the k*-th smallest negative (O(n), below one sort).
//
// Compared with [ThresholdAtFPR], which meets α on the given negatives and exceeds it on fresh
// ones about half the time, the guarantee costs true-positive rate: k* sits about
// z_{1−δ}·√(n·α·(1−α)) negatives above the empirical (1−α)-quantile. The binomial tail is
// computed in log space with Loader's saddle-point expansion ("Fast and accurate computation of
// binomial probabilities", 2000, as R's dbinom), stable for n up to 10⁸ and beyond.
//
// Errors: alpha or delta outside (0, 1) (rocops.ErrConfig); the input errors of the shared
// vocabulary (scores and labels need not hold a positive, but must hold a negative:
// rocops.ErrNoNegatives); (1−α)^n > δ ([ErrTooFewNegatives], naming the smallest n that works).
func ThresholdNP(scores, labels []float64, alpha, delta float64) (float64, error) {
	neg, err := classScores(scores, labels, 0)
	if err != nil {
		return 0, err
	}
	k, err := npOrder(len(neg), alpha, delta, ErrTooFewNegatives, "negatives", "alpha", alpha)
	if err != nil {
		return 0, err
	}
	return math.Nextafter(kthSmallest(neg, k), math.Inf(1)), nil
}

// ThresholdNPRecall is the mirror of [ThresholdNP] for screening: a threshold t such that
// flagging every row with score ≥ t keeps the true-positive rate at or above recall with
// probability at least 1 − delta, over draws of the positives. It is ThresholdNP of the
// mirrored problem, the positives' negated scores at α = 1 − recall: with p(1) ≤ … ≤ p(n) the
// n positives' scores and k* the order of ThresholdNP at n and 1 − recall,
//
//	t = p(n + 1 − k*),
//
// so that the rule misses exactly the positives below p(n+1−k*), and misses more than a share
// 1 − recall with probability at most δ. Ties at t are flagged, which only raises the rate.
//
// Errors: recall or delta outside (0, 1) (rocops.ErrConfig); the shared input errors, with a
// positive needed (rocops.ErrNoPositives); recall^n > δ ([ErrTooFewPositives], naming the
// smallest n that works).
func ThresholdNPRecall(scores, labels []float64, recall, delta float64) (float64, error) {
	if err := openUnit("recall", recall); err != nil {
		return 0, err
	}
	pos, err := classScores(scores, labels, 1)
	if err != nil {
		return 0, err
	}
	k, err := npOrder(len(pos), 1-recall, delta, ErrTooFewPositives, "positives", "recall", recall)
	if err != nil {
		return 0, err
	}
	return kthSmallest(pos, len(pos)+1-k), nil
}

// ThresholdNP is [ThresholdNP] of the curve's scores, with the same errors, and for a curve of
// counts ([NewCurveFromCounts]) ThresholdNP of the rows the counts describe: the curve holds
// the negatives' counts per distinct score in order, so s(k*) is the lowest score at which
// their ascending cumulative count reaches k*, found by bisection over the distinct scores,
// O(log d) for d of them, without another pass over the rows.
func (c *Curve) ThresholdNP(alpha, delta float64) (float64, error) {
	k, err := npOrder(c.nNeg, alpha, delta, ErrTooFewNegatives, "negatives", "alpha", alpha)
	if err != nil {
		return 0, err
	}
	// The vertices descend in score, and the negatives at or below vertex v's score are those
	// not above it: c.nNeg − pts[v−1].fp, falling as v grows. s(k*) is the score of the last
	// vertex at which at least k* remain.
	atOrBelow := func(v int) int {
		if v == 0 {
			return c.nNeg
		}
		return c.nNeg - c.pts[v-1].fp
	}
	v := sort.Search(len(c.pts), func(v int) bool { return atOrBelow(v) < k }) - 1
	return math.Nextafter(c.pts[v].threshold, math.Inf(1)), nil
}

// ThresholdNPRecall is [ThresholdNPRecall] of the curve's scores, with the same errors, and for
// a curve of counts ThresholdNPRecall of the rows the counts describe (a score of zero may come
// back as +0 where the function returns −0: one score, as == compares them): p(n+1−k*) is the
// k*-th highest positive score, the highest score at which the descending cumulative count of
// positives reaches k*, found by bisection as in [Curve.ThresholdNP].
func (c *Curve) ThresholdNPRecall(recall, delta float64) (float64, error) {
	if err := openUnit("recall", recall); err != nil {
		return 0, err
	}
	k, err := npOrder(c.nPos, 1-recall, delta, ErrTooFewPositives, "positives", "recall", recall)
	if err != nil {
		return 0, err
	}
	v := sort.Search(len(c.pts), func(v int) bool { return c.pts[v].tp >= k })
	return c.pts[v].threshold, nil
}

// ClopperPearson returns the exact (Clopper–Pearson) two-sided interval of confidence level for
// a binomial proportion with k successes in n trials: lo = B⁻¹(a/2; k, n−k+1) and hi =
// B⁻¹(1−a/2; k+1, n−k), a = 1 − level, B⁻¹ the inverse regularised incomplete beta function, with
// lo = 0 for k = 0 and hi = 1 for k = n. It covers the true proportion with probability at least
// level for every proportion (Clopper and Pearson, Biometrika 1934). Errors: n < 1, k outside
// 0…n or level outside (0, 1) (rocops.ErrConfig).
func ClopperPearson(k, n int, level float64) (lo, hi float64, err error) {
	switch {
	case n < 1 || k < 0 || k > n:
		return 0, 0, check.Errorf(pkg, rocops.ErrConfig, "%d successes in %d trials", k, n)
	case !(level > 0 && level < 1):
		return 0, 0, check.Errorf(pkg, rocops.ErrConfig, "level = %v, want it in (0, 1)", level)
	}
	a := 1 - level
	lo, hi = 0, 1
	if k > 0 {
		lo = mathext.InvRegIncBeta(float64(k), float64(n-k+1), a/2)
	}
	if k < n {
		hi = mathext.InvRegIncBeta(float64(k+1), float64(n-k), 1-a/2)
	}
	return lo, hi, nil
}

// classScores validates scores and labels with the shared vocabulary and returns a new slice of
// the scores of class c (0 or 1), which must have a row.
func classScores(scores, labels []float64, c float64) ([]float64, error) {
	nPos, err := check.Scores(pkg, scores, labels)
	if err != nil {
		return nil, err
	}
	n := nPos
	if c == 0 {
		n = len(labels) - nPos
	}
	if n == 0 {
		if c == 0 {
			return nil, check.Errorf(pkg, rocops.ErrNoNegatives, "all %d labels are 1", nPos)
		}
		return nil, check.Errorf(pkg, rocops.ErrNoPositives, "all %d labels are 0", len(labels))
	}
	out := make([]float64, 0, n)
	for i, y := range labels {
		if y == c {
			out = append(out, scores[i])
		}
	}
	return out, nil
}

// openUnit returns a rocops.ErrConfig error naming the setting unless 0 < v < 1.
func openUnit(name string, v float64) error {
	if !(v > 0 && v < 1) {
		return check.Errorf(pkg, rocops.ErrConfig, "%s = %v, want it in (0, 1)", name, v)
	}
	return nil
}

// npOrder is the order statistic k* of [ThresholdNP] (the smallest k in 1…n with
// P(Binomial(n, 1−α) ≥ k) ≤ δ) for n ≥ 0 rows of the guarded class, reporting too few of them as
// tooFew naming what they are and the rate guaranteed, rate = value: alpha, or the mirror's
// recall, whose alpha is 1 − recall.
func npOrder(n int, alpha, delta float64, tooFew error, what, rate string, value float64) (int, error) {
	if err := openUnit("alpha", alpha); err != nil {
		return 0, err
	}
	if err := openUnit("delta", delta); err != nil {
		return 0, err
	}
	q := 1 - alpha
	// P(Binomial(n, q) ≥ n) = qⁿ is the smallest tail: no k qualifies when it exceeds δ.
	if n == 0 || float64(n)*math.Log1p(-alpha) > math.Log(delta) {
		need := math.Ceil(math.Log(delta) / math.Log1p(-alpha))
		return 0, fmt.Errorf("%w: %d %s, the guarantee at %s = %v with delta = %v needs at least %.0f",
			tooFew, n, what, rate, value, delta, need)
	}
	// The tail falls as k grows: search for the first k whose tail is at most δ.
	lo, hi := 1, n // tail(hi) ≤ δ
	for lo < hi {
		mid := lo + (hi-lo)/2
		if binomialTail(mid, n, q) <= delta {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, nil
}

// binomialTail returns P(X ≥ k) for X ~ Binomial(n, q), 0 < q < 1. It sums the terms from k
// upwards, each from the one before it by their ratio and the first from logPMF, until past the
// mode they no longer change the sum; when k lies more than twelve standard deviations below
// the mode, where the tail is 1 to within its rounding, it returns one minus the lower tail
// summed downwards from k − 1 instead of summing through the bulk.
func binomialTail(k, n int, q float64) float64 {
	switch {
	case k <= 0:
		return 1
	case k > n:
		return 0
	}
	odds := q / (1 - q)
	mode := int(math.Floor(float64(n+1) * q))
	if sd := math.Sqrt(float64(n) * q * (1 - q)); float64(mode-k) <= 12*sd+10 {
		t := math.Exp(logPMF(k, n, q))
		sum := t
		for j := k; j < n && (j < mode || t > sum*0x1p-60); j++ {
			t *= float64(n-j) / float64(j+1) * odds
			sum += t
		}
		return sum
	}
	t := math.Exp(logPMF(k-1, n, q))
	sum := t
	for j := k - 1; j > 0 && t > sum*0x1p-60; j-- {
		t *= float64(j) / float64(n-j+1) / odds
		sum += t
	}
	return max(0, 1-sum)
}

// logPMF returns log P(X = x) for X ~ Binomial(n, q), 0 < q < 1, by Loader's saddle-point
// expansion,
//
//	log P(X = x) = δ(n) − δ(x) − δ(n−x) − D(x, nq) − D(n−x, n(1−q)) − ½·log(2π·x·(n−x)/n),
//
// with δ(m) = log m! − log(√(2πm)·(m/e)^m) (stirlerr) and D(x, μ) = x·log(x/μ) + μ − x (bd0),
// each computed without cancellation, so the result keeps nearly full relative precision for
// any n (the direct sum of log-gammas loses about log₁₀(n·log n) digits).
func logPMF(x, n int, q float64) float64 {
	p := 1 - q // the probability of the other outcome
	nf, xf := float64(n), float64(x)
	switch x {
	case 0:
		if q < 0.1 {
			return -bd0(nf, nf*p) - nf*q
		}
		return nf * math.Log(p)
	case n:
		if p < 0.1 {
			return -bd0(nf, nf*q) - nf*p
		}
		return nf * math.Log(q)
	}
	lc := stirlerr(nf) - stirlerr(xf) - stirlerr(nf-xf) - bd0(xf, nf*q) - bd0(nf-xf, nf*p)
	lf := math.Log(2*math.Pi) + math.Log(xf) + math.Log1p(-xf/nf)
	return lc - 0.5*lf
}

// stirlerr returns log m! − log(√(2πm)·(m/e)^m) for an integer m ≥ 1: from the log-gamma
// function for m ≤ 15, where the difference keeps its digits, and from Stirling's series
// beyond.
func stirlerr(m float64) float64 {
	const s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
	if m <= 15 {
		lg, _ := math.Lgamma(m + 1)
		return lg - (m+0.5)*math.Log(m) + m - 0.5*math.Log(2*math.Pi)
	}
	mm := m * m
	switch {
	case m > 500:
		return (s0 - s1/mm) / m
	case m > 80:
		return (s0 - (s1-s2/mm)/mm) / m
	case m > 35:
		return (s0 - (s1-(s2-s3/mm)/mm)/mm) / m
	}
	return (s0 - (s1-(s2-(s3-s4/mm)/mm)/mm)/mm) / m
}

// bd0 returns x·log(x/μ) + μ − x, the deviance term of the saddle-point expansion, by its series
// in v = (x − μ)/(x + μ) when x is near μ, where the direct formula cancels.
func bd0(x, mu float64) float64 {
	if math.Abs(x-mu) >= 0.1*(x+mu) {
		return x*math.Log(x/mu) + mu - x
	}
	v := (x - mu) / (x + mu)
	s := (x - mu) * v
	ej := 2 * x * v
	v *= v
	for j := 1; j < 1000; j++ {
		ej *= v
		s1 := s + ej/float64(2*j+1)
		if s1 == s {
			return s1
		}
		s = s1
	}
	return s
}

// kthSmallest returns the k-th smallest (1-based) of xs, reordering xs: Hoare's selection with
// the median of three, O(len(xs)) on average.
func kthSmallest(xs []float64, k int) float64 {
	lo, hi, want := 0, len(xs)-1, k-1
	for hi-lo > 16 {
		mid := lo + (hi-lo)/2
		// The median of xs[lo], xs[mid], xs[hi] as the pivot.
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case want <= j:
			hi = j
		case want >= i:
			lo = i
		default:
			return xs[want] // between j and i every element equals the pivot
		}
	}
	slices.Sort(xs[lo : hi+1])
	return xs[want]
}
