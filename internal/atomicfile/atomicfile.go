// Package atomicfile replaces files atomically, for the module's checkpoints and the files
// that travel with them (thresholds, plots).
//
// It does what github.com/google/renameio/v2 does (a temporary file in the target's
// directory, fsync, rename, fsync of the directory) and one thing renameio does not: a write
// killed before its rename cannot clean up after itself, and renameio's randomly named
// temporaries then stay forever, so Write removes the stale temporaries of the same target
// before it writes.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Write replaces the file at path with what write writes, so that path holds either
// its old content or all of the new one, whenever the program or the machine stops: write
// goes to a temporary file in path's directory, which is synced, closed and renamed over
// path, and the directory is then synced so that the rename itself is durable. If anything
// fails before the rename, the temporary file is removed and path is untouched. The file's
// mode is 0644.
//
// A write killed before its rename (kill -9, a power cut) cannot remove its temporary, named
// ".<base>.tmp-<digits>". So Write first removes, best effort, the temporaries of the
// same path that were last modified before it began; one modified later may belong to a
// write in progress and is kept. (Two processes writing one path at once are not supported:
// the last rename wins, and one's temporary may be removed under it, failing that write.)
func Write(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	removeStale(dir, filepath.Base(path), time.Now())
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	err = writeAndClose(f, write)
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	return syncDir(dir)
}

// removeStale removes the files ".<base>.tmp-<digits>" in dir last modified before before,
// ignoring errors: the write that follows does not depend on it.
func removeStale(dir, base string, before time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + ".tmp-"
	for _, e := range entries {
		name := e.Name()
		digits, ok := strings.CutPrefix(name, prefix)
		if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(before) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// writeAndClose runs write on f, makes f world-readable, syncs it to disk and closes it.
func writeAndClose(f *os.File, write func(io.Writer) error) error {
	err := write(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir flushes dir's entries to disk. Windows cannot sync a directory handle, so there
// the rename's durability is left to the file system.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
