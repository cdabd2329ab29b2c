package metrics

import (
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// point is one vertex of the ROC curve, in counts: tp positives and fp negatives score at or
// above threshold.
type point struct {
	threshold float64
	tp, fp    int
}

// vertices walks an ROC curve's vertices after (0, 0), one per distinct score in descending
// order of score, ending at (N, P): off a [Curve]'s list, or off ranked scores as it goes.
// The functions that read a curve take it by value and walk their copy, which allocates
// nothing.
type vertices struct {
	nPos, nNeg int
	list       []point   // a Curve's vertices, when not nil
	pos, neg   []float64 // else the ranked scores: pos[i:] and neg[j:] score at or above the last vertex
	i, j       int       // how far the walk has come: into list, or into pos and neg
}

// vertices starts a walk down the ranked scores.
func (r ranked) vertices() vertices {
	return vertices{nPos: len(r.pos), nNeg: len(r.neg), pos: r.pos, neg: r.neg, i: len(r.pos), j: len(r.neg)}
}

// next returns the next vertex, and false after the last one.
func (v *vertices) next() (point, bool) {
	if v.list != nil {
		if v.i == len(v.list) {
			return point{}, false
		}
		v.i++
		return v.list[v.i-1], true
	}
	i, j := v.i, v.j
	var t float64
	switch {
	case i == 0 && j == 0:
		return point{}, false
	case i == 0:
		t = v.neg[j-1]
	case j == 0:
		t = v.pos[i-1]
	default:
		t = max(v.pos[i-1], v.neg[j-1])
	}
	for i > 0 && v.pos[i-1] == t {
		i--
	}
	for j > 0 && v.neg[j-1] == t {
		j--
	}
	v.i, v.j = i, j
	return point{threshold: t, tp: v.nPos - i, fp: v.nNeg - j}, true
}

// ROC returns the receiver operating characteristic curve of scores against labels (1 =
// positive): the points of scikit-learn's roc_curve(y, scores, drop_intermediate=False).
//
// With P positives and N negatives, point k > 0 belongs to the k-th largest distinct score
// t_k and counts the rows scoring at least t_k:
//
//	thresholds[k] = t_k
//	fpr[k]        = #{i : y_i = 0, f_i ≥ t_k} / N
//	tpr[k]        = #{i : y_i = 1, f_i ≥ t_k} / P
//
// Point 0 is (0, 0) with threshold +Inf (no score is at or above it), as in scikit-learn 1.3
// and later; older versions used t_1 + 1 there. Thresholds are strictly descending, fpr and
// tpr non-decreasing, and the last point is (1, 1).
func ROC(scores, labels []float64) (fpr, tpr, thresholds []float64, err error) {
	r, err := rank(scores, labels)
	if err != nil {
		return nil, nil, nil, err
	}
	fpr, tpr, thresholds = rocOf(r.vertices(), len(scores)+1)
	return fpr, tpr, thresholds, nil
}

// rocOf lists the points of [ROC] of the curve v, which has at most n of them.
func rocOf(v vertices, n int) (fpr, tpr, thresholds []float64) {
	fpr = append(make([]float64, 0, n), 0)
	tpr = append(make([]float64, 0, n), 0)
	thresholds = append(make([]float64, 0, n), math.Inf(1))
	nPos, nNeg := float64(v.nPos), float64(v.nNeg)
	for p, ok := v.next(); ok; p, ok = v.next() {
		fpr = append(fpr, float64(p.fp)/nNeg)
		tpr = append(tpr, float64(p.tp)/nPos)
		thresholds = append(thresholds, p.threshold)
	}
	return fpr, tpr, thresholds
}

// upTo is the package function upTo of the ranked scores.
func (r ranked) upTo(x float64) (mean, tprAtX float64) { return upTo(r.vertices(), x) }

// upTo returns the mean true-positive rate of the ROC curve v over false-positive rates
// [0, x], (1/x)·∫₀^x TPR(u) du (0 < x ≤ 1; 0 when x = 0), and the curve's true-positive rate
// at x. Both cut the curve the way scikit-learn's roc_auc_score(max_fpr=x) does: between the
// last vertex with FPR ≤ x and the next one, by linear interpolation, with the area summed by
// the trapezoid rule. Each trapezoid's width is divided by x before it is multiplied, so the
// mean does not underflow for the tiniest x: it tends to the TPR at 0 as x → 0.
func upTo(v vertices, x float64) (mean, tprAtX float64) {
	nPos, nNeg := float64(v.nPos), float64(v.nNeg)
	share := func(from, to float64) float64 { // (to − from)/x, the share of [0, x]
		if x == 0 {
			return 0
		}
		return (to - from) / x
	}
	var f0, t0 float64 // the previous vertex
	for p, ok := v.next(); ok; p, ok = v.next() {
		f, t := float64(p.fp)/nNeg, float64(p.tp)/nPos
		if f > x {
			tx := (t-t0)/(f-f0)*(x-f0) + t0
			return mean + share(f0, x)*(t0+tx)/2, tx
		}
		mean += share(f0, f) * (t0 + t) / 2
		f0, t0 = f, t
	}
	return mean, t0
}

// TPRAtFPR returns the true-positive rate of the ROC curve (see [ROC]) at false-positive rate
// fpr ∈ [0, 1], interpolated linearly between the last point with FPR ≤ fpr and the next
// one, exactly where scikit-learn's roc_auc_score(max_fpr=fpr) cuts the curve. Where the
// curve rises vertically at fpr, this is the top of the rise: the largest TPR reachable
// without exceeding fpr, which at fpr = 0 is the share of positives scoring above every
// negative.
func TPRAtFPR(scores, labels []float64, fpr float64) (float64, error) {
	if err := checkRate("fpr", fpr, true); err != nil {
		return 0, err
	}
	r, err := rank(scores, labels)
	if err != nil {
		return 0, err
	}
	_, t := upTo(r.vertices(), fpr)
	return t, nil
}

// ThinROC thins a ROC curve (fpr and tpr of equal length, both non-decreasing in [0, 1], as [ROC]
// and [Curve.ROC] return them) to at most maxPoints ≥ 2 of its points for plotting. It keeps the
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
