package metrics

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Curve is the ROC curve of a set of scores against their labels, ranked once: every figure of
// this package is read off it without validating or sorting the scores again. It is made in one
// of two ways:
//
//   - [NewCurve] ranks the rows themselves. Each method returns exactly, bit for bit, what the
//     package function of the same name returns on those scores (with [Curve.RatesAt] the rates
//     of flagging score ≥ t, and [Curve.DeLongPaired] the paired test of two curves of the same
//     labels), and [Curve.Bootstrap] resamples the rows without sorting. It holds the vertices
//     and the vertex and class of every row: O(n) memory.
//   - [NewCurveFromCounts] merges counts per distinct score, from shards of the data say, and
//     keeps only the vertices: O(distinct scores) memory, whatever the number of rows. Every
//     figure equals the function's on the rows the counts describe (DeLong's variance within a
//     few roundings, its components being summed by groups of tied rows). What needs the rows
//     themselves — the paired test and the bootstrap — is an [rocops.ErrConfig] error.
//
// A Curve is immutable and safe for concurrent use.
type Curve struct {
	nPos, nNeg int
	pts        []point // the vertices after (0, 0), in descending order of threshold
	row        []int32 // row i's score is pts[row[i]].threshold; nil for a curve of counts
	pos        []bool  // row i is a positive; nil for a curve of counts
}

// NewCurve validates scores and labels (1 = positive), as every function of the package does,
// and ranks them: one sort, O(n log n).
func NewCurve(scores, labels []float64) (*Curve, error) {
	nPos, nNeg, err := check.Batch(pkg, scores, labels)
	if err != nil {
		return nil, err
	}
	type ranked struct {
		score float64
		row   int32
	}
	order := make([]ranked, len(scores))
	for i, f := range scores {
		order[i] = ranked{f, int32(i)}
	}
	slices.SortFunc(order, func(a, b ranked) int { return cmp.Compare(a.score, b.score) })
	c := &Curve{nPos: nPos, nNeg: nNeg, pts: make([]point, 0, len(scores)),
		row: make([]int32, len(scores)), pos: make([]bool, len(scores))}
	for i, y := range labels {
		c.pos[i] = y == 1
	}
	// Walk down from the highest score: each block of tied scores is one vertex.
	tp, fp := 0, 0
	for hi := len(order); hi > 0; {
		lo := hi - 1
		for lo > 0 && order[lo-1].score == order[hi-1].score {
			lo--
		}
		k := int32(len(c.pts))
		for _, r := range order[lo:hi] {
			c.row[r.row] = k
			if c.pos[r.row] {
				tp++
			} else {
				fp++
			}
		}
		c.pts = append(c.pts, point{threshold: order[hi-1].score, tp: tp, fp: fp})
		hi = lo
	}
	c.pts = slices.Clip(c.pts)
	return c, nil
}

// vertices starts a walk down the curve's vertices.
func (c *Curve) vertices() vertices { return vertices{nPos: c.nPos, nNeg: c.nNeg, list: c.pts} }

// N counts the rows, positives and negatives.
func (c *Curve) N() int { return c.nPos + c.nNeg }

// Positives counts the positive rows.
func (c *Curve) Positives() int { return c.nPos }

// rows returns an rocops.ErrConfig error naming what for a curve of counts, which keeps no rows.
func (c *Curve) rows(what string) error {
	if c.row == nil {
		return check.Errorf(pkg, rocops.ErrConfig, "%s needs the rows of NewCurve; a curve of counts keeps none", what)
	}
	return nil
}

// AUC is [AUC] of the curve's scores.
func (c *Curve) AUC() float64 { return trapezoids(c.vertices()) }

// PartialAUC is [PartialAUC] of the curve's scores.
func (c *Curve) PartialAUC(maxFPR float64) (float64, error) {
	if err := checkRate("maxFPR", maxFPR, false); err != nil {
		return 0, err
	}
	return partialArea(c.vertices(), maxFPR), nil
}

// TPRAtFPR is [TPRAtFPR] of the curve's scores.
func (c *Curve) TPRAtFPR(fpr float64) (float64, error) {
	if err := checkRate("fpr", fpr, true); err != nil {
		return 0, err
	}
	_, t := upTo(c.vertices(), fpr)
	return t, nil
}

// FPRAtTPR is [FPRAtTPR] of the curve's scores.
func (c *Curve) FPRAtTPR(tpr float64) (float64, error) {
	if err := checkTPR(tpr); err != nil {
		return 0, err
	}
	return fprAt(c.vertices(), tpr), nil
}

// ROC is [ROC] of the curve's scores, in new slices.
func (c *Curve) ROC() (fpr, tpr, thresholds []float64) { return rocOf(c.vertices(), len(c.pts)+1) }

// ThresholdAtFPR is [ThresholdAtFPR] of the curve's scores.
func (c *Curve) ThresholdAtFPR(fpr float64) (t, achievedFPR, tpr float64, err error) {
	if err := checkRate("fpr", fpr, true); err != nil {
		return 0, 0, 0, err
	}
	t, achievedFPR, tpr = thresholdAt(c.vertices(), fpr)
	return t, achievedFPR, tpr, nil
}

// RatesAt returns the false- and true-positive rates of flagging the rows scoring at least t
// (any t, such as a threshold chosen on other data; +Inf flags nothing):
//
//	fpr = #{i : y_i = 0, f_i ≥ t} / N,  tpr = #{i : y_i = 1, f_i ≥ t} / P
func (c *Curve) RatesAt(t float64) (fpr, tpr float64) {
	return ratesAt(c.pts, c.nPos, c.nNeg, t)
}

// DeLong is [DeLong] of the curve's scores: the AUC as the mean of the structural
// components and its variance; an [ErrTooFew] error with fewer than two rows of a class. For a
// curve of counts the components are summed by groups of tied rows (see [NewCurveFromCounts]):
//
//	V10(t) = (N₀ + b/2) / N,   V01(t) = 1 − (P₀ + a/2) / P
//	S10    = Σ_t a·(V10(t) − AUC)² / (P − 1),   S01 = Σ_t b·(V01(t) − AUC)² / (N − 1)
//	Var    = S10/P + S01/N
//
// for each distinct score t held by a positives and b negatives, with P₀ positives and N₀
// negatives below it, of P positives and N negatives in all.
func (c *Curve) DeLong() (auc, variance float64, err error) {
	if c.row == nil {
		if c.nPos < 2 || c.nNeg < 2 {
			return 0, 0, fmt.Errorf("%w: %d positives, %d negatives", ErrTooFew, c.nPos, c.nNeg)
		}
		auc, variance = c.countsDeLong()
		return auc, variance, nil
	}
	s, err := c.components()
	if err != nil {
		return 0, 0, err
	}
	auc, v10 := meanVar(s.v10)
	_, v01 := meanVar(s.v01)
	return auc, v10/float64(len(s.v10)) + v01/float64(len(s.v01)), nil
}

// DeLongPaired compares the scorers of c and other, two scorers of the same rows, as pROC's
// roc.test(method = "delong", paired = TRUE) does: it returns diff = AUC(c) − AUC(other),
// DeLong's variance of that difference, which subtracts twice the covariance of the two AUCs,
// and the two-sided p-value of the hypothesis that the two AUCs are equal:
//
//	D10_i = V10_i(c) − V10_i(other),  D01_j = V01_j(c) − V01_j(other)   (see [DeLong])
//	Var   = S10(D)/P + S01(D)/N = Var_c + Var_other − 2·Cov
//	z     = diff/√Var,  p = 2·Φ(−|z|) = erfc(|z|/√2)
//
// where Φ is the standard normal distribution function. When Var is 0 — a scorer compared
// with itself, or with any scorer ranking the rows the same way — z is taken as 0 when diff is
// 0, so p = 1 (no evidence of a difference), and as ±∞ otherwise, so p = 0. The curves must
// have the same labels, row by row (an [rocops.ErrLength] or [rocops.ErrLabel] error
// otherwise), and be made by [NewCurve] ([rocops.ErrConfig] for a curve of counts); either
// with fewer than two of a class is [ErrTooFew].
func (c *Curve) DeLongPaired(other *Curve) (diff, variance, p float64, err error) {
	if err := c.rows("DeLongPaired"); err != nil {
		return 0, 0, 0, err
	}
	if err := other.rows("DeLongPaired"); err != nil {
		return 0, 0, 0, err
	}
	if len(c.pos) != len(other.pos) {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrLength, "scorer a has %d scores, scorer b %d",
			len(c.pos), len(other.pos))
	}
	if !slices.Equal(c.pos, other.pos) {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrLabel, "the two curves' labels differ")
	}
	ca, err := c.components()
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%w (scorer a)", err)
	}
	cb, err := other.components()
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%w (scorer b)", err)
	}
	diff, variance, p = pairedTest(ca, cb)
	return diff, variance, p, nil
}

// components computes DeLong's structural components from midranks (Sun and Xu 2014), one
// vertex at a time. Sorting all rows by score, a block of tied rows holding a positives and b
// negatives, preceded by P₀ positives and N₀ negatives, has
//
//	midrank among all rows       T_z = P₀ + N₀ + (a + b + 1)/2
//	midrank among the positives  T_x = P₀ + (a + 1)/2
//	midrank among the negatives  T_y = N₀ + (b + 1)/2
//
// and each of its positives gets V10 = (T_z − T_x)/N (the negatives below it, ties counting
// ½, over N), each of its negatives V01 = 1 − (T_z − T_y)/P (the positives above it, ties
// counting ½, over P). The components are listed in input order.
func (c *Curve) components() (structural, error) {
	if c.nPos < 2 || c.nNeg < 2 {
		return structural{}, fmt.Errorf("%w: %d positives, %d negatives", ErrTooFew, c.nPos, c.nNeg)
	}
	p, n := float64(c.nPos), float64(c.nNeg)
	s := structural{v10: make([]float64, 0, c.nPos), v01: make([]float64, 0, c.nNeg)}
	for i, k := range c.row {
		var above point // the vertex before k's
		if k > 0 {
			above = c.pts[k-1]
		}
		pt := c.pts[k]
		a, b := float64(pt.tp-above.tp), float64(pt.fp-above.fp)
		p0, n0 := float64(c.nPos-pt.tp), float64(c.nNeg-pt.fp)
		tz := p0 + n0 + (a+b+1)/2
		if c.pos[i] {
			s.v10 = append(s.v10, (tz-(p0+(a+1)/2))/n)
		} else {
			s.v01 = append(s.v01, 1-(tz-(n0+(b+1)/2))/p)
		}
	}
	return s, nil
}

// Bootstrap returns a percentile bootstrap interval at confidence level ∈ (0, 1) for any
// statistic of the curve, such as [Curve.TPRAtFPR] or [Curve.PartialAUC] at a fixed rate:
//
//	θ*_k = stat(curve of resample k),  k = 1 … reps
//	lo   = Q((1 − level)/2),  hi = Q((1 + level)/2)
//
// where Q is the empirical quantile of the reps values θ*_k, interpolated linearly between
// order statistics (R's quantile type 7, which pROC's ci(method = "bootstrap") uses). The
// resampling is stratified, as in pROC: each resample draws P rows with replacement from the
// P positives and N from the N negatives, so every resample has both classes and the class
// balance of the data (Efron and Tibshirani, "An Introduction to the Bootstrap", 1993,
// ch. 13). The same seed gives the same interval. Each resample's curve is counted from this
// one's vertices in O(n), without sorting.
//
// stat is called reps times, concurrently on up to GOMAXPROCS goroutines, so it must be safe
// for concurrent use (the curve's methods are); the curve it is given is rewritten for the
// next resample, so it must not keep it. Resample k draws from its own random stream, so the
// interval depends only on the data, reps, level and seed. reps must be in [1, 1 000 000], and
// about 1000 or more for a 95% interval whose ends are stable to the second decimal. Bad
// settings (a nil stat, reps or level out of range) give an [rocops.ErrConfig] error, a
// statistic that fails on a resample its error, and one that returns NaN or ±Inf or panics an
// [ErrStatistic] error (the panic does not escape, on whichever goroutine it happens). A curve
// of counts has no rows to resample: [rocops.ErrConfig].
func (c *Curve) Bootstrap(
	stat func(*Curve) (float64, error),
	reps int,
	level float64,
	seed uint64,
) (lo, hi float64, err error) {
	if err := checkBootstrap(stat == nil, reps, level); err != nil {
		return 0, 0, err
	}
	if err := c.rows("Bootstrap"); err != nil {
		return 0, 0, err
	}
	return percentile(reps, level, func() func(k int) (float64, error) {
		// This worker's resample: row i draws a row of its class, whose vertex is drawn[i].
		r := &Curve{
			nPos: c.nPos,
			nNeg: c.nNeg,
			pts:  make([]point, 0, len(c.pts)),
			row:  make([]int32, len(c.row)),
			pos:  c.pos,
		}
		drawn := make([]int32, len(c.row))
		tps, fps := make([]int32, len(c.pts)), make([]int32, len(c.pts)) // the rows drawn at each vertex
		draw := classDrawer(c.pos, seed)
		set := func(i, from int) {
			v := c.row[from]
			drawn[i] = v
			if c.pos[i] {
				tps[v]++
			} else {
				fps[v]++
			}
		}
		return func(k int) (float64, error) {
			clear(tps)
			clear(fps)
			draw(k, set)
			// The resample's vertices are this curve's that were drawn at least once.
			r.pts = r.pts[:0]
			var tp, fp int
			for v := range c.pts {
				if tps[v]+fps[v] == 0 {
					continue
				}
				tp, fp = tp+int(tps[v]), fp+int(fps[v])
				tps[v] = int32(len(r.pts)) // from now on: the vertex's index in the resample
				r.pts = append(r.pts, point{threshold: c.pts[v].threshold, tp: tp, fp: fp})
			}
			for i, v := range drawn {
				r.row[i] = tps[v]
			}
			return stat(r)
		}
	})
}
