package pairwise

import "math"

// exponential is the exact all-pairs exponential loss in O(n). The pair term factorises,
// e^(−(f_i − f_j)) = e^(−f_i)·e^(f_j), so the double sum is a product of two class sums. In
// logs, with A = log Σ_{i∈B1} e^(−f_i), Z = log Σ_{j∈B0} e^(f_j) and N = log(|B1|·|B0|):
//
//	L = exp(A + Z − N)
//	∂L/∂f_i = −exp(−f_i + Z − N)   for i ∈ B1,
//	∂L/∂f_j = +exp(f_j + A − N)    for j ∈ B0.
//
// A and Z are log-sum-exps, finite even when one of their terms overflows alone; only a loss
// beyond the float64 range overflows. Each |∂L/∂f| is at most L, so a finite loss has a
// finite gradient.
func exponential(b batch, grad []float64) float64 {
	a := logSumExp(b, 1, -1)
	z := logSumExp(b, 0, 1)
	n := math.Log(b.pairs())
	if grad != nil {
		for k, f := range b.scores {
			if b.labels[k] == 1 {
				grad[k] = -math.Exp(-f + z - n)
			} else {
				grad[k] = math.Exp(f + a - n)
			}
		}
	}
	return math.Exp(a + z - n)
}

// logSumExp returns log Σ_{k : y_k = label} e^(sign·f_k), shifted by the largest exponent so
// that no term overflows.
func logSumExp(b batch, label, sign float64) float64 {
	top := math.Inf(-1)
	for k, f := range b.scores {
		if b.labels[k] == label {
			top = max(top, sign*f)
		}
	}
	var s float64
	for k, f := range b.scores {
		if b.labels[k] == label {
			s += math.Exp(sign*f - top)
		}
	}
	return top + math.Log(s)
}
