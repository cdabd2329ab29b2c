package main

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/train"
)

// splitInPlace gives the parts experiment.NewSplit gives of an equal data set.
func TestNewSplitInPlace(t *testing.T) {
	cfg := data.TeacherConfig{Rows: 120, Cols: 3, Positive: 0.3, Seed: 2}
	a, err := data.Teacher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := data.Teacher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := experiment.NewSplit(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	got, err := splitInPlace(b, 4)
	if err != nil {
		t.Fatal(err)
	}
	for k, pair := range [][2]*data.Dataset{{want.Train, got.Train}, {want.Val, got.Val}, {want.Test, got.Test}} {
		if !slices.Equal(pair[0].X, pair[1].X) || !slices.Equal(pair[0].Y, pair[1].Y) {
			t.Errorf("part %d differs", k)
		}
	}
	if !slices.Equal(want.Std.Mean, got.Std.Mean) || !slices.Equal(want.Std.Std, got.Std.Std) {
		t.Error("the standardisations differ")
	}
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
	if b.String() != want {
		t.Errorf("logged %q, want %q", b.String(), want)
	}
}
