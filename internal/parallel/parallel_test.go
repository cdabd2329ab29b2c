package parallel

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every task runs exactly once, whatever the number of workers.
func TestForRunsEachTaskOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		for _, workers := range []int{-1, 0, 1, 2, 3, 64} {
			counts := make([]atomic.Int32, n)
			require.NoError(t, For(n, workers, func(t int) { counts[t].Add(1) }))
			for i := range counts {
				c := counts[i].Load()
				require.Equal(t, int32(1), c, "n=%d workers=%d: task %d ran %d times", n, workers, i, c)
			}
		}
	}
}

// With one worker the tasks run in order on the caller.
func TestForSequential(t *testing.T) {
	var order []int
	require.NoError(t, For(5, 1, func(t int) { order = append(order, t) }))
	for i, v := range order {
		require.Equal(t, i, v, "order %v", order)
	}
}

// A panicking task comes back as an error naming it, on every number of workers, and the
// process survives; the panic value is wrapped when it is an error. Before For recovered,
// a worker's panic killed the test binary (a caller's recover cannot reach another
// goroutine).
func TestForRecoversPanics(t *testing.T) {
	boom := errors.New("boom")
	for _, workers := range []int{1, 2, 4, 16} {
		err := For(100, workers, func(t int) {
			if t == 37 || t == 90 {
				panic(boom)
			}
		})
		require.ErrorIs(t, err, ErrPanic, "workers=%d: error %v, want ErrPanic wrapping the value", workers, err)
		require.ErrorIs(t, err, boom, "workers=%d: error %v, want ErrPanic wrapping the value", workers, err)
		// The lowest panicking task is named whenever it ran; with several workers task 90
		// may have stopped the loop before task 37 was handed out.
		require.False(t, !strings.Contains(err.Error(), "task 37") && !(workers > 1 && strings.Contains(err.Error(), "task 90")), "workers=%d: %v does not name the task", workers, err)
		err = For(8, workers, func(t int) {
			if t == 5 {
				panic("not an error")
			}
		})
		require.ErrorIs(t, err, ErrPanic, "workers=%d: error %v", workers, err)
		require.Contains(t, err.Error(), "task 5: not an error", "workers=%d: error %v", workers, err)
	}
	require.NoError(t, For(10, 4, func(int) {}), "no panic")
}
