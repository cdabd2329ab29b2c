package kdequantile

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// blockSize is the number of elements per block of a pass. Every pass reduces per block and
// then adds the block results in block order, so results do not depend on how many
// goroutines ran or how they were scheduled.
const blockSize = 2048

// parallelMin is the smallest number of elements whose pass is spread over several
// goroutines; below it, starting them costs more than they save.
const parallelMin = 16 * blockSize

// numBlocks returns the number of blocks covering n elements.
func numBlocks(n int) int { return (n + blockSize - 1) / blockSize }

// forBlocks calls fn(b, lo, hi) for each block b = [lo, hi) of [0, n), on up to GOMAXPROCS
// goroutines when n ≥ parallelMin. fn must write only to state owned by block b.
func forBlocks(n int, fn func(b, lo, hi int)) {
	nb := numBlocks(n)
	run := func(b int) {
		lo := b * blockSize
		fn(b, lo, min(lo+blockSize, n))
	}
	workers := min(runtime.GOMAXPROCS(0), nb)
	if n < parallelMin || workers < 2 {
		for b := range nb {
			run(b)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for b := int(next.Add(1) - 1); b < nb; b = int(next.Add(1) - 1) {
			run(b)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

// neumaier is a compensated (Kahan–Babuška–Neumaier) sum; it combines the per-block sums of
// a pass so that their rounding errors do not grow with the number of blocks.
type neumaier struct{ sum, comp float64 }

func (s *neumaier) add(x float64) {
	t := s.sum + x
	if math.Abs(s.sum) >= math.Abs(x) {
		s.comp += (s.sum - t) + x
	} else {
		s.comp += (x - t) + s.sum
	}
	s.sum = t
}

func (s *neumaier) value() float64 { return s.sum + s.comp }
