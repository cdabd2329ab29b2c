//go:build unix

package main

import "syscall"

// cpuNow returns the processor time the process has used so far, user and system, summed
// over its threads, in nanoseconds (getrusage), and whether the platform reports it.
func cpuNow() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
