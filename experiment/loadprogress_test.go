package experiment

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rocops/rocops/data"
)

// TestLoadProgress: the line shows the rows, megabytes and rate, is redrawn at most every
// 200 ms and ends with the totals; without a writer nothing is written.
func TestLoadProgress(t *testing.T) {
	var buf bytes.Buffer
	p := &LoadProgress{W: &buf, Name: "x.csv", Begin: time.Now().Add(-2 * time.Second)}
	p.Update(65536, 20e6)
	p.Update(131072, 40e6) // within 200 ms: not drawn
	p.Update(150000, 45e6)
	p.Done()
	out := buf.String()
	if got := strings.Count(out, "\rloading x.csv: "); got != 1 {
		t.Errorf("%d progress lines drawn, want 1: %q", got, out)
	}
	for _, want := range []string{"65536 rows, 20 MB, 10 MB/s", "\rloaded x.csv: 150000 rows, 45 MB, ", "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
	silent := &LoadProgress{Name: "x.csv"}
	silent.Update(1, 1)
	silent.Done()
	if silent.Rows() != 1 {
		t.Error("a silent progress lost its figures")
	}
}

// NewSplitInPlace gives the parts NewSplit gives of an equal data set.
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
	want, err := NewSplit(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewSplitInPlace(b, 4)
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
