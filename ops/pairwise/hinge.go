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
//
// In floating point g_j is held as the rounded sum ĝ_j = fl(f_j + m) and its exact rounding
// error e_j = g_j − ĝ_j (TwoSum), so that a margin below the spacing of the scores is not
// lost. The sort uses ĝ_j; among values equal to ĝ_j a negative with e_j > 0 goes after the
// positives (they are active, f_i = ĝ_j < g_j) and one with e_j ≤ 0 before them. The sweeps
// measure from ĝ_j and add the error: U_j = Û_j + |A_j|·e_j, Q_j = Q̂_j + 2e_j·Û_j + |A_j|·e_j²
// and V_i = V̂_i + Σ_{j∈D_i} e_j. The scores arrive centred (batch.centred), where e_j is
// usually 0.
func hinge(squared bool, m float64, b batch, grad []float64) float64 {
	items := make([]item, len(b.scores))
	// rest[k] is the rounding error of g_k = f_k + m for a negative k: g_k + rest[k] is exact.
	rest := make([]float64, len(b.scores))
	hingeItems(m, b, items, rest)
	items = radixSort(items, make([]item, len(items)))
	loss := sweepUp(squared, items, rest, grad)
	p := b.pairs()
	if grad != nil {
		sweepDown(squared, items, rest, grad)
		for k := range grad {
			grad[k] /= p
		}
	}
	return loss / p
}

// hingeItems fills items, for hinge's sort, with every positive i at f_i and every negative j
// at ĝ_j = fl(f_j + m), and rest[j] with e_j (g_j = ĝ_j + e_j exactly) for every negative j.
// The items of the negatives with e_j ≤ 0 come first, then the positives, then the negatives
// with e_j > 0, each group in the batch's order, so that a stable sort puts values equal to
// some ĝ_j in that order. items and rest hold one element per score; rest holds zeros.
func hingeItems(m float64, b batch, items []item, rest []float64) {
	// Order of equal values after the stable sort: the negatives whose exact f + m lies at
	// or below their rounded sum (rest ≤ 0), then the positives, then the negatives whose
	// exact f + m lies above it (rest > 0).
	nBelow := 0
	for k, f := range b.scores {
		if b.labels[k] == 0 {
			if _, rest[k] = twoSum(f, m); rest[k] <= 0 {
				nBelow++
			}
		}
	}
	below, pos, above := 0, nBelow, nBelow+b.n1
	for k, f := range b.scores {
		switch {
		case b.labels[k] == 1:
			items[pos] = item{key: floats.OrderKey(f), ref: k<<1 | 1}
			pos++
		case rest[k] > 0:
			items[above] = item{key: floats.OrderKey(f + m), ref: k << 1}
			above++
		default:
			items[below] = item{key: floats.OrderKey(f + m), ref: k << 1}
			below++
		}
	}
}

// sweepUp is hinge's upward sweep over the sorted items and their rounding errors rest: it
// returns P·L, the sum over the negatives j of U_j (hinge) or Q_j (squared hinge), and when
// grad is not nil writes P·∂L/∂f_j of every negative j into grad[j]: |A_j| or 2U_j.
func sweepUp(squared bool, items []item, rest, grad []float64) float64 {
	var loss, count, u, q float64 // count, U and Q of the positives below the current value
	at := items[0].value()
	for _, it := range items {
		v := it.value()
		d := v - at
		q += d * (2*u + count*d)
		u += count * d
		at = v
		if it.positive() {
			count++
			continue
		}
		// U and Q measured from the exact g_j = ĝ_j + e_j.
		e := rest[it.index()]
		uj := u + count*e
		switch {
		case squared:
			loss += q + e*(2*u+count*e)
			if grad != nil {
				grad[it.index()] = 2 * uj
			}
		default:
			loss += uj
			if grad != nil {
				grad[it.index()] = count
			}
		}
	}
	return loss
}

// sweepDown is hinge's downward sweep over the sorted items and their rounding errors rest:
// it subtracts from grad[i] of every positive i, which holds 0, P·|∂L/∂f_i|: |D_i| (hinge) or
// 2V_i (squared hinge).
func sweepDown(squared bool, items []item, rest, grad []float64) {
	// count, V and Σe of the negatives above the current value
	var count, gaps, rests float64
	at := items[len(items)-1].value()
	for k := len(items) - 1; k >= 0; k-- {
		it := items[k]
		v := it.value()
		gaps += count * (at - v)
		at = v
		switch {
		case !it.positive():
			count++
			rests += rest[it.index()]
		case squared:
			grad[it.index()] -= 2 * (gaps + rests)
		default:
			grad[it.index()] -= count
		}
	}
}

// twoSum returns s = fl(a + b) and the rounding error e with s + e = a + b exactly (Knuth's
// TwoSum; exact unless a + b overflows).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}
