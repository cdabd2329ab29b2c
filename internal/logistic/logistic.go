// Package logistic holds the logistic function σ(z) = 1/(1 + e^{−z}) and its integral, the
// softplus log(1 + e^z), and the logistic loss built from them, in the forms that neither
// overflow nor lose precision for any finite z. They are written once here for cross-entropy,
// the pairwise surrogates, the diagnostics and the tests.
package logistic

import "math"

// Sigmoid returns σ(z) = 1/(1 + e^{−z}), computed as 1/(1 + e^{−z}) for z ≥ 0 and as
// e^z/(1 + e^z) for z < 0, so that no exponential overflows.
func Sigmoid(z float64) float64 {
	_, s := SoftplusSigmoid(z)
	return s
}

// Softplus returns log(1 + e^z) = max(z, 0) + log1p(e^{−|z|}), which is exact to rounding
// both where e^z overflows and where it underflows.
func Softplus(z float64) float64 {
	sp, _ := SoftplusSigmoid(z)
	return sp
}

// SoftplusSigmoid returns Softplus(z) and Sigmoid(z) from one exponential, e = e^{−|z|}:
//
//	softplus(z) = max(z, 0) + log1p(e),   σ(z) = 1/(1 + e) for z ≥ 0, e/(1 + e) for z < 0.
func SoftplusSigmoid(z float64) (softplus, sigmoid float64) {
	e := math.Exp(-math.Abs(z))
	softplus = max(z, 0) + math.Log1p(e)
	if z >= 0 {
		return softplus, 1 / (1 + e)
	}
	return softplus, e / (1 + e)
}

// LogLoss returns the logistic loss of the logit z for a label y of 0 or 1, softplus(z) − y·z
// (−log(1 − σ(z)) for y = 0, −log σ(z) for y = 1), and σ(z), from one exponential
// e = e^{−|z|}. The loss is computed as softplus(z) or softplus(−z), max(±z, 0) + log1p(e),
// so that it keeps its relative precision where it is tiny (softplus(z) − z would cancel to
// 0 for a confident, right positive); σ(z) is SoftplusSigmoid's to the bit.
func LogLoss(z, y float64) (loss, sigmoid float64) {
	e := math.Exp(-math.Abs(z))
	u := z
	if y == 1 {
		u = -z
	}
	loss = max(u, 0) + math.Log1p(e)
	if z >= 0 {
		return loss, 1 / (1 + e)
	}
	return loss, e / (1 + e)
}
