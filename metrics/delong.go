package metrics

import (
	"errors"
	"math"
)

// ErrTooFew reports a class too small for a variance: DeLong's needs two of each.
var ErrTooFew = errors.New("metrics: DeLong's variance needs at least two positives and two negatives")

// DeLong returns the AUC of scores against labels (as [AUC]) and DeLong's estimate of its
// variance, as pROC's var(roc, method = "delong") computes it (DeLong, DeLong and
// Clarke-Pearson, "Comparing the Areas under Two or More Correlated Receiver Operating
// Characteristic Curves: A Nonparametric Approach", Biometrics 44(3), 1988):
//
//	V10_i = (1/N) · Σ_{j : y_j = 0} ψ(f_i, f_j)   for each positive i
//	V01_j = (1/P) · Σ_{i : y_i = 1} ψ(f_i, f_j)   for each negative j
//	AUC   = mean_i V10_i = mean_j V01_j
//	Var   = S10/P + S01/N
//
// where ψ(a, b) is 1 when a > b, ½ when a = b and 0 otherwise, P and N count the positives
// and negatives, and S10 and S01 are the sample variances (divided by P − 1 and N − 1) of the
// V10 and V01 "structural components". An approximate 95% interval is AUC ± 1.96·√Var.
//
// The components are read off midranks in O(n log n), as Sun and Xu ("Fast Implementation
// of DeLong's Algorithm for Comparing the Areas Under Correlated Receiver Operating
// Characteristic Curves", IEEE Signal Processing Letters 21(11), 2014) show, rather than by
// the O(P·N) pair count. Fewer than two rows of a class give an [ErrTooFew] error.
func DeLong(scores, labels []float64) (auc, variance float64, err error) {
	c, err := components(scores, labels)
	if err != nil {
		return 0, 0, err
	}
	auc, v10 := meanVar(c.v10)
	_, v01 := meanVar(c.v01)
	return auc, v10/float64(len(c.v10)) + v01/float64(len(c.v01)), nil
}

// pairedTest is Curve.DeLongPaired from the structural components of the two scorers, which it
// overwrites.
func pairedTest(ca, cb structural) (diff, variance, p float64) {
	for i := range ca.v10 {
		ca.v10[i] -= cb.v10[i]
	}
	for j := range ca.v01 {
		ca.v01[j] -= cb.v01[j]
	}
	diff, s10 := meanVar(ca.v10)
	_, s01 := meanVar(ca.v01)
	variance = s10/float64(len(ca.v10)) + s01/float64(len(ca.v01))
	switch {
	case variance > 0:
		p = math.Erfc(math.Abs(diff) / math.Sqrt(variance) / math.Sqrt2)
	case diff == 0:
		p = 1
	default:
		p = 0
	}
	return diff, variance, p
}

// structural holds DeLong's structural components: v10[k] belongs to the k-th positive and
// v01[k] to the k-th negative, both in input order, so that two scorers of the same rows
// line up.
type structural struct {
	v10, v01 []float64
}

// components validates the input and computes the structural components from its curve.
func components(scores, labels []float64) (structural, error) {
	c, err := NewCurve(scores, labels)
	if err != nil {
		return structural{}, err
	}
	return c.components()
}

// meanVar returns the mean and the sample variance (divided by len − 1) of x, of length at
// least 2, summed about the mean in two passes.
func meanVar(x []float64) (mean, variance float64) {
	var sum float64
	for _, v := range x {
		sum += v
	}
	mean = sum / float64(len(x))
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}
