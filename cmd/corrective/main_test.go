package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocops/rocops/experiment"
)

// TestSmallExperimentResumes runs every run of the experiment on the embedded data for two
// seeds and three epochs, checks the records and the summary, then checks that a second call
// trains nothing, that one with other -epochs is refused rather than mixed in, and that a
// half-written last line is reported, not silently dropped.
func TestSmallExperimentResumes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-datasets", "wdbc", "-seeds", "2", "-epochs", "3", "-warmup", "1", "-lr", "0.01", "-out", dir, "-plot", "wdbc"}
	o, err := parse(args)
	if err != nil {
		t.Fatal(err)
	}
	var out, log bytes.Buffer
	if err := run(context.Background(), o, &out, &log); err != nil {
		t.Fatal(err)
	}
	_, recs, err := experiment.OpenLog(filepath.Join(dir, "runs.jsonl"), record.key)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2*11 {
		t.Fatalf("%d records, want 22 (11 runs × 2 seeds)", len(recs))
	}
	for _, r := range recs {
		if !(r.TestAUC > 0.8 && r.TestAUC <= 1) {
			t.Errorf("%s: test AUC %v", r.key(), r.TestAUC)
		}
		if len(r.Diagnoses) != 3+r.Warmup {
			t.Errorf("%s: %d diagnoses, want %d", r.key(), len(r.Diagnoses), 3+r.Warmup)
		}
		for _, d := range r.Diagnoses {
			if !(d.SevereMass <= d.CEBound) {
				t.Errorf("%s epoch %d: severe mass %v above the CE bound %v", r.key(), d.Epoch, d.SevereMass, d.CEBound)
			}
		}
	}
	for _, section := range []string{"### Test AUC", "### Claim 1", "### Claim 2", "### Direct runs more than", "### Claim 3", "### Claim 4"} {
		if !strings.Contains(out.String(), section) {
			t.Errorf("summary lacks %q", section)
		}
	}
	f, err := os.Open(filepath.Join(dir, "trajectories.png"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(f); err != nil {
		t.Error(err)
	}
	f.Close()

	log.Reset()
	if err := run(context.Background(), o, &out, &log); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "seed") {
		t.Errorf("the second call trained again:\n%s", log.String())
	}
	other, err := parse(append(args, "-epochs", "4"))
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), other, &out, &log); err == nil || !strings.Contains(err.Error(), "-epochs 3") {
		t.Errorf("a resume with -epochs 4: error %v, want one naming the records' -epochs 3", err)
	}
	fh, err := os.OpenFile(filepath.Join(dir, "runs.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(`{"dataset": "wdbc", "run`)
	fh.Close()
	if err := run(context.Background(), o, &out, &log); err == nil || !strings.Contains(err.Error(), "line 23") {
		t.Errorf("a cut-off line: error %v, want one naming line 23", err)
	}
}
