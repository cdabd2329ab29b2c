// Package outpath checks a command's output paths before any work: that each can be written,
// and that none is an input or another output, compared by file identity rather than by name.
package outpath

import (
	"fmt"
	"os"
	"path/filepath"
)

// File is one file a command reads or writes, with what names it (such as "-plot") and its
// identity.
type File struct {
	What, Path string
	id         fileID
}

// fileID is what identifies a path's file: the file itself when it exists, else its
// directory (when that exists) and its base name, the file a write would create.
type fileID struct {
	file, dir os.FileInfo // file when it exists; else dir, when that exists
	base      string
}

// Identify is the file at path, named by what; it looks the file (or its directory) up now.
func Identify(what, path string) File {
	f := File{What: what, Path: path, id: fileID{base: filepath.Base(path)}}
	if fi, err := os.Stat(path); err == nil {
		f.id.file = fi
	} else if di, err := os.Stat(filepath.Dir(path)); err == nil {
		f.id.dir = di
	}
	return f
}

// Same reports whether a and b are one file: both exist and os.SameFile says so (the same
// name, a hard link or a symbolic link to it, another spelling of the path), or neither
// exists and they would be created under one base name in one directory (os.SameFile again).
// One that exists and one that does not are distinct: writing the second makes a new file.
func (a File) Same(b File) bool {
	switch {
	case a.id.file != nil && b.id.file != nil:
		return os.SameFile(a.id.file, b.id.file)
	case a.id.file != nil || b.id.file != nil:
		return false
	}
	return a.id.dir != nil && b.id.dir != nil && a.id.base == b.id.base && os.SameFile(a.id.dir, b.id.dir)
}

// Distinct refuses outputs that would overwrite an input or another output: each of outputs
// against inputs, the outputs before it and set, and each of set against inputs. set holds
// files with distinct names in one directory (such as the models a command saves), so they
// are not compared among themselves: the cost is linear in their number.
func Distinct(inputs, outputs, set []File) error {
	check := func(outs, others []File) error {
		for _, out := range outs {
			for _, other := range others {
				if out.Same(other) {
					return fmt.Errorf("%s %s is %s (%s): an output may not overwrite an input or another output",
						out.What, out.Path, other.What, other.Path)
				}
			}
		}
		return nil
	}
	for k, o := range outputs {
		if err := check([]File{o}, append(append(append([]File{}, inputs...), outputs[:k]...), set...)); err != nil {
			return err
		}
	}
	return check(set, inputs)
}

// Probe checks that dir takes a new file by creating and removing one.
func Probe(dir string) error {
	f, err := os.CreateTemp(dir, ".outpath-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// Writable checks that a file can be written at each path: none is a directory, and the
// directory of each takes a new file (Probe).
func Writable(paths ...string) error {
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return fmt.Errorf("%s is a directory", p)
		}
		if err := Probe(filepath.Dir(p)); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

// Dir makes the directory dir (with its parents) and checks that it takes a new file.
func Dir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return Probe(dir)
}
