package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// namedPath is one file the command reads or writes, with the flag that names it.
type namedPath struct{ what, path string }

// checkDistinctFiles refuses outputs that would overwrite an input or another output: -plot,
// its diagnostics PNG with -diagnose, and every model and operating-point file -out writes,
// against the -data file and against each other. Two paths are one file when both exist and
// os.SameFile says so (the same name, a hard link or a symbolic link to it, another spelling
// of the path), or when neither exists, their directories are one (os.SameFile again) and
// their base names are equal: a comparison of file identity, not of names. -out must exist
// (checkOutputs makes it first).
func checkDistinctFiles(o *options) error {
	var inputs, outputs []namedPath
	if o.data != "" {
		inputs = append(inputs, namedPath{"the -data file", o.data})
	}
	if o.plot != "" {
		outputs = append(outputs, namedPath{"-plot", o.plot})
		if o.diagnose {
			outputs = append(outputs, namedPath{"-plot's diagnostics PNG", diagnosticsPath(o.plot)})
		}
	}
	if o.out != "" {
		for _, seed := range o.seedList() {
			for _, spec := range o.runs {
				m := modelPath(o, spec, seed)
				outputs = append(outputs, namedPath{"-out's model " + filepath.Base(m), m},
					namedPath{"-out's operating-point file " + filepath.Base(sidecarPath(m)), sidecarPath(m)})
			}
		}
	}
	for i, out := range outputs {
		for _, other := range append(inputs, outputs[:i]...) {
			if sameFile(out.path, other.path) {
				return fmt.Errorf("%s %s is %s (%s): an output may not overwrite an input or another output", out.what, out.path, other.what, other.path)
			}
		}
	}
	return nil
}

// sameFile reports whether paths a and b name one file, by identity (see checkDistinctFiles).
func sameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	switch {
	case errA == nil && errB == nil:
		return os.SameFile(ia, ib)
	case errA == nil || errB == nil:
		return false // one exists and the other does not: writing the other creates a new file
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	da, errA := os.Stat(filepath.Dir(a))
	db, errB := os.Stat(filepath.Dir(b))
	return errA == nil && errB == nil && os.SameFile(da, db)
}
