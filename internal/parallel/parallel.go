// Package parallel is the module's one worker pool: a loop over independent tasks spread over
// a few goroutines. Callers keep their results per task and combine them in task order, so
// that what they compute does not depend on the number of goroutines or their scheduling.
package parallel

import (
	"sync"
	"sync/atomic"
)

// For calls fn(t) once for every t in [0, n), on up to workers goroutines, the calling one
// included, each taking the next t in turn; it returns when all calls have. With workers ≤ 1
// or n ≤ 1 the calls run in order on the calling goroutine. fn must write only state owned
// by its t.
func For(n, workers int, fn func(t int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for t := range n {
			fn(t)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for t := int(next.Add(1) - 1); t < n; t = int(next.Add(1) - 1) {
			fn(t)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}
