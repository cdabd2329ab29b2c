package nn

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// WriteFileAtomic replaces the file at path with what write writes, the way [Save] writes a
// checkpoint: path holds either its old content or all of the new one, whatever stops the
// program or the machine, and is left untouched when write or anything else fails. The
// file's mode is 0644. Use it for files that travel with a checkpoint, such as a threshold.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	return writeAtomic(path, write)
}

// writeAtomic replaces the file at path with what write writes, so that path holds either
// its old content or all of the new one, whenever the program or the machine stops: write
// goes to a temporary file in path's directory, which is synced, closed and renamed over
// path, and the directory is then synced so that the rename itself is durable. If anything
// fails before the rename, the temporary file is removed and path is untouched.
func writeAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
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
