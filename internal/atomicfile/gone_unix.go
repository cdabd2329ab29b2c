//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// gone reports whether no process with id pid exists: kill(pid, 0) checks without sending
// a signal, and fails with ESRCH only then (EPERM means it exists but belongs to another
// user).
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
