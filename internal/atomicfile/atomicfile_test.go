package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Write replaces a file with the new content, readable by all, and leaves no
// temporary file behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "side.json")
	for _, content := range []string{"first\n", "second, longer\n"} {
		err := Write(path, func(w io.Writer) error {
			_, err := io.WriteString(w, content)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
			t.Fatalf("mode %v, %v; want 0644", info.Mode().Perm(), err)
		}
		assertOnlyFile(t, dir, "side.json")
	}
}

// A failing write leaves the old file and no temporary.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "new, half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the write's", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("content %q, want the old", got)
	}
	assertOnlyFile(t, dir, "f")
}

func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != name {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want only %s", names, name)
	}
}

// A write killed between creating its temporary file and renaming it (kill -9, a power cut)
// leaves a ".<name>.tmp-*" file behind. The next write of the same path removes those that
// predate it, and leaves alone the temporaries of other files, other files, and a temporary
// still being written (modified after the write began).
func TestWriteRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	write := func(content string) {
		t.Helper()
		if err := Write(path, func(w io.Writer) error {
			_, err := io.WriteString(w, content)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	write("first")
	old := time.Now().Add(-time.Hour)
	leave := func(pattern string, mtime time.Time) string {
		f, err := os.CreateTemp(dir, pattern) // as a killed write leaves it: partial content
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("partial")); err != nil {
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
	write("second")
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
	if b, err := os.ReadFile(path); err != nil || string(b) != "second" {
		t.Errorf("the file holds %q, %v; want the second write", b, err)
	}
}
