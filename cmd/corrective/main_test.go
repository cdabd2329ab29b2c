package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	require.NoError(t, err)
	var out, log bytes.Buffer
	require.NoError(t, run(context.Background(), o, &out, &log))
	_, recs, err := experiment.OpenLog(filepath.Join(dir, "runs.jsonl"), record.key)
	require.NoError(t, err)
	require.Len(t, recs, 2*11, "%d records, want 22 (11 runs × 2 seeds)", len(recs))
	for _, r := range recs {
		assert.True(t, (r.TestAUC > 0.8 && r.TestAUC <= 1), "%s: test AUC %v", r.key(), r.TestAUC)
		assert.Len(t, r.Diagnoses, 3+r.Warmup, "%s: %d diagnoses, want %d", r.key(), len(r.Diagnoses), 3+r.Warmup)
		for _, d := range r.Diagnoses {
			assert.True(t, (d.SevereMass <= d.CEBound), "%s epoch %d: severe mass %v above the CE bound %v", r.key(), d.Epoch, d.SevereMass, d.CEBound)
		}
	}
	for _, section := range []string{"### Test AUC", "### Claim 1", "### Claim 2", "### Direct runs more than", "### Claim 3", "### Claim 4"} {
		assert.Contains(t, out.String(), section, "summary lacks %q", section)
	}
	f, err := os.Open(filepath.Join(dir, "trajectories.png"))
	require.NoError(t, err)
	if _, err := png.Decode(f); err != nil {
		assert.Fail(t, fmt.Sprint(err))
	}
	f.Close()

	log.Reset()
	require.NoError(t, run(context.Background(), o, &out, &log))
	assert.NotContains(t, log.String(), "seed", "the second call trained again:\n%s", log.String())
	other, err := parse(append(args, "-epochs", "4"))
	require.NoError(t, err)
	if err := run(context.Background(), other, &out, &log); err == nil || !strings.Contains(err.Error(), "-epochs 3") {
		assert.Fail(t, fmt.Sprintf("a resume with -epochs 4: error %v, want one naming the records' -epochs 3", err))
	}
	fh, err := os.OpenFile(filepath.Join(dir, "runs.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	fh.WriteString(`{"dataset": "wdbc", "run`)
	fh.Close()
	if err := run(context.Background(), o, &out, &log); err == nil || !strings.Contains(err.Error(), "line 23") {
		assert.Fail(t, fmt.Sprintf("a cut-off line: error %v, want one naming line 23", err))
	}
}
