package main

import (
	"bytes"
	"log"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

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
