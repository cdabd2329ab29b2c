// Package parallel is the module's one worker pool: a loop over independent tasks spread over
// a few goroutines. Callers keep their results per task and combine them in task order, so
// that what they compute does not depend on the number of goroutines or their scheduling.
package parallel

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// ErrPanic reports a task that panicked; For's error names the task and gives the panic
// value, which it also wraps when that is an error.
var ErrPanic = errors.New("parallel: a task panicked")

// For calls fn(t) once for every t in [0, n), on up to workers goroutines, the calling one
// included, each taking the next t in turn; it returns when all calls have. With workers ≤ 1
// or n ≤ 1 the calls run in order on the calling goroutine. fn must write only state owned
// by its t.
//
// A panic in fn does not escape: For recovers it, on whichever goroutine it happened, stops
// handing out further tasks, waits for the calls under way and returns an [ErrPanic] error
// naming the task (the lowest-numbered one when several panicked). Without a panic it
// returns nil, and every task has run.
func For(n, workers int, fn func(t int)) error {
	workers = min(workers, n)
	if workers <= 1 {
		for t := range n {
			if err := call(fn, t); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next     atomic.Int64
		mu       sync.Mutex
		first    error
		firstIdx int
	)
	work := func() {
		for t := int(next.Add(1) - 1); t < n; t = int(next.Add(1) - 1) {
			if err := call(fn, t); err != nil {
				next.Store(int64(n)) // hand out no further task
				mu.Lock()
				if first == nil || t < firstIdx {
					first, firstIdx = err, t
				}
				mu.Unlock()
			}
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return first
}

// call runs fn(t), turning a panic into an ErrPanic error.
func call(fn func(int), t int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = PanicError(ErrPanic, fmt.Sprintf(": task %d", t), r)
		}
	}()
	fn(t)
	return nil
}

// PanicError returns the error reporting a recovered panic value r: kind, then where, then r,
// which it wraps when r is an error (so errors.Is finds both kind and r).
func PanicError(kind error, where string, r any) error {
	if re, ok := r.(error); ok {
		return fmt.Errorf("%w%s: %w", kind, where, re)
	}
	return fmt.Errorf("%w%s: %v", kind, where, r)
}
