// Package cputime measures, for benchmarks, the processor time the process spends per
// operation, summed over all its threads (user and system time, from getrusage). On a
// machine shared with other work, wall time per operation grows with every wait for a core;
// processor time does not, so it is the steadier measure of what an operation costs, and
// for parallel code it is the cost summed over the cores (the wall time times the cores it
// kept busy).
package cputime

import (
	"math"
	"testing"
	"time"
)

// Now returns the processor time the process has used so far, summed over its threads, and
// whether the platform reports it; for measurements outside a testing.B, such as cmd/bench's.
func Now() (time.Duration, bool) { return now() }

// Report starts measuring and returns the function that stops, reports the processor time
// per operation of b as the metric "cpu-ns/op" and returns it (NaN where the platform has no
// process time). Call it right before the timed loop and the returned function right after
// it; work done with the timer stopped inside the loop is included, so keep that small.
func Report(b *testing.B) (stop func() float64) {
	start, ok := now()
	return func() float64 {
		end, ok2 := now()
		if !ok || !ok2 || b.N <= 0 {
			return math.NaN()
		}
		perOp := float64(end-start) / float64(b.N)
		b.ReportMetric(perOp, "cpu-ns/op")
		return perOp
	}
}
