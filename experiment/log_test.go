package experiment_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/experiment"
)

// logRun is a run of a results log, with a field long enough to pass bufio.Scanner's default
// line limit (64 KiB).
type logRun struct {
	Name  string    `json:"name"`
	Seed  uint64    `json:"seed"`
	AUC   float64   `json:"auc"`
	Trail []float64 `json:"trail,omitempty"`
}

func (r logRun) key() string { return r.Name + "/" + string(rune('0'+r.Seed)) }

// A log that does not exist yet is empty and created by the first Add; each Add appends
// json.Marshal's line, and reopening gives the runs back in order, each of them Has, a second
// run of one key refused and the file left as it was.
func TestLogResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	log, runs, err := experiment.OpenLog(path, logRun.key)
	require.NoError(t, err)
	require.Empty(t, runs)
	require.False(t, log.Has("ce/1"))
	_, err = os.Stat(path)
	require.ErrorIs(t, err, os.ErrNotExist, "opening creates nothing")

	long := make([]float64, 10000)
	for i := range long {
		long[i] = 1 / float64(i+3)
	}
	want := []logRun{{Name: "ce", Seed: 1, AUC: 0.9}, {Name: "kde", Seed: 1, AUC: 0.875, Trail: long}, {Name: "ce", Seed: 2, AUC: 0.5}}
	var text strings.Builder
	for _, r := range want {
		require.NoError(t, log.Add(r))
		require.True(t, log.Has(r.key()))
		line, err := json.Marshal(r)
		require.NoError(t, err)
		text.Write(append(line, '\n'))
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(got), 64<<10)
	require.Equal(t, text.String(), string(got))

	err = log.Add(logRun{Name: "ce", Seed: 2, AUC: 0.75})
	require.ErrorContains(t, err, "run ce/2 is on file already")
	again, runs, err := experiment.OpenLog(path, logRun.key)
	require.NoError(t, err)
	require.Equal(t, want, runs)
	for _, r := range want {
		require.True(t, again.Has(r.key()), r.key())
	}
	require.False(t, again.Has("kde/2"))
	require.ErrorContains(t, again.Add(want[0]), "on file already")
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, text.String(), string(got), "a refused run writes nothing")
}

// A line cut off while it was written, or any other line that is not a run, is an error naming
// the file and the line; a file that cannot be read is an error.
func TestLogRefusesABadLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text, want string
	}{
		{"cut off", `{"name":"ce","seed":1,"auc":0.9}` + "\n" + `{"name":"kde","se`, "line 2: unexpected end of JSON input"},
		{"not JSON", "PASS\n", "line 1: invalid character"},
		{"another type", `{"name":7}` + "\n", "line 1: json: cannot unmarshal number"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".jsonl")
		require.NoError(t, os.WriteFile(path, []byte(c.text), 0o644))
		_, _, err := experiment.OpenLog(path, logRun.key)
		require.ErrorContains(t, err, path, c.name)
		require.ErrorContains(t, err, c.want, c.name)
	}
	_, _, err := experiment.OpenLog(dir, logRun.key) // a directory
	require.Error(t, err)
}
