//go:build unix

package deploy

import (
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A sidecar or model that is /dev/zero behind a symlink, or a FIFO no one writes, fails at
// once instead of reading forever or blocking.
func TestNonRegularFilesFailFast(t *testing.T) {
	for _, target := range []string{"sidecar", "model"} {
		for _, kind := range []string{"/dev/zero", "fifo"} {
			t.Run(target+" "+kind, func(t *testing.T) {
				dir := t.TempDir()
				model := newFixture(t, 1).save(t, dir, "ce")
				path := model
				if target == "sidecar" {
					path = sidecarOf(dir, "ce")
				}
				require.NoError(t, os.Remove(path))
				if kind == "fifo" {
					require.NoError(t, syscall.Mkfifo(path, 0o644))
				} else {
					require.NoError(t, os.Symlink("/dev/zero", path))
				}
				done := make(chan error, 1)
				go func() { _, err := Load(sidecarOf(dir, "ce")); done <- err }()
				select {
				case err := <-done:
					require.Error(t, err)
					require.ErrorContains(t, err, "not a regular file")
					require.True(t, errors.Is(err, ErrSidecar) || errors.Is(err, ErrModel))
				case <-time.After(10 * time.Second):
					require.Fail(t, "Load did not return")
				}
			})
		}
	}
}
