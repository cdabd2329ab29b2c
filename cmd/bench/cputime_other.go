//go:build !unix

package main

// cpuNow reports that the platform gives no process time.
func cpuNow() (int64, bool) { return 0, false }
