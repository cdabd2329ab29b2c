//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// SIGTERM stops -predict while it waits for rows on a FIFO that stays open: the rows read are
// written, the summary says where it stopped, and the status is 1 (before, only SIGKILL
// stopped it).
func TestPredictStopsOnSIGTERM(t *testing.T) {
	models, _ := trainModels(t)
	fifo := filepath.Join(t.TempDir(), "rows.csv")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	cmd := asMainCommand(t, "-predict", filepath.Join(models, "ce.params"), "-data", fifo)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once -predict has opened it
	require.NoError(t, err)
	defer w.Close()
	_, err = w.WriteString("a,y,b,c\n1,0,2,3\n4,1,5,6\n")
	require.NoError(t, err)
	time.Sleep(300 * time.Millisecond) // -predict reads the rows and waits for more
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		require.Fail(t, "-predict did not stop after SIGTERM")
	}
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "stderr: %s", stderr.String())
	require.Equal(t, 1, exit.ExitCode(), "stderr: %s", stderr.String())
	require.Equal(t, 3, strings.Count(stdout.String(), "\n"), "the header and both rows: %s", stdout.String())
	require.Contains(t, stderr.String(), "flagged")
	require.Contains(t, stderr.String(), "roctrain: -predict stopped after 2 rows: context canceled")
}
