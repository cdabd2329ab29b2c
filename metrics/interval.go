package metrics

import (
	"math"

	"github.com/rocops/rocops/internal/stats"
)

// AUCInterval95 is the 95% normal interval of an AUC estimate auc of variance variance (such as
// DeLong's), auc ± z·√variance with z = Φ⁻¹(0.975) ≈ 1.95996, clipped to [0, 1], as pROC's ci.auc clips it.
func AUCInterval95(auc, variance float64) (lo, hi float64) {
	half := stats.Z975 * math.Sqrt(variance)
	return max(0, auc-half), min(1, auc+half)
}
