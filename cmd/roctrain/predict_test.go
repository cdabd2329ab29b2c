package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// -predict scores a CSV longer than one chunk of rows (predictChunk) row by row in order, the
// scores those of the model on the sidecar's standardisation, and stops a row beyond -data's
// limits (data.DefaultMaxField) with an error naming its line.
func TestPredictStreamsRowsInChunks(t *testing.T) {
	dir := t.TempDir()
	models := filepath.Join(dir, "models")
	code, _, stderr := roctrain(t, "-data", writeCSV(t, dir, 400), "-label", "y", "-out", models, "-plot", "",
		"-losses", "ce", "-hidden", "", "-epochs", "2", "-lr", "0.01", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	model := filepath.Join(models, "ce.params")

	big := filepath.Join(dir, "big")
	require.NoError(t, os.Mkdir(big, 0o755))
	rows := 2*predictChunk + 123
	csvPath := writeCSV(t, big, rows)
	code, out, stderr := roctrain(t, "-predict", model, "-data", csvPath)
	require.Equal(t, 0, code, stderr)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, rows+1)

	m, sc, err := loadDeployment(model)
	require.NoError(t, err)
	ds, err := data.LoadCSV(csvPath, data.CSVConfig{Label: "y"})
	require.NoError(t, err)
	std, err := sc.standardizer().Apply(ds)
	require.NoError(t, err)
	want, err := nn.Scores(m, std.X, std.Rows)
	require.NoError(t, err)
	for i, rec := range recs[1:] {
		require.Equal(t, strconv.Itoa(i+1), rec[0])
		score, err := strconv.ParseFloat(rec[2], 64)
		require.NoError(t, err)
		require.Equal(t, want[i], score, "row %d", i+1)
	}

	long := filepath.Join(dir, "long.csv")
	require.NoError(t, os.WriteFile(long, []byte("a,y,b,c\n1,0,2,3\n1,1,"+strings.Repeat("9", data.DefaultMaxField+1)+",3\n"), 0o644))
	code, _, stderr = roctrain(t, "-predict", model, "-data", long)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "line 3")
	require.Contains(t, stderr, "MaxField")
}
