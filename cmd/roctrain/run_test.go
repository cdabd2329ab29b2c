package main

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/train"
)

// splitInPlace gives the parts experiment.NewSplit gives of an equal data set.
func TestNewSplitInPlace(t *testing.T) {
	cfg := data.TeacherConfig{Rows: 120, Cols: 3, Positive: 0.3, Seed: 2}
	a, err := data.Teacher(cfg)
	require.NoError(t, err)
	b, err := data.Teacher(cfg)
	require.NoError(t, err)
	want, err := experiment.NewSplit(a, 4)
	require.NoError(t, err)
	got, err := splitInPlace(b, 4)
	require.NoError(t, err)
	for k, pair := range [][2]*data.Dataset{{want.Train, got.Train}, {want.Val, got.Val}, {want.Test, got.Test}} {
		assert.False(t, !slices.Equal(pair[0].X, pair[1].X) || !slices.Equal(pair[0].Y, pair[1].Y), "part %d differs", k)
	}
	assert.False(t, !slices.Equal(want.Std.Mean, got.Std.Mean) || !slices.Equal(want.Std.Std, got.Std.Std), "the standardisations differ")
}

// logFailures says nothing of a candidate that succeeded, and of one that failed whether it
// is skipped or keeps its best epoch.
func TestLogFailures(t *testing.T) {
	var b strings.Builder
	log := logFailures(&b, "kde")
	boom := errors.New("boom")
	log(experiment.Candidate{}, &train.History{Best: 0, Epochs: []train.Epoch{{Index: 3}}}, nil)
	log(experiment.Candidate{}, nil, boom)
	log(experiment.Candidate{}, &train.History{Best: 0, Epochs: []train.Epoch{{Index: 3}}}, boom)
	want := "roctrain: kde: boom (no epoch finished; skipped)\nroctrain: kde: boom (keeping its best epoch, 3)\n"
	assert.Equal(t, want, b.String(), "logged %q, want %q", b.String(), want)
}
