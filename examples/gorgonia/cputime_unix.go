//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time the process has used, user and system, over all its
// threads, and true; on a shared machine it measures an epoch's cost where the wall clock also
// counts the waits for a core.
func cpuTime() (time.Duration, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
