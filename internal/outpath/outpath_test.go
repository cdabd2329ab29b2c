package outpath

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// One file under another spelling, a hard link or a symbolic link is the same file; two
// files that do not exist yet are the same when they would be created under one name in one
// directory; an existing file and a new one never are.
func TestSame(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	require.NoError(t, os.WriteFile(a, []byte("x"), 0o644))
	hard, soft := filepath.Join(dir, "hard"), filepath.Join(dir, "soft")
	require.NoError(t, os.Link(a, hard))
	require.NoError(t, os.Symlink(a, soft))
	other := filepath.Join(dir, "b.csv")
	require.NoError(t, os.WriteFile(other, []byte("x"), 0o644))
	id := func(p string) File { return Identify("f", p) }
	for _, p := range []string{a, hard, soft, filepath.Join(dir, ".", "..", filepath.Base(dir), "a.csv")} {
		require.True(t, id(a).Same(id(p)), p)
	}
	require.False(t, id(a).Same(id(other)))
	newA, newB := filepath.Join(dir, "new.png"), filepath.Join(dir, "..", filepath.Base(dir), "new.png")
	require.True(t, id(newA).Same(id(newB)), "the same new file, spelt twice")
	require.False(t, id(newA).Same(id(filepath.Join(dir, "other.png"))))
	require.False(t, id(newA).Same(id(a)))
	require.False(t, id(filepath.Join(dir, "missing", "x")).Same(id(filepath.Join(dir, "missing", "x"))),
		"no directory: nothing to compare, nothing written")
}

// Distinct names the output and what it would overwrite, checks outputs against earlier
// outputs and the set, and the set against the inputs, but not the set among itself.
func TestDistinct(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	require.NoError(t, os.WriteFile(in, []byte("x"), 0o644))
	f := func(what, name string) File { return Identify(what, filepath.Join(dir, name)) }
	err := Distinct([]File{f("-data", "in.csv")}, []File{f("-plot", "p.png"), f("-plot2", "in.csv")}, nil)
	require.ErrorContains(t, err, "-plot2 "+in+" is -data ("+in+"): an output may not overwrite")
	require.ErrorContains(t, Distinct(nil, []File{f("-plot", "p.png"), f("-diag", "p.png")}, nil), "-diag")
	require.ErrorContains(t, Distinct(nil, []File{f("-plot", "m.params")}, []File{f("model", "m.params")}), "is model")
	require.ErrorContains(t, Distinct([]File{f("-data", "in.csv")}, nil, []File{f("model", "in.csv")}), "model")
	require.NoError(t, Distinct([]File{f("-data", "in.csv")}, []File{f("-plot", "p.png")},
		[]File{f("model", "m.params"), f("model", "m.params")}))
}

// Writable refuses a directory and a path in a missing directory, and leaves no file behind.
func TestWritable(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, Writable(filepath.Join(dir, "p.png")))
	require.ErrorContains(t, Writable(dir), "is a directory")
	require.Error(t, Writable(filepath.Join(dir, "missing", "p.png")))
	folders := 0
	if os.Geteuid() != 0 && runtime.GOOS != "windows" { // root writes anywhere
		folders++
		ro := filepath.Join(dir, "ro")
		require.NoError(t, os.Mkdir(ro, 0o555))
		require.Error(t, Probe(ro))
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, folders, "no probe file left: %v", entries)
}

// Dir makes a directory with its parents and refuses a path that is a file.
func TestDir(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, Dir(filepath.Join(dir, "a", "b")))
	fi, err := os.Stat(filepath.Join(dir, "a", "b"))
	require.NoError(t, err)
	require.True(t, fi.IsDir())
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	require.Error(t, Dir(file))
}
