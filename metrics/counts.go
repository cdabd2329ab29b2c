package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// ScoreCount counts the rows that share one score: Pos positives and Neg negatives score
// exactly Score.
type ScoreCount struct {
	Score    float64
	Pos, Neg int64
}

// Counts is a scored sample summarised by its counts per distinct score: everything the ROC
// curve, the AUC, DeLong's variance and every operating point depend on. Counts from shards of
// the data add up (the counts of a score are the sums of its counts in each shard), so a
// distributed job can count its shards apart, merge the counts, and hand them to [NewCounts]
// for figures equal to the in-process ones on all the rows: [Counts.AUC] equals [AUC],
// [Counts.DeLong] [DeLong], [Counts.PartialAUC] [PartialAUC], [Counts.TPRAtFPR] [TPRAtFPR],
// [Counts.ThresholdAtFPR] [ThresholdAtFPR] and [Counts.ROC] [ROC] on the rows the counts
// describe. It walks the same vertices as a [Curve] of those rows, but keeps no row: memory is
// 24 bytes per distinct score, whatever the number of rows (and DeLong's components are summed
// by groups of tied rows).
type Counts struct {
	pts        []point // the curve's vertices after (0, 0), one per distinct score, from the highest down
	nPos, nNeg int
}

// NewCounts merges counts into a Counts: it sorts a copy of them by score and adds the counts
// of equal scores (a score may appear any number of times, in any order; +0 and −0 are one
// score). A NaN or infinite score gives an [rocops.ErrNonFinite] error, a negative count, or
// counts totalling more rows than an int holds, an [rocops.ErrRange] error, no rows at all [rocops.ErrEmpty], and no positive or no negative row
// [rocops.ErrNoPositives] or [rocops.ErrNoNegatives].
func NewCounts(counts []ScoreCount) (*Counts, error) {
	asc := make([]ScoreCount, 0, len(counts))
	var nPos, nNeg int64
	for _, c := range counts {
		if math.IsNaN(c.Score) || math.IsInf(c.Score, 0) {
			return nil, check.Errorf(pkg, rocops.ErrNonFinite, "score %v", c.Score)
		}
		if c.Pos < 0 || c.Neg < 0 {
			return nil, check.Errorf(pkg, rocops.ErrRange, "score %v has %d positives and %d negatives; counts are never negative", c.Score, c.Pos, c.Neg)
		}
		if c.Pos == 0 && c.Neg == 0 {
			continue
		}
		if c.Score == 0 {
			c.Score = 0 // −0 and +0 are one score, as == has it
		}
		if c.Pos > math.MaxInt-nPos || c.Neg > math.MaxInt-nNeg {
			return nil, check.Errorf(pkg, rocops.ErrRange, "the counts up to score %v total more than %d positives or negatives", c.Score, math.MaxInt)
		}
		nPos += c.Pos
		nNeg += c.Neg
		asc = append(asc, c)
	}
	if nPos+nNeg == 0 {
		return nil, check.Errorf(pkg, rocops.ErrEmpty, "no rows counted")
	}
	if nPos > math.MaxInt-nNeg {
		return nil, check.Errorf(pkg, rocops.ErrRange, "%d positives and %d negatives total more than %d rows", nPos, nNeg, math.MaxInt)
	}
	if err := check.Classes(pkg, int(nPos), int(nNeg)); err != nil {
		return nil, err
	}
	slices.SortFunc(asc, func(a, b ScoreCount) int { return cmp.Compare(a.Score, b.Score) })
	merged := asc[:1]
	for _, c := range asc[1:] {
		if last := &merged[len(merged)-1]; last.Score == c.Score {
			last.Pos += c.Pos
			last.Neg += c.Neg
		} else {
			merged = append(merged, c)
		}
	}
	c := &Counts{pts: make([]point, len(merged)), nPos: int(nPos), nNeg: int(nNeg)}
	var tp, fp int
	for k := range merged {
		s := merged[len(merged)-1-k]
		tp, fp = tp+int(s.Pos), fp+int(s.Neg)
		c.pts[k] = point{threshold: s.Score, tp: tp, fp: fp}
	}
	return c, nil
}

// N returns the number of rows counted.
func (c *Counts) N() int { return c.nPos + c.nNeg }

// Positives returns the number of positive rows counted.
func (c *Counts) Positives() int { return c.nPos }

// Distinct returns the number of distinct scores.
func (c *Counts) Distinct() int { return len(c.pts) }

// Scores returns the merged counts, one per distinct score, ascending in score, in a new slice.
func (c *Counts) Scores() []ScoreCount {
	out := make([]ScoreCount, len(c.pts))
	var above point // the vertex above the current one
	for k, pt := range c.pts {
		out[len(out)-1-k] = ScoreCount{Score: pt.threshold, Pos: int64(pt.tp - above.tp), Neg: int64(pt.fp - above.fp)}
		above = pt
	}
	return out
}

// vertices starts a walk down c's ROC curve.
func (c *Counts) vertices() vertices { return vertices{nPos: c.nPos, nNeg: c.nNeg, list: c.pts} }

// AUC returns the area under the ROC curve, ties counting ½, as [AUC] does.
func (c *Counts) AUC() float64 { return trapezoids(c.vertices()) }

// PartialAUC returns the McClish-standardised partial area up to false-positive rate maxFPR
// ∈ (0, 1], as [PartialAUC] does.
func (c *Counts) PartialAUC(maxFPR float64) (float64, error) {
	if err := checkRate("maxFPR", maxFPR, false); err != nil {
		return 0, err
	}
	return partialArea(c.vertices(), maxFPR), nil
}

// TPRAtFPR returns the true-positive rate of the ROC curve at false-positive rate fpr ∈ [0,
// 1], linearly interpolated, as [TPRAtFPR] does.
func (c *Counts) TPRAtFPR(fpr float64) (float64, error) {
	if err := checkRate("fpr", fpr, true); err != nil {
		return 0, err
	}
	_, t := upTo(c.vertices(), fpr)
	return t, nil
}

// ThresholdAtFPR returns the smallest score threshold whose false-positive rate is at most
// fpr ∈ [0, 1], with the rates achieved there, as [ThresholdAtFPR] does.
func (c *Counts) ThresholdAtFPR(fpr float64) (t, achievedFPR, tpr float64, err error) {
	if err := checkRate("fpr", fpr, true); err != nil {
		return 0, 0, 0, err
	}
	t, achievedFPR, tpr = thresholdAt(c.vertices(), fpr)
	return t, achievedFPR, tpr, nil
}

// RatesAt returns the false-positive and true-positive rates of the rule "flag score ≥ t":
//
//	fpr = #{i : y_i = 0, f_i ≥ t} / N,  tpr = #{i : y_i = 1, f_i ≥ t} / P
//
// with P positives and N negatives: how a threshold chosen on other rows (by [ThresholdAtFPR]
// on a validation part, say) performs on these. t = +Inf, and NaN, flag nothing (rates 0 and
// 0); t = −Inf flags every row.
func (c *Counts) RatesAt(t float64) (fpr, tpr float64) {
	return ratesAt(c.pts, c.nPos, c.nNeg, t)
}

// ROC returns the points of the ROC curve, as [ROC] does: (0, 0) with threshold +Inf, then one
// point per distinct score in descending order, ending at (1, 1).
func (c *Counts) ROC() (fpr, tpr, thresholds []float64) { return rocOf(c.vertices(), len(c.pts)+1) }

// DeLong returns the AUC and DeLong's estimate of its variance, as [DeLong] does, from the
// counts alone. The structural components are functions of a row's score and class, so each
// distinct score t, held by a positives and b negatives with P₀ positives and N₀ negatives
// below it, contributes a copies of one V10 and b copies of one V01:
//
//	V10(t) = (N₀ + b/2) / N,   V01(t) = 1 − (P₀ + a/2) / P
//	S10    = Σ_t a·(V10(t) − AUC)² / (P − 1),   S01 = Σ_t b·(V01(t) − AUC)² / (N − 1)
//	Var    = S10/P + S01/N
//
// with P positives and N negatives in all. Fewer than two rows of a class give an
// [ErrTooFew] error.
func (c *Counts) DeLong() (auc, variance float64, err error) {
	if c.nPos < 2 || c.nNeg < 2 {
		return 0, 0, fmt.Errorf("%w: %d positives, %d negatives", ErrTooFew, c.nPos, c.nNeg)
	}
	p, n := float64(c.nPos), float64(c.nNeg)
	// Two passes, as meanVar: the mean of the V10 first, then the squares about it.
	components := func(do func(v10, a, v01, b float64)) {
		var above point // the vertex above the current one
		for _, pt := range c.pts {
			a, b := float64(pt.tp-above.tp), float64(pt.fp-above.fp)
			p0, n0 := float64(c.nPos-pt.tp), float64(c.nNeg-pt.fp) // the rows below this score
			do((n0+b/2)/n, a, 1-(p0+a/2)/p, b)
			above = pt
		}
	}
	var sum float64
	components(func(v10, a, _, _ float64) { sum += a * v10 })
	auc = sum / p
	var s10, s01 float64
	components(func(v10, a, v01, b float64) {
		s10 += a * (v10 - auc) * (v10 - auc)
		s01 += b * (v01 - auc) * (v01 - auc)
	})
	return auc, s10/(p-1)/p + s01/(n-1)/n, nil
}

// ThinROC thins a ROC curve (fpr and tpr of equal length, both non-decreasing in [0, 1], as [ROC]
// and [Counts.ROC] return them) to at most maxPoints ≥ 2 of its points for plotting. It keeps the
// first and the last point exactly and, walking the curve, every point at least
//
//	δ = 2/(maxPoints − 2)
//
// from the last point kept in the L1 distance Δfpr + Δtpr. The curve's whole L1 length is
// 2 (fpr and tpr each rise from 0 to 1), so at most maxPoints − 2 points are kept between the
// ends, and every stretch of the curve longer than δ keeps a point: steep and flat parts alike
// stay as sharp as the plot can show. A curve of at most maxPoints points comes back whole
// (as copies).
//
// Errors: fpr and tpr of different lengths, [rocops.ErrLength]; maxPoints < 2,
// [rocops.ErrConfig]; a rate that is NaN, outside [0, 1] or below the one before it, which no ROC
// curve has, [rocops.ErrRange] naming it.
func ThinROC(fpr, tpr []float64, maxPoints int) (thinFPR, thinTPR []float64, err error) {
	if len(fpr) != len(tpr) {
		return nil, nil, check.Errorf(pkg, rocops.ErrLength, "%d false-positive rates, %d true-positive rates", len(fpr), len(tpr))
	}
	if maxPoints < 2 {
		return nil, nil, check.Errorf(pkg, rocops.ErrConfig, "maxPoints = %d, want at least 2", maxPoints)
	}
	for _, rates := range []struct {
		name string
		x    []float64
	}{{"fpr", fpr}, {"tpr", tpr}} {
		for i, x := range rates.x {
			switch {
			case !(x >= 0 && x <= 1):
				return nil, nil, check.Errorf(pkg, rocops.ErrRange, "%s[%d] = %v, want a rate in [0, 1]", rates.name, i, x)
			case i > 0 && x < rates.x[i-1]:
				return nil, nil, check.Errorf(pkg, rocops.ErrRange, "%s[%d] = %v after %v; a ROC curve's rates never fall",
					rates.name, i, x, rates.x[i-1])
			}
		}
	}
	if len(fpr) <= maxPoints {
		return slices.Clone(fpr), slices.Clone(tpr), nil
	}
	step := 2 / float64(maxPoints-2)
	last := len(fpr) - 1
	thinFPR = append(make([]float64, 0, maxPoints), fpr[0])
	thinTPR = append(make([]float64, 0, maxPoints), tpr[0])
	kept := 0
	for i := 1; i < last; i++ {
		if (fpr[i]-fpr[kept])+(tpr[i]-tpr[kept]) >= step && len(thinFPR) < maxPoints-1 {
			thinFPR = append(thinFPR, fpr[i])
			thinTPR = append(thinTPR, tpr[i])
			kept = i
		}
	}
	return append(thinFPR, fpr[last]), append(thinTPR, tpr[last]), nil
}
