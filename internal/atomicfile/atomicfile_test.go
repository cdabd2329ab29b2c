package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
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
