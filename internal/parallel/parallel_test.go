package parallel

import (
	"sync/atomic"
	"testing"
)

// Every task runs exactly once, whatever the number of workers.
func TestForRunsEachTaskOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		for _, workers := range []int{-1, 0, 1, 2, 3, 64} {
			counts := make([]atomic.Int32, n)
			For(n, workers, func(t int) { counts[t].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("n=%d workers=%d: task %d ran %d times", n, workers, i, c)
				}
			}
		}
	}
}

// With one worker the tasks run in order on the caller.
func TestForSequential(t *testing.T) {
	var order []int
	For(5, 1, func(t int) { order = append(order, t) })
	for i, v := range order {
		if v != i {
			t.Fatalf("order %v", order)
		}
	}
}
