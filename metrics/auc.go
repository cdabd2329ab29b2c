package metrics

// AUC returns the area under the ROC curve of scores against labels (1 = positive), the
// probability that a random positive scores above a random negative, ties counting ½:
//
//	AUC = 1/(P·N) · Σ_{i : y_i = 1} Σ_{j : y_j = 0} ( [f_i > f_j] + ½·[f_i = f_j] )
//
// where P and N count the positives and negatives and [·] is 1 when its condition holds,
// else 0. This Mann–Whitney statistic equals the trapezoidal area under [ROC]'s curve, which
// is how it is computed: one sort, O(n log n). It matches scikit-learn's roc_auc_score.
func AUC(scores, labels []float64) (float64, error) {
	r, err := rank(scores, labels)
	if err != nil {
		return 0, err
	}
	return r.auc(), nil
}

// auc is [AUC] of the ranked scores.
func (r ranked) auc() float64 { return trapezoids(r.vertices()) }

// trapezoids sums the trapezoids of the ROC curve v in counts, exactly while P·N < 2⁵². The
// heights tp + tp_prev are added in float64, which is exact below 2⁵³ and cannot wrap for
// counts of any size.
func trapezoids(v vertices) float64 {
	var twiceArea float64 // Σ Δfp·(tp + tp_prev), P·N times twice the area
	var prev point
	for p, ok := v.next(); ok; p, ok = v.next() {
		twiceArea += float64(p.fp-prev.fp) * (float64(p.tp) + float64(prev.tp))
		prev = p
	}
	return twiceArea / (2 * float64(v.nPos) * float64(v.nNeg))
}

// PartialAUC returns the area under the ROC curve up to false-positive rate maxFPR = β,
// 0 < β ≤ 1, standardised as McClish (1989, "Analyzing a portion of the ROC curve", Medical
// Decision Making 9(3)) proposed and as scikit-learn's roc_auc_score(max_fpr=β) computes it:
//
//	A    = ∫₀^β TPR(u) du
//	pAUC = ½·(1 + (A − β²/2) / (β − β²/2))
//
// where TPR(u) is [ROC]'s curve, cut at β by linear interpolation as in [TPRAtFPR], and A is
// summed by the trapezoid rule. β²/2 is the area under the chance diagonal and β the area
// under a perfect curve, so a random scorer gets ½ and a perfect one 1 (a scorer worse than
// chance gets less than ½). For β = 1 it is the plain [AUC]. It is computed as
//
//	pAUC = ½·(1 + (A/β − β/2) / (1 − β/2))
//
// with the mean TPR A/β summed directly, so that nothing underflows: the value is continuous
// down to the smallest β, where it tends to ½(1 + TPR(0)).
func PartialAUC(scores, labels []float64, maxFPR float64) (float64, error) {
	if err := checkRate("maxFPR", maxFPR, false); err != nil {
		return 0, err
	}
	r, err := rank(scores, labels)
	if err != nil {
		return 0, err
	}
	return partialArea(r.vertices(), maxFPR), nil
}

// partialArea is [PartialAUC] of the curve v for a valid maxFPR.
func partialArea(v vertices, maxFPR float64) float64 {
	if maxFPR == 1 {
		return trapezoids(v)
	}
	mean, _ := upTo(v, maxFPR)
	return 0.5 * (1 + (mean-maxFPR/2)/(1-maxFPR/2))
}
