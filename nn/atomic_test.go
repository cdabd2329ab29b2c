package nn

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSaveRemovesStaleTemporaries: a save killed between creating its temporary file and
// renaming it (kill -9, a power cut) leaves a ".<name>.tmp-*" file behind. The next save of
// the same path removes those that predate it, and leaves alone the temporaries of other
// files, other files, and a temporary still being written (modified after the save began).
func TestSaveRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	m := newMLP(t, MLPConfig{In: 3, Hidden: []int{4}, Seed: 1})
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	leave := func(pattern string, mtime time.Time) string {
		f, err := os.CreateTemp(dir, pattern) // as a killed save leaves it: partial content
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("partial checkpoint")); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Chtimes(f.Name(), mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return filepath.Base(f.Name())
	}
	leave(".model.ckpt.tmp-*", old)
	leave(".model.ckpt.tmp-*", old)
	active := leave(".model.ckpt.tmp-*", time.Now().Add(time.Hour))
	other := leave(".other.ckpt.tmp-*", old)
	for _, name := range []string{"model.ckpt.tmp-1", ".model.ckpt.bak"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{active, other, ".model.ckpt.bak", "model.ckpt", "model.ckpt.tmp-1"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("directory holds %q, want %q", got, want)
	}
	back := newMLP(t, MLPConfig{In: 3, Hidden: []int{4}, Seed: 2})
	if err := Load(path, back); err != nil || !sameParams(t, m, back) {
		t.Errorf("the checkpoint does not load back: %v", err)
	}
}
