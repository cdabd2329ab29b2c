package main

import (
	"time"

	"github.com/rocops/rocops/internal/cputime"
)

// clock is what a figure times: the wall time one waits for, or the processor time the
// process spends, summed over its threads. On a machine shared with other work, wall time
// grows with every wait for a core and processor time does not; for parallel code processor
// time is the cost summed over the cores.
type clock string

const (
	wallClock clock = "wall"
	cpuClock  clock = "cpu"
)

// stopwatch reads both clocks.
type stopwatch struct {
	wall  time.Time
	cpu   time.Duration
	cpuOK bool
}

func startWatch() stopwatch {
	cpu, ok := cputime.Now()
	return stopwatch{wall: time.Now(), cpu: cpu, cpuOK: ok}
}

// elapsed returns the wall and processor seconds since w started; the processor time is 0
// with ok false where the platform has none.
func (w stopwatch) elapsed() (wall, cpu float64, ok bool) {
	wall = time.Since(w.wall).Seconds()
	c, ok2 := cputime.Now()
	if !w.cpuOK || !ok2 {
		return wall, 0, false
	}
	return wall, (c - w.cpu).Seconds(), true
}

// cpuAvailable reports whether the platform gives the process's processor time.
func cpuAvailable() bool {
	_, ok := cputime.Now()
	return ok
}
