//go:build !unix

package main

import "time"

// cpuTime reports that the processor time is not measured on this platform.
func cpuTime() (time.Duration, bool) { return 0, false }
