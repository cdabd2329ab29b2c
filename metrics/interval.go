package metrics

import "math"

// Z975 is Φ⁻¹(0.975) ≈ 1.95996, the standard normal quantile of a two-sided 95% normal interval
// estimate ± Z975·√variance.
const Z975 = 1.959963984540054

// AUCInterval95 is the 95% normal interval of an AUC estimate auc of variance variance (such as
// DeLong's), auc ± Z975·√variance clipped to [0, 1], as pROC's ci.auc clips it.
func AUCInterval95(auc, variance float64) (lo, hi float64) {
	half := Z975 * math.Sqrt(variance)
	return max(0, auc-half), min(1, auc+half)
}
