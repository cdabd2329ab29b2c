package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
		require.NoError(t, err)
		got, err := os.ReadFile(path)
		require.NoError(t, err, "read %q, %v; want %q", got, err, content)
		require.Equal(t, content, string(got), "read %q, %v; want %q", got, err, content)
		info, err := os.Stat(path)
		require.NoError(t, err, "mode %v, %v; want 0644", info.Mode().Perm(), err)
		require.Equal(t, fs.FileMode(0o644), info.Mode().Perm(), "mode %v, %v; want 0644", info.Mode().Perm(), err)
		assertOnlyFile(t, dir, "side.json")
	}
}

// A failing write leaves the old file and no temporary.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	boom := errors.New("disk full")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "new, half")
		return boom
	})
	require.ErrorIs(t, err, boom, "error %v, want the write's", err)
	got, _ := os.ReadFile(path)
	require.Equal(t, "old", string(got), "content %q, want the old", got)
	assertOnlyFile(t, dir, "f")
}

func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{name}, names, "directory holds %v, want only %s", names, name)
}

// A write killed between creating its temporary file and renaming it (kill -9, a power cut)
// leaves its temporary behind. The next write of the same path removes those whose writer is
// gone (a process of this host that has exited) and old ones of the earlier naming, and
// leaves alone the temporaries of live writers (this process, its parent), of another
// host, of other files, fresh ones of the earlier naming, and other files.
func TestWriteRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	write := func(content string) {
		t.Helper()
		require.NoError(t, Write(path, func(w io.Writer) error {
			_, err := io.WriteString(w, content)
			return err
		}))
	}
	write("first")
	exited := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, exited.Run())
	dead := exited.Process.Pid
	if !gone(dead) {
		t.Skipf("pid %d was reused at once", dead)
	}
	old, fresh := time.Now().Add(-2*legacyAge), time.Now()
	leave := func(pattern string, mtime time.Time) string {
		f, err := os.CreateTemp(dir, pattern) // as a killed write leaves it: partial content
		require.NoError(t, err)
		_, err = f.Write([]byte("partial"))
		require.NoError(t, err)
		f.Close()
		require.NoError(t, os.Chtimes(f.Name(), mtime, mtime))
		return filepath.Base(f.Name())
	}
	leave(tempPrefix("model.ckpt", dead)+"*", fresh)
	leave(tempPrefix("model.ckpt", dead)+"*", old)
	leave(".model.ckpt.tmp-*", old)
	keep := []string{
		leave(tempPrefix("model.ckpt", os.Getpid())+"*", old),                // this process's: a write under way
		leave(tempPrefix("model.ckpt", os.Getppid())+"*", old),               // a live process's
		leave(fmt.Sprintf(".model.ckpt.tmp-%s-%d-*", "0badc0de", dead), old), // another host's
		leave(".model.ckpt.tmp-*", fresh),                                    // the earlier naming, recent
		leave(tempPrefix("other.ckpt", dead)+"*", old),                       // another file's
		".model.ckpt.bak", "model.ckpt", "model.ckpt.tmp-1",
	}
	for _, name := range []string{"model.ckpt.tmp-1", ".model.ckpt.bak"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	write("second")
	got := names(t, dir)
	slices.Sort(keep)
	require.True(t, slices.Equal(got, keep), "directory holds %q, want %q", got, keep)
	b, err := os.ReadFile(path)
	require.NoError(t, err, "the file holds %q, %v; want the second write", b, err)
	require.Equal(t, "second", string(b), "the file holds %q, %v; want the second write", b, err)
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	return got
}

// Two processes writing at once, 20 times each, to one name and to names they share in one
// directory: every write succeeds, every file left holds one complete write, and no
// temporary is left. Before temporaries named their writer, a write removed the other
// process's temporary under it (its rename then failed with "no such file or directory").
// The writers are this test binary run again (helperEnv), since the other writer must be
// another process.
func TestConcurrentWriters(t *testing.T) {
	const tries = 20
	for _, c := range []struct{ name, target string }{
		{"one name", "model.params"},
		{"names in one directory", ""}, // file<k mod 3>
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var cmds []*exec.Cmd
			var outs []*strings.Builder
			for w := range 2 {
				cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
				cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|w%d|%d", helperEnv, dir, c.target, w, tries))
				out := new(strings.Builder)
				cmd.Stdout, cmd.Stderr = out, out
				require.NoError(t, cmd.Start())
				cmds, outs = append(cmds, cmd), append(outs, out)
			}
			for w, cmd := range cmds {
				err := cmd.Wait()
				require.NoError(t, err, "writer %d: %v\n%s", w, err, outs[w])
			}
			for _, name := range names(t, dir) {
				require.NotContains(t, name, ".tmp-", "temporary %s left behind", name)
				b, err := os.ReadFile(filepath.Join(dir, name))
				require.NoError(t, err)
				require.NoError(t, checkContent(b), "%s", name)
			}
		})
	}
}

// helperEnv makes TestHelperWriter a writer: "dir|target|id|tries" (target "" = file<k mod 3>).
const helperEnv = "ATOMICFILE_TEST_WRITER"

// TestHelperWriter is a writer process of TestConcurrentWriters; it does nothing otherwise.
func TestHelperWriter(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("a helper process of TestConcurrentWriters")
	}
	f := strings.Split(spec, "|")
	tries, err := strconv.Atoi(f[3])
	require.NoError(t, err)
	for k := range tries {
		target := f[1]
		if target == "" {
			target = fmt.Sprintf("file%d", k%3)
		}
		header := fmt.Sprintf("%s try %d\n", f[2], k)
		err := Write(filepath.Join(f[0], target), func(w io.Writer) error {
			// Slow, in chunks, so that the other writer starts while this one writes.
			for range chunks {
				if _, err := io.WriteString(w, header+strings.Repeat("x", chunk-len(header))); err != nil {
					return err
				}
				time.Sleep(200 * time.Microsecond)
			}
			return nil
		})
		require.NoError(t, err, "try %d", k)
	}
}

const chunk, chunks = 4096, 16

// checkContent checks that b is one complete write of TestHelperWriter.
func checkContent(b []byte) error {
	if len(b) != chunk*chunks {
		return fmt.Errorf("%d bytes, want %d", len(b), chunk*chunks)
	}
	first := b[:chunk]
	for k := 1; k < chunks; k++ {
		if string(b[k*chunk:(k+1)*chunk]) != string(first) {
			return fmt.Errorf("chunk %d is not chunk 0: two writes mixed", k)
		}
	}
	return nil
}
