package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rocops/rocops/deploy"
)

// namedPath is one file the command reads or writes, with what names it, and its identity.
type namedPath struct {
	what, path string
	id         fileID
}

// fileID is what identifies a path's file: the file itself when it exists, else its
// directory (when that exists) and its base name, the file a write would create.
type fileID struct {
	file, dir os.FileInfo // file when it exists; else dir, when that exists
	base      string
}

func identify(what, path string) namedPath {
	n := namedPath{what: what, path: path, id: fileID{base: filepath.Base(path)}}
	if fi, err := os.Stat(path); err == nil {
		n.id.file = fi
	} else if di, err := os.Stat(filepath.Dir(path)); err == nil {
		n.id.dir = di
	}
	return n
}

// same reports whether a and b are one file: both exist and os.SameFile says so (the same
// name, a hard link or a symbolic link to it, another spelling of the path), or neither
// exists and they would be created under one base name in one directory (os.SameFile again).
// One that exists and one that does not are distinct: writing the second makes a new file.
func (a fileID) same(b fileID) bool {
	switch {
	case a.file != nil && b.file != nil:
		return os.SameFile(a.file, b.file)
	case a.file != nil || b.file != nil:
		return false
	}
	return a.dir != nil && b.dir != nil && a.base == b.base && os.SameFile(a.dir, b.dir)
}

// checkDistinctFiles refuses outputs that would overwrite an input or another output: -plot,
// its diagnostics PNG with -diagnose, and every model and operating-point file -out writes,
// against the -data file and against each other, compared by file identity (fileID.same),
// not by name. -out must exist (checkOutputs makes it first). The files -out writes have
// distinct names in one directory, so they are compared with the others, not among
// themselves: the cost is linear in their number.
func checkDistinctFiles(o *options) error {
	var inputs, plots, saved []namedPath
	if o.data != "" {
		inputs = append(inputs, identify("the -data file", o.data))
	}
	if o.plot != "" {
		plots = append(plots, identify("-plot", o.plot))
		if o.diagnose {
			plots = append(plots, identify("-plot's diagnostics PNG", diagnosticsPath(o.plot)))
		}
	}
	if o.out != "" {
		for _, seed := range o.seedList() {
			for _, spec := range o.runs {
				m, side := modelPath(o, spec, seed), deploy.SidecarPath(modelPath(o, spec, seed))
				saved = append(saved, identify("-out's model "+filepath.Base(m), m),
					identify("-out's operating-point file "+filepath.Base(side), side))
			}
		}
	}
	check := func(outs, others []namedPath) error {
		for _, out := range outs {
			for _, other := range others {
				if out.id.same(other.id) {
					return fmt.Errorf("%s %s is %s (%s): an output may not overwrite an input or another output", out.what, out.path, other.what, other.path)
				}
			}
		}
		return nil
	}
	for k, p := range plots {
		if err := check([]namedPath{p}, append(append(append([]namedPath{}, inputs...), plots[:k]...), saved...)); err != nil {
			return err
		}
	}
	return check(saved, inputs)
}
