package cputime

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestNowCountsWork: spinning on one goroutine advances the process time, by no more than
// the wall time spent times GOMAXPROCS (plus the clock's 10 ms granularity).
func TestNowCountsWork(t *testing.T) {
	start, ok := now()
	if !ok {
		t.Skip("no process time on this platform")
	}
	begin := time.Now()
	x := 0.0
	for time.Since(begin) < 50*time.Millisecond {
		x++
	}
	wall := time.Since(begin)
	end, _ := now()
	used := end - start
	require.Greater(t, used, time.Duration(0), "process time %v for %v of wall time spinning (%g iterations)", used, wall, x)
	require.LessOrEqual(t, used, wall*time.Duration(runtime.GOMAXPROCS(0))+10*time.Millisecond, "process time %v for %v of wall time spinning (%g iterations)", used, wall, x)
}
