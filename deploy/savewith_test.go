package deploy

import (
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// SaveWith calls with once the pair is committed, with the model file's path and SHA-256, and
// returns its error; a save refused before writing calls it never.
func TestSaveWith(t *testing.T) {
	dir := t.TempDir()
	f := newFixture(t, 3)
	var gotPath string
	var gotSum [32]byte
	path, err := SaveWith(dir, "ce", f.m, f.op, f.st, f.features, func(p string, sum [32]byte) error {
		gotPath, gotSum = p, sum
		_, err := os.Stat(filepath.Join(dir, "ce.json"))
		return err // the sidecar is committed
	})
	require.NoError(t, err)
	require.Equal(t, path, gotPath)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, sha256.Sum256(b), gotSum)

	boom := errors.New("boom")
	_, err = SaveWith(dir, "ce", newFixture(t, 4).m, f.op, f.st, f.features, func(string, [32]byte) error { return boom })
	require.ErrorIs(t, err, boom)
	s, err := Load(filepath.Join(dir, "ce.json"))
	require.NoError(t, err, "the pair is committed all the same")
	s.Close()

	called := false
	_, err = SaveWith(dir, "bad name", f.m, f.op, f.st, f.features, func(string, [32]byte) error { called = true; return nil })
	require.ErrorIs(t, err, ErrSidecar)
	require.False(t, called)
}
