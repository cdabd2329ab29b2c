package pairwise

import (
	"math"

	"github.com/rocops/rocops/internal/parallel"
)

// Work split of the logistic algorithm. A task is a contiguous chunk of the larger class
// against all of the smaller class; the number of tasks depends only on the class sizes.
const (
	tileLen      = 1024    // negatives per tile: the tile and its gradient sums fit in L1
	minTaskPairs = 1 << 16 // pairs per task below which splitting costs more than it saves
	maxTasks     = 32      // bounds the tasks' partial sums to 32 vectors of the smaller class

	// maxFactored bounds |f| for the factored exponentials: e^{±f} must be finite and
	// normal for every score, and their products must not form ∞·0 (e^{709} is the largest
	// finite power of e, e^{−708} the smallest normal one).
	maxFactored = 700
)

// logistic is the exact all-pairs logistic loss and its gradient, stored in grad when grad is
// not nil (the pair weights are accumulated either way: the package's losses are trained, so
// a loss without its gradient is not worth a second loop).
// The pair term ℓ(x) = log(1 + e^{−x}), x = f_i − f_j, does not factorise, so it visits all
// |B1|·|B0| pairs without storing them. Per pair it needs e^{−x} and e^{x}; when every
// score has |f| ≤ maxFactored they come from exponentials of the scores alone,
//
//	e^{−x} = e^{−f_i}·e^{f_j},   e^{x} = e^{f_i}·e^{−f_j},
//
// so a pair costs two products and one division, no exponential (each factor is within an
// ulp, the product within three, the same accuracy as e^{−x} of the rounded difference).
// The caller centres the scores (batch.centred), so this holds for any batch whose scores
// span at most 2·maxFactored; wider batches take the same tiles with one exponential
// e^{−|x|} per pair instead.
//
// With e = e^{−|x|} ≤ 1 the pair's loss is (|x| − x)/2 + log1p(e) and its weight is
// w = σ(−x) = 1/(1 + e^{x}). The logarithms of a row are not taken one by one: the sum of
// log1p(e_j) over a run of pairs is log1p(Q) with 1 + Q = Π_j (1 + e_j), and Q is
// accumulated as Q ← Q + e·(1 + Q), which keeps its relative accuracy however small the e_j
// are, so a run of 256 pairs costs one log1p (1 + Q ≤ 2^256 cannot overflow). Four such
// runs are interleaved so that the four recurrences overlap in the pipeline.
//
// The larger class is cut into tasks; up to workers goroutines take tasks in turn. A task
// writes the gradient of its own chunk and keeps its own partial sums for the smaller class
// and the loss; those are added in task order at the end, so the result is the same for any
// number of workers and any scheduling.
func logistic(b batch, grad []float64, workers int) float64 {
	posAt, negAt := b.indices()
	factored := true
	for _, f := range b.scores {
		if math.Abs(f) > maxFactored {
			factored = false
			break
		}
	}
	pos, neg := gatherTerms(b.scores, posAt, factored), gatherTerms(b.scores, negAt, factored)
	gPos, gNeg := make([]float64, len(pos)), make([]float64, len(neg))

	big, small, gBig, gSmall := neg, pos, gNeg, gPos
	bigIsNeg := len(neg) >= len(pos)
	if !bigIsNeg {
		big, small, gBig, gSmall = pos, neg, gPos, gNeg
	}
	tasks := min(max(len(big)*len(small)/minTaskPairs, 1), maxTasks, len(big))
	losses := make([]float64, tasks)
	partial := make([][]float64, tasks) // each task's sums for the smaller class
	err := parallel.For(tasks, workers, func(t int) {
		lo, hi := t*len(big)/tasks, (t+1)*len(big)/tasks
		gb, gs := gBig[lo:hi], make([]float64, len(small))
		partial[t] = gs
		if bigIsNeg {
			losses[t] = logisticTiles(small, big[lo:hi], gs, gb, factored)
		} else {
			losses[t] = logisticTiles(big[lo:hi], small, gb, gs, factored)
		}
	})
	if err != nil {
		panic(err) // a bug in a validated kernel: raised on the caller's goroutine, where it can be recovered
	}

	var loss float64
	for _, l := range losses {
		loss += l
	}
	p := b.pairs()
	if grad != nil {
		for _, part := range partial {
			for k, g := range part {
				gSmall[k] += g
			}
		}
		for k, i := range posAt {
			grad[i] = gPos[k] / p
		}
		for k, j := range negAt {
			grad[j] = gNeg[k] / p
		}
	}
	return loss / p
}

// term is one score with its two exponentials, up = e^{f} and down = e^{−f} (both 0 when
// the loop computes its exponentials per pair).
type term struct{ f, up, down float64 }

// gatherTerms returns the terms of xs[at[0]], xs[at[1]], ….
func gatherTerms(xs []float64, at []int, factored bool) []term {
	out := make([]term, len(at))
	for k, i := range at {
		out[k].f = xs[i]
		if factored {
			out[k].up, out[k].down = math.Exp(xs[i]), math.Exp(-xs[i])
		}
	}
	return out
}

// logisticTiles returns the sum of the logistic loss over pos × neg, adds −Σ_j σ(−x_ij) to
// gPos[i] and Σ_i σ(−x_ij) to gNeg[j]. It sweeps every positive past one tile of negatives
// at a time, so the tile and its sums stay in cache.
func logisticTiles(pos, neg []term, gPos, gNeg []float64, factored bool) float64 {
	var loss float64
	for j0 := 0; j0 < len(neg); j0 += tileLen {
		j1 := min(j0+tileLen, len(neg))
		tile, gTile := neg[j0:j1], gNeg[j0:j1:j1]
		for i, p := range pos {
			var l, w float64
			if factored {
				l, w = logisticRow(p, tile, gTile)
			} else {
				l, w = logisticRowExp(p, tile, gTile)
			}
			loss += l
			gPos[i] -= w
		}
	}
	return loss
}

// logisticRow returns Σ_j ℓ(p.f − n_j.f) and Σ_j w_j over a tile of at most tileLen
// negatives, adding each w_j to g[j], from the factored exponentials.
func logisticRow(p term, tile []term, g []float64) (loss, weight float64) {
	g = g[:len(tile)]
	var q0, q1, q2, q3, r0, r1, r2, r3, w0, w1, w2, w3 float64
	j := 0
	for ; j+4 <= len(tile); j += 4 {
		n0, n1, n2, n3 := tile[j], tile[j+1], tile[j+2], tile[j+3]
		x0, x1, x2, x3 := p.f-n0.f, p.f-n1.f, p.f-n2.f, p.f-n3.f
		e0, e1, e2, e3 := p.up*n0.down, p.up*n1.down, p.up*n2.down, p.up*n3.down // e^{x}
		a0 := 1 / (1 + e0)
		a1 := 1 / (1 + e1)
		a2 := 1 / (1 + e2)
		a3 := 1 / (1 + e3)
		e0 = min(e0, p.down*n0.up) // e^{−|x|}
		e1 = min(e1, p.down*n1.up)
		e2 = min(e2, p.down*n2.up)
		e3 = min(e3, p.down*n3.up)
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
	for ; j < len(tile); j++ {
		n := tile[j]
		x := p.f - n.f
		e := p.up * n.down
		a := 1 / (1 + e)
		e = min(e, p.down*n.up)
		q0 += e * (1 + q0)
		r0 += math.Abs(x) - x
		w0 += a
		g[j] += a
	}
	loss = (r0+r1+r2+r3)/2 + math.Log1p(q0) + math.Log1p(q1) + math.Log1p(q2) + math.Log1p(q3)
	return loss, w0 + w1 + w2 + w3
}

// logisticRowExp is logisticRow with one exponential e^{−|x|} per pair, for scores beyond
// ±maxFactored; σ(−x) is e/(1+e) for x ≥ 0 and 1/(1+e) for x < 0, so nothing overflows.
func logisticRowExp(p term, tile []term, g []float64) (loss, weight float64) {
	g = g[:len(tile)]
	var q, r, w float64
	for j, n := range tile {
		x := p.f - n.f
		e := math.Exp(-math.Abs(x))
		q += e * (1 + q)
		r += math.Abs(x) - x
		a := sigmoidNeg(x, e)
		w += a
		g[j] += a
		if j%256 == 255 { // 1 + q ≤ 2^256
			r += 2 * math.Log1p(q)
			q = 0
		}
	}
	return r/2 + math.Log1p(q), w
}
