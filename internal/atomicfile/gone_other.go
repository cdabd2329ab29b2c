//go:build !unix

package atomicfile

// gone reports whether no process with id pid exists. Without kill(pid, 0) it cannot tell,
// so it says no, and Write leaves every temporary of a writer named by its pid.
func gone(pid int) bool { return false }
