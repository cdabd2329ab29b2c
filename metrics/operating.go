package metrics

import (
	"math"
	"sort"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// ThresholdAtFPR returns the operating point a user can deploy at false-positive rate fpr ∈
// [0, 1]: the smallest score threshold t such that flagging every row with score ≥ t keeps the
// false-positive rate at or below fpr, with the false-positive and true-positive rates
// achieved there:
//
//	t           = min{ f_i : FPR(f_i) ≤ fpr }
//	achievedFPR = FPR(t) = #{i : y_i = 0, f_i ≥ t} / N
//	tpr         = TPR(t) = #{i : y_i = 1, f_i ≥ t} / P
//
// with P positives and N negatives. Tied scores are flagged together, so the achieved rate
// can be well below fpr when a block of tied negatives straddles it; lowering t to the next
// smaller distinct score would exceed fpr (or there is none). t is always one of the scores,
// except when even the highest score gives a rate above fpr: then no threshold at a score
// qualifies and the answer is t = +Inf, which flags nothing, with both rates 0. In particular:
//
//   - fpr = 1 gives the lowest score, which flags every row (rates 1 and 1);
//   - fpr < 1/N gives the lowest score above every negative, or +Inf when no positive scores
//     above every negative;
//   - all scores tied give +Inf for fpr < 1 and the common score for fpr = 1.
//
// Unlike [TPRAtFPR], nothing is interpolated: interpolating between two vertices of the ROC
// curve means flagging a random share of a block of tied rows, which a deployed rule cannot
// do.
func ThresholdAtFPR(scores, labels []float64, fpr float64) (t, achievedFPR, tpr float64, err error) {
	if err := checkRate("fpr", fpr, true); err != nil {
		return 0, 0, 0, err
	}
	r, err := rank(scores, labels)
	if err != nil {
		return 0, 0, 0, err
	}
	t, achievedFPR, tpr = thresholdAt(r.vertices(), fpr)
	return t, achievedFPR, tpr, nil
}

// thresholdAt is [ThresholdAtFPR] of the curve v for a valid fpr.
func thresholdAt(v vertices, fpr float64) (t, achievedFPR, tpr float64) {
	nPos, nNeg := float64(v.nPos), float64(v.nNeg)
	t = math.Inf(1)
	// The false-positive rate grows as the threshold falls, so the answer is the last vertex
	// within the budget. The rate is compared as the caller computes it, fp/N, not as
	// fp ≤ fpr·N, whose rounding could admit a rate just above fpr.
	for p, ok := v.next(); ok; p, ok = v.next() {
		if float64(p.fp)/nNeg > fpr {
			break
		}
		t, achievedFPR, tpr = p.threshold, float64(p.fp)/nNeg, float64(p.tp)/nPos
	}
	return t, achievedFPR, tpr
}

// FPRAtTPR returns the smallest false-positive rate at which the ROC curve (see [ROC]), its
// vertices joined by straight lines, reaches a true-positive rate of at least tpr ∈ [0, 1]:
//
//	FPRAtTPR(r) = min{ u : TPR(u) ≥ r }
//
// where TPR(u) is the polyline. This is the screening user's figure — how many negatives
// must be flagged to catch a share r of the positives — and the mirror of [TPRAtFPR]: where
// the curve runs horizontally at height r, it is the left end of that run. FPRAtTPR(0) is 0,
// and FPRAtTPR(1) is the false-positive rate at the lowest positive score.
func FPRAtTPR(scores, labels []float64, tpr float64) (float64, error) {
	if err := checkTPR(tpr); err != nil {
		return 0, err
	}
	r, err := rank(scores, labels)
	if err != nil {
		return 0, err
	}
	return fprAt(r.vertices(), tpr), nil
}

// fprAt is [FPRAtTPR] of the curve v for a valid tpr.
func fprAt(v vertices, tpr float64) float64 {
	if tpr == 0 {
		return 0
	}
	nPos, nNeg := float64(v.nPos), float64(v.nNeg)
	var f0, t0 float64 // the previous vertex, which is below tpr
	for p, ok := v.next(); ok; p, ok = v.next() {
		f, t := float64(p.fp)/nNeg, float64(p.tp)/nPos
		if t >= tpr {
			// t > t0 because t0 < tpr ≤ t: the segment rises and crosses tpr once.
			return f0 + (f-f0)*(tpr-t0)/(t-t0)
		}
		f0, t0 = f, t
	}
	return 1 // not reached: the last vertex has TPR 1 ≥ tpr
}

// checkTPR returns an [rocops.ErrConfig] error unless tpr lies in [0, 1].
func checkTPR(tpr float64) error {
	if !(tpr >= 0 && tpr <= 1) {
		return check.Errorf(pkg, rocops.ErrConfig, "true-positive rate tpr = %v, want it in [0, 1]", tpr)
	}
	return nil
}

// ratesAt is RatesAt of the vertices pts (a [Curve]'s, in descending threshold)
// of a curve with nPos positives and nNeg negatives.
func ratesAt(pts []point, nPos, nNeg int, t float64) (fpr, tpr float64) {
	// The vertices with threshold ≥ t come first; the last of them counts the flagged rows.
	k := sort.Search(len(pts), func(k int) bool { return !(pts[k].threshold >= t) })
	if k == 0 {
		return 0, 0
	}
	return float64(pts[k-1].fp) / float64(nNeg), float64(pts[k-1].tp) / float64(nPos)
}
