package pairwise

import (
	"math"
	"sync"
	"sync/atomic"
)

// Work split of the logistic algorithm. A task is a contiguous chunk of the larger class
// against all of the smaller class; the number of tasks depends only on the class sizes.
const (
	tileLen      = 1024    // negatives per tile: the tile and its gradient sums fit in L1
	minTaskPairs = 1 << 16 // pairs per task below which splitting costs more than it saves
	maxTasks     = 32      // bounds the tasks' partial sums to 32 vectors of the smaller class
)

// logistic is the exact all-pairs logistic loss. The pair term log(1 + e^(−(f_i − f_j)))
// does not factorise, so it visits all |B1|·|B0| pairs, without storing them: each pair costs
// one exponential e = e^(−|x|), giving the loss log1p(e) + max(−x, 0) and the weight
// σ(−x) (see softplusNeg and sigmoidNeg), both without overflow.
//
// The larger class is cut into tasks; up to workers goroutines take tasks in turn. A task
// writes the gradient of its own chunk and keeps its own partial sums for the smaller class
// and the loss; those are added in task order at the end, so the result is the same for any
// number of workers and any scheduling.
func logistic(b batch, grad []float64, workers int) float64 {
	posAt, negAt := b.indices()
	pos, neg := gather(b.scores, posAt), gather(b.scores, negAt)
	var gPos, gNeg []float64
	if grad != nil {
		gPos, gNeg = make([]float64, len(pos)), make([]float64, len(neg))
	}

	big, small, gBig, gSmall := neg, pos, gNeg, gPos
	bigIsNeg := len(neg) >= len(pos)
	if !bigIsNeg {
		big, small, gBig, gSmall = pos, neg, gPos, gNeg
	}
	tasks := min(max(len(big)*len(small)/minTaskPairs, 1), maxTasks, len(big))
	losses := make([]float64, tasks)
	partial := make([][]float64, tasks) // each task's sums for the smaller class
	var next atomic.Int64
	run := func() {
		for t := int(next.Add(1)) - 1; t < tasks; t = int(next.Add(1)) - 1 {
			lo, hi := t*len(big)/tasks, (t+1)*len(big)/tasks
			var gb, gs []float64
			if grad != nil {
				gb, gs = gBig[lo:hi], make([]float64, len(small))
				partial[t] = gs
			}
			if bigIsNeg {
				losses[t] = logisticTiles(small, big[lo:hi], gs, gb)
			} else {
				losses[t] = logisticTiles(big[lo:hi], small, gb, gs)
			}
		}
	}
	var wg sync.WaitGroup
	for range min(workers, tasks) - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()

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

// gather returns xs[at[0]], xs[at[1]], ….
func gather(xs []float64, at []int) []float64 {
	out := make([]float64, len(at))
	for k, i := range at {
		out[k] = xs[i]
	}
	return out
}

// logisticTiles returns the sum of the logistic loss over pos × neg and, when gPos and gNeg
// are not nil, adds −Σ_j σ(−x_ij) to gPos[i] and Σ_i σ(−x_ij) to gNeg[j]. It sweeps every
// positive past one tile of negatives at a time, so the tile and its sums stay in cache.
func logisticTiles(pos, neg, gPos, gNeg []float64) float64 {
	var loss float64
	for j0 := 0; j0 < len(neg); j0 += tileLen {
		j1 := min(j0+tileLen, len(neg))
		tile := neg[j0:j1]
		var gTile []float64
		if gNeg != nil {
			gTile = gNeg[j0:j1]
		}
		for i, fp := range pos {
			var rowLoss, rowWeight float64
			for j, fn := range tile {
				x := fp - fn
				e := math.Exp(-math.Abs(x))
				rowLoss += softplusNeg(x, e)
				if gTile != nil {
					w := sigmoidNeg(x, e)
					rowWeight += w
					gTile[j] += w
				}
			}
			loss += rowLoss
			if gPos != nil {
				gPos[i] -= rowWeight
			}
		}
	}
	return loss
}
