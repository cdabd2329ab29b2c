package pairwise

// square is the exact all-pairs square loss in O(n). Expanding every pair around the class
// means μ1, μ0 (the cross terms sum to zero over the pairs) gives
//
//	L = V1 + V0 + (m − μ1 + μ0)²
//	∂L/∂f_i = −(2/|B1|)(m − f_i + μ0)   for i ∈ B1,
//	∂L/∂f_j = +(2/|B0|)(m − μ1 + f_j)   for j ∈ B0,
//
// where V_c = (1/|B_c|) Σ_{k∈B_c} (f_k − μ_c)² is the variance of class c. The scores are
// centred first (batch.centred), so μ1 and μ0 are of the size of the score differences and
// m − (μ1 − μ0) does not cancel.
func square(m float64, b batch, grad []float64) float64 {
	mu1, v1 := meanVar(b, 1)
	mu0, v0 := meanVar(b, 0)
	if grad != nil {
		a1, a0 := 2/float64(b.n1), 2/float64(b.n0)
		for k, f := range b.scores {
			if b.labels[k] == 1 {
				grad[k] = -a1 * (m - f + mu0)
			} else {
				grad[k] = a0 * (m - mu1 + f)
			}
		}
	}
	d := m - (mu1 - mu0)
	return v1 + v0 + d*d
}

// meanVar returns the mean and the population variance of the scores labelled label, in
// two passes.
func meanVar(b batch, label float64) (mean, variance float64) {
	n := 0
	for k, f := range b.scores {
		if b.labels[k] == label {
			mean += f
			n++
		}
	}
	mean /= float64(n)
	for k, f := range b.scores {
		if b.labels[k] == label {
			variance += (f - mean) * (f - mean)
		}
	}
	return mean, variance / float64(n)
}
