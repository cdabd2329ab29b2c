package pairwise

import (
	"math"

	logisticfn "github.com/rocops/rocops/internal/logistic" // package pairwise has its own func logistic
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
// runs are interleaved so that the four recurrences overlap in the pipeline
// (logisticfn.PairRow); with AVX2 the four are the lanes of a 256-bit register, and the rows
// are taken two at a time against each tile (logisticfn.PairRows), each pair computed
// operation for operation as one row at a time computes it, so the bits are the same.
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
	gPos, gNeg := make([]float64, len(pos.F)), make([]float64, len(neg.F))

	big, small, gBig, gSmall := neg, pos, gNeg, gPos
	bigIsNeg := len(neg.F) >= len(pos.F)
	if !bigIsNeg {
		big, small, gBig, gSmall = pos, neg, gPos, gNeg
	}
	nBig, nSmall := len(big.F), len(small.F)
	tasks := min(max(nBig*nSmall/minTaskPairs, 1), maxTasks, nBig)
	losses := make([]float64, tasks)
	partial := make([][]float64, tasks) // each task's sums for the smaller class
	err := parallel.For(tasks, workers, func(t int) {
		lo, hi := t*nBig/tasks, (t+1)*nBig/tasks
		gb, gs := gBig[lo:hi], make([]float64, nSmall)
		partial[t] = gs
		if bigIsNeg {
			losses[t] = logisticTiles(small, slice(big, lo, hi), gs, gb, factored)
		} else {
			losses[t] = logisticTiles(slice(big, lo, hi), small, gb, gs, factored)
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

// gatherTerms returns the terms of xs[at[0]], xs[at[1]], …, with their exponentials when
// factored (both 0 when the loop computes its exponentials per pair).
func gatherTerms(xs []float64, at []int, factored bool) logisticfn.Terms {
	t := logisticfn.Terms{F: make([]float64, len(at)), Up: make([]float64, len(at)), Down: make([]float64, len(at))}
	for k, i := range at {
		t.F[k] = xs[i]
		if factored {
			t.Up[k], t.Down[k] = math.Exp(xs[i]), math.Exp(-xs[i])
		}
	}
	return t
}

// slice returns the terms [lo, hi) of t.
func slice(t logisticfn.Terms, lo, hi int) logisticfn.Terms {
	return logisticfn.Terms{F: t.F[lo:hi:hi], Up: t.Up[lo:hi:hi], Down: t.Down[lo:hi:hi]}
}

// logisticTiles returns the sum of the logistic loss over pos × neg, adds −Σ_j σ(−x_ij) to
// gPos[i] and Σ_i σ(−x_ij) to gNeg[j]. It sweeps every positive past one tile of negatives
// at a time, so the tile and its sums stay in cache (tileLen terms of three float64 and their
// weights: 32 KiB); factored, it takes the positives two at a time (logisticfn.PairRows), in
// the order of one at a time.
func logisticTiles(pos, neg logisticfn.Terms, gPos, gNeg []float64, factored bool) float64 {
	var loss float64
	for j0 := 0; j0 < len(neg.F); j0 += tileLen {
		j1 := min(j0+tileLen, len(neg.F))
		tile, gTile := slice(neg, j0, j1), gNeg[j0:j1:j1]
		i := 0
		if factored {
			for ; i+2 <= len(pos.F); i += 2 {
				la, wa, lb, wb := logisticfn.PairRows(termAt(pos, i), termAt(pos, i+1), tile, gTile)
				loss += la
				gPos[i] -= wa
				loss += lb
				gPos[i+1] -= wb
			}
		}
		for ; i < len(pos.F); i++ {
			var l, w float64
			if factored {
				l, w = logisticfn.PairRow(termAt(pos, i), tile, gTile)
			} else {
				l, w = logisticRowExp(pos.F[i], tile.F, gTile)
			}
			loss += l
			gPos[i] -= w
		}
	}
	return loss
}

// termAt returns term i of t.
func termAt(t logisticfn.Terms, i int) logisticfn.Term {
	return logisticfn.Term{F: t.F[i], Up: t.Up[i], Down: t.Down[i]}
}

// logisticRowExp is logisticfn.PairRow with one exponential e^{−|x|} per pair, for scores
// beyond ±maxFactored, from the row's score f and the tile's: σ(−x) is e/(1+e) for x ≥ 0 and
// 1/(1+e) for x < 0, so nothing overflows.
func logisticRowExp(f float64, tile []float64, g []float64) (loss, weight float64) {
	g = g[:len(tile)]
	var q, r, w float64
	for j, fj := range tile {
		x := f - fj
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
