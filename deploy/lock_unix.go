//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package deploy

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// lock takes the exclusive lock of run name in dir, the flock of the file .<name>.lock,
// waiting for another holder; the kernel releases it when its holder dies.
func lock(dir, name string) (unlock func(), locked bool, err error) {
	f, err := os.OpenFile(filepath.Join(dir, "."+name+".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, false, err
	}
	return func() { f.Close() }, true, nil // closing the file releases the lock
}
