package metrics

import (
	"cmp"
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

// NewCurveFromCounts returns the [Curve] of a scored sample summarised by its counts per distinct
// score: everything the ROC curve, the AUC, DeLong's variance and every operating point depend
// on. Counts from shards of the data add up (the counts of a score are the sums of its counts in
// each shard), so a distributed job can count its shards apart, merge the counts, and get
// figures equal to the in-process ones on all the rows: the curve's AUC equals [AUC],
// [Curve.DeLong] [DeLong], and so on for every method, on the rows the counts describe. It
// keeps no row, only the vertices: memory is 24 bytes per distinct score, whatever the number
// of rows. What needs the rows themselves, [Curve.DeLongPaired] and [Curve.Bootstrap], is an
// error on such a curve.
//
// It sorts a copy of counts by score and adds the counts of equal scores (a score may appear
// any number of times, in any order; +0 and −0 are one score). A NaN or infinite score gives an
// [rocops.ErrNonFinite] error, a negative count, or counts totalling more rows than an int
// holds, an [rocops.ErrRange] error, no rows at all [rocops.ErrEmpty], and no positive or no
// negative row [rocops.ErrNoPositives] or [rocops.ErrNoNegatives].
func NewCurveFromCounts(counts []ScoreCount) (*Curve, error) {
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
	c := &Curve{pts: make([]point, len(merged)), nPos: int(nPos), nNeg: int(nNeg)}
	var tp, fp int
	for k := range merged {
		s := merged[len(merged)-1-k]
		tp, fp = tp+int(s.Pos), fp+int(s.Neg)
		c.pts[k] = point{threshold: s.Score, tp: tp, fp: fp}
	}
	return c, nil
}

// Counts returns the curve's counts per distinct score, ascending in score, in a new slice: the
// merged counts of [NewCurveFromCounts], or the rows of [NewCurve] counted by score.
func (c *Curve) Counts() []ScoreCount {
	out := make([]ScoreCount, len(c.pts))
	var above point // the vertex above the current one
	for k, pt := range c.pts {
		out[len(out)-1-k] = ScoreCount{Score: pt.threshold, Pos: int64(pt.tp - above.tp), Neg: int64(pt.fp - above.fp)}
		above = pt
	}
	return out
}

// countsDeLong is [Curve.DeLong] from the counts alone. The structural components are functions of
// a row's score and class, so each distinct score t, held by a positives and b negatives with P₀
// positives and N₀ negatives below it, contributes a copies of one V10 and b copies of one V01:
//
//	V10(t) = (N₀ + b/2) / N,   V01(t) = 1 − (P₀ + a/2) / P
//	S10    = Σ_t a·(V10(t) − AUC)² / (P − 1),   S01 = Σ_t b·(V01(t) − AUC)² / (N − 1)
//	Var    = S10/P + S01/N
//
// with P positives and N negatives in all, of at least two each.
func (c *Curve) countsDeLong() (auc, variance float64) {
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
	return auc, s10/(p-1)/p + s01/(n-1)/n
}
