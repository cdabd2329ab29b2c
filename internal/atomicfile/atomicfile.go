// Package atomicfile replaces files atomically, for the module's checkpoints and the files
// that travel with them (thresholds, plots).
//
// It does what github.com/google/renameio/v2 does (a temporary file in the target's
// directory, fsync, rename, fsync of the directory) and one thing renameio does not: a write
// killed before its rename cannot clean up after itself, and renameio's randomly named
// temporaries then stay forever, so Write removes the temporaries of the same target whose
// writers are gone before it writes.
package atomicfile

import (
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// legacyAge is how old a temporary of the earlier naming, ".<base>.tmp-<digits>", which
// does not name its writer, must be before Write removes it.
const legacyAge = time.Hour

// Write replaces the file at path with what write writes, so that path holds either
// its old content or all of the new one, whenever the program or the machine stops: write
// goes to a temporary file in path's directory, which is synced, closed and renamed over
// path, and the directory is then synced so that the rename itself is durable. If anything
// fails before the rename, the temporary file is removed and path is untouched. The file's
// mode is 0644.
//
// The temporary is named ".<base>.tmp-<host>-<pid>-<digits>": <host> is a hash of the
// machine's host name and <pid> the writing process's id. A write killed before its rename
// (kill -9, a power cut) cannot remove its temporary, so Write first removes, best effort,
// the temporaries of the same path written on this host by a process that no longer exists
// (on Unix, kill(pid, 0) fails with ESRCH; elsewhere none is removed). A temporary whose
// writer still runs, in this process or another, or on another host sharing the directory,
// is never touched, so any number of processes may write one path or one directory at once:
// each write succeeds or fails on its own, and the last rename wins. (A dead writer's
// temporary whose pid a live process has since taken is kept until that process ends: the
// test errs on the side of keeping.) Temporaries of the
// earlier naming ".<base>.tmp-<digits>", which do not name their writer, are removed once
// they were last modified more than an hour ago.
func Write(path string, write func(io.Writer) error) error {
	dir, base := filepath.Dir(path), filepath.Base(path)
	removeStale(dir, base, time.Now().Add(-legacyAge))
	f, err := os.CreateTemp(dir, tempPrefix(base, os.Getpid())+"*")
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

// tempPrefix is the start of the temporary file names of base written by process pid on
// this host; os.CreateTemp appends random digits.
func tempPrefix(base string, pid int) string {
	return fmt.Sprintf(".%s.tmp-%s-%d-", base, hostTag, pid)
}

// hostTag names this host in temporary file names: the 32-bit FNV-1a hash of its host name
// in hexadecimal, so that a directory shared between machines never has one machine judge
// another's writers by its own process table.
var hostTag = func() string {
	name, err := os.Hostname()
	if err != nil {
		name = ""
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%08x", h.Sum32())
}()

// removeStale removes the temporaries of base in dir whose writer is provably gone: those
// named by this host and the id of a process that no longer exists, and those of the earlier
// naming last modified before legacyBefore. It ignores errors: the write that follows does
// not depend on it.
func removeStale(dir, base string, legacyBefore time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + ".tmp-"
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if stale(rest, e, legacyBefore) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// stale reports whether the temporary whose name ends in rest (after ".<base>.tmp-") was
// left by a writer that is gone.
func stale(rest string, e os.DirEntry, legacyBefore time.Time) bool {
	if digits(rest) { // the earlier naming: no writer named, so by age
		info, err := e.Info()
		return err == nil && info.ModTime().Before(legacyBefore)
	}
	parts := strings.Split(rest, "-")
	if len(parts) != 3 || parts[0] != hostTag || !digits(parts[1]) || !digits(parts[2]) {
		return false // another host's, or not a temporary of Write
	}
	pid, err := strconv.Atoi(parts[1])
	return err == nil && pid > 0 && pid != os.Getpid() && gone(pid)
}

// digits reports whether s is a non-empty run of ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
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
