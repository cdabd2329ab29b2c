package logistic

import "math"

// Term is one score f with its exponentials Up = e^{f} and Down = e^{−f}.
type Term struct{ F, Up, Down float64 }

// Terms is a run of scores with their exponentials, Up[j] = e^{F[j]} and Down[j] = e^{−F[j]},
// three slices of one length (so that a vector kernel loads four of each at once).
type Terms struct{ F, Up, Down []float64 }

// PairRow returns the logistic pair losses ℓ(x_j) = log(1 + e^{−x_j}) of the row p against
// the terms of tile, x_j = p.F − tile.F[j], summed, and the sum of their weights
// w_j = σ(−x_j) = 1/(1 + e^{x_j}), and adds each w_j to g[j]; tile holds at most 1024 terms.
// Each pair's exponentials come from the factored ones, e^{x} = p.Up·tile.Down[j] and
// e^{−x} = p.Down·tile.Up[j], so a pair costs two products and one division; with
// e = e^{−|x|} = min(e^{x}, e^{−x}) ≤ 1 the pair's loss is (|x| − x)/2 + log1p(e). The
// logarithms are not taken one by one: the sum of log1p(e_j) over a run of pairs is log1p(Q)
// with 1 + Q = Π_j (1 + e_j), and Q is accumulated as Q ← Q + e·(1 + Q), which keeps its
// relative accuracy however small the e_j are. The pairs are summed in four lanes, lane l
// taking the j ≡ l (mod 4) below 4·⌊len/4⌋ and lane 0 the rest in order, so that the four
// recurrences overlap; a lane sums at most 256 pairs (1 + Q ≤ 2^256 cannot overflow), and the
// row's loss is (R⁰ + R¹ + R² + R³)/2 + log1p(Q⁰) + log1p(Q¹) + log1p(Q²) + log1p(Q³), R^l the
// lane's Σ (|x| − x), its weight W⁰ + W¹ + W² + W³.
func PairRow(p Term, tile Terms, g []float64) (loss, weight float64) {
	f, up, down := tile.F, tile.Up[:len(tile.F)], tile.Down[:len(tile.F)]
	g = g[:len(f)]
	var q0, q1, q2, q3, r0, r1, r2, r3, w0, w1, w2, w3 float64
	j := 0
	for ; j+4 <= len(f); j += 4 {
		x0, x1, x2, x3 := p.F-f[j], p.F-f[j+1], p.F-f[j+2], p.F-f[j+3]
		e0, e1, e2, e3 := p.Up*down[j], p.Up*down[j+1], p.Up*down[j+2], p.Up*down[j+3] // e^{x}
		a0 := 1 / (1 + e0)
		a1 := 1 / (1 + e1)
		a2 := 1 / (1 + e2)
		a3 := 1 / (1 + e3)
		e0 = min(e0, p.Down*up[j]) // e^{−|x|}
		e1 = min(e1, p.Down*up[j+1])
		e2 = min(e2, p.Down*up[j+2])
		e3 = min(e3, p.Down*up[j+3])
		q0 += e0 * (1 + q0)
		q1 += e1 * (1 + q1)
		q2 += e2 * (1 + q2)
		q3 += e3 * (1 + q3)
		r0 += math.Abs(x0) - x0
		r1 += math.Abs(x1) - x1
		r2 += math.Abs(x2) - x2
		r3 += math.Abs(x3) - x3
		w0 += a0
		w1 += a1
		w2 += a2
		w3 += a3
		g[j] += a0
		g[j+1] += a1
		g[j+2] += a2
		g[j+3] += a3
	}
	return pairTail(p, tile, g, j, [3][4]float64{{q0, q1, q2, q3}, {r0, r1, r2, r3}, {w0, w1, w2, w3}})
}

// pairTail finishes PairRow from the lanes of its first j pairs, lanes = (Q, R, W): the
// pairs from j on go to lane 0 in order.
func pairTail(p Term, tile Terms, g []float64, j int, lanes [3][4]float64) (loss, weight float64) {
	q, r, w := lanes[0], lanes[1], lanes[2]
	for ; j < len(tile.F); j++ {
		x := p.F - tile.F[j]
		e := p.Up * tile.Down[j]
		a := 1 / (1 + e)
		e = min(e, p.Down*tile.Up[j])
		q[0] += e * (1 + q[0])
		r[0] += math.Abs(x) - x
		w[0] += a
		g[j] += a
	}
	loss = (r[0]+r[1]+r[2]+r[3])/2 + math.Log1p(q[0]) + math.Log1p(q[1]) + math.Log1p(q[2]) + math.Log1p(q[3])
	return loss, w[0] + w[1] + w[2] + w[3]
}

// PairRows is PairRow of the row a and then of the row b against one tile, to the bit (g[j]
// gets a's weight and then b's), with the same accumulation in four lanes. Where the
// processor has AVX2 (amd64, without the build tag purego) an assembly kernel sweeps the
// tile once for both rows, four pairs of each at a time in the lanes of 256-bit registers,
// so that the two rows' divisions and recurrences overlap; it computes each pair as PairRow
// does, operation for operation (no fused multiply–add, min of the same two products), so
// the results are PairRow's bits.
func PairRows(a, b Term, tile Terms, g []float64) (lossA, weightA, lossB, weightB float64) {
	n4 := len(tile.F) &^ 3
	if !haveKernel || n4 == 0 {
		lossA, weightA = PairRow(a, tile, g)
		lossB, weightB = PairRow(b, tile, g)
		return lossA, weightA, lossB, weightB
	}
	if len(tile.Up) < len(tile.F) || len(tile.Down) < len(tile.F) || len(g) < len(tile.F) {
		panic("logistic: a tile's slices are shorter than its scores")
	}
	var rows [25]float64
	for l := range 4 {
		rows[l], rows[4+l], rows[8+l] = a.F, a.Up, a.Down
		rows[12+l], rows[16+l], rows[20+l] = b.F, b.Up, b.Down
	}
	rows[24] = 1
	var out [24]float64
	pairLanes(n4/4, &tile.F[0], &tile.Up[0], &tile.Down[0], &g[0], &rows, &out)
	lanes := func(o int) [3][4]float64 {
		return [3][4]float64{[4]float64(out[o : o+4]), [4]float64(out[o+4 : o+8]), [4]float64(out[o+8 : o+12])}
	}
	lossA, weightA = pairTail(a, tile, g, n4, lanes(0))
	lossB, weightB = pairTail(b, tile, g, n4, lanes(12))
	return lossA, weightA, lossB, weightB
}
