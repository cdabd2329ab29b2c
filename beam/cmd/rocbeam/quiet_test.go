package main

import (
	"bytes"
	"context"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A run leaves nothing in the temporary directory: the SDK's loopback runner made an empty
// beamloopbackworker-* file there at every run (93 after a day of runs).
func TestRunLeavesNoTemporaryFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	in, out := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(in, "s-0.csv"), []byte("score,label\n0.1,0\n0.7,1\n0.4,0\n"), 0o644))
	setFlags(t, filepath.Join(in, "s-*.csv"), "", "", "", out, 0)
	require.NoError(t, execute(context.Background()))
	_, err := os.Stat(filepath.Join(out, "metrics.json"))
	require.NoError(t, err)
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	require.Empty(t, left)
	require.Equal(t, tmp, os.TempDir(), "the temporary directory is restored")
}

// Without -v the SDK's lines, through log/slog and package log, are discarded: a failed run's
// 5 KB of them buried rocbeam's one-line error.
func TestQuietSDK(t *testing.T) {
	old := slog.Default()
	defer slog.SetDefault(old) // and package log with it
	var sdk bytes.Buffer
	slog.SetDefault(slog.New(slog.NewTextHandler(&sdk, nil)))
	quietSDK(true)
	slog.Error("kept with -v")
	require.Contains(t, sdk.String(), "kept with -v")
	quietSDK(false)
	slog.Error("process bundle failed")
	log.Print("stopping worker")
	require.NotContains(t, sdk.String(), "process bundle failed")
	require.NotContains(t, sdk.String(), "stopping worker")
}
