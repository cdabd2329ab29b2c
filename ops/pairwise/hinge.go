package pairwise

import "github.com/rocops/rocops/internal/floats"

// hinge is the exact all-pairs hinge (squared = false) or squared hinge (squared = true) loss
// in O(n log n), from one sort of all n scores.
//
// Pair (i, j) is active, ℓ > 0 or w > 0, when x = f_i − f_j < m, that is when f_i < g_j with
// g_j = f_j + m. Sort the positives by f_i and the negatives by g_j together, a negative
// before a positive of equal value, so that a pair exactly at the kink, f_i = g_j, is inactive
// (the subgradient convention of Weight). The active partners of a negative j are then the
// positives before it, A_j = {i ∈ B1 : f_i < g_j}, and those of a positive i the negatives
// after it, D_i = {j ∈ B0 : g_j > f_i}. With P = |B1|·|B0| and
//
//	U_j = Σ_{i∈A_j} (g_j − f_i),   Q_j = Σ_{i∈A_j} (g_j − f_i)²,   V_i = Σ_{j∈D_i} (g_j − f_i),
//
//	hinge:         L = (1/P) Σ_j U_j,   ∂L/∂f_j = |A_j|/P,   ∂L/∂f_i = −|D_i|/P,
//	squared hinge: L = (1/P) Σ_j Q_j,   ∂L/∂f_j = 2U_j/P,    ∂L/∂f_i = −2V_i/P.
//
// An upward sweep carries U, Q and the count of the positives passed from one value to the
// next: a step up by δ ≥ 0 adds |A|·δ to U and 2δU + |A|δ² to Q. A downward sweep carries V
// and the count of the negatives passed the same way. Every update adds non-negative terms,
// so nothing cancels however large the scores are next to their gaps.
func hinge(squared bool, m float64, b batch, grad []float64) float64 {
	items := make([]item, len(b.scores))
	// Negatives first: the stable sort keeps them before positives of equal value.
	neg, pos := 0, b.n0
	for k, f := range b.scores {
		if b.labels[k] == 1 {
			items[pos] = item{key: floats.OrderKey(f), ref: k<<1 | 1}
			pos++
		} else {
			items[neg] = item{key: floats.OrderKey(f + m), ref: k << 1}
			neg++
		}
	}
	items = radixSort(items, make([]item, len(items)))

	var loss, count, u, q float64 // count, U and Q of the positives below the current value
	at := items[0].value()
	for _, it := range items {
		v := it.value()
		d := v - at
		q += d * (2*u + count*d)
		u += count * d
		at = v
		switch {
		case it.positive():
			count++
		case squared:
			loss += q
			if grad != nil {
				grad[it.index()] = 2 * u
			}
		default:
			loss += u
			if grad != nil {
				grad[it.index()] = count
			}
		}
	}
	p := b.pairs()
	if grad != nil {
		var count, gaps float64 // count and V of the negatives above the current value
		at = items[len(items)-1].value()
		for k := len(items) - 1; k >= 0; k-- {
			it := items[k]
			v := it.value()
			gaps += count * (at - v)
			at = v
			switch {
			case !it.positive():
				count++
			case squared:
				grad[it.index()] -= 2 * gaps
			default:
				grad[it.index()] -= count
			}
		}
		for k := range grad {
			grad[k] /= p
		}
	}
	return loss / p
}
