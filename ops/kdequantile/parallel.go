package kdequantile

import (
	"runtime"

	"github.com/rocops/rocops/internal/parallel"
)

// blockSize is the number of elements per block of a pass. Every pass reduces per block and
// then adds the block results in block order, in a compensated sum (internal/compensated) so
// that their rounding errors do not grow with the number of blocks; results do not depend on
// how many goroutines ran or how they were scheduled.
const blockSize = 2048

// parallelMin is the smallest number of elements whose pass is spread over several
// goroutines; below it, starting them costs more than they save.
const parallelMin = 16 * blockSize

// numBlocks returns the number of blocks covering n elements.
func numBlocks(n int) int { return (n + blockSize - 1) / blockSize }

// forBlocks calls fn(b, lo, hi) for each block b = [lo, hi) of [0, n), on up to GOMAXPROCS
// goroutines when n ≥ parallelMin. fn must write only to state owned by block b.
func forBlocks(n int, fn func(b, lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < parallelMin {
		workers = 1
	}
	err := parallel.For(numBlocks(n), workers, func(b int) {
		lo := b * blockSize
		fn(b, lo, min(lo+blockSize, n))
	})
	if err != nil {
		panic(err) // a bug in a validated kernel: raised on the caller's goroutine, where it can be recovered
	}
}
