package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/nn"
)

// trainModels trains a linear ce run on a 400-row CSV with -out (with extra flags such as
// -seeds) and returns the models' directory and the CSV's path.
func trainModels(t *testing.T, extra ...string) (models, csvPath string) {
	t.Helper()
	dir := t.TempDir()
	models, csvPath = filepath.Join(dir, "models"), writeCSV(t, dir, 400)
	args := append([]string{"-data", csvPath, "-label", "y", "-out", models, "-plot", "",
		"-losses", "ce", "-hidden", "", "-epochs", "2", "-lr", "0.01", "-boot", "0"}, extra...)
	code, _, stderr := roctrain(t, args...)
	require.Equal(t, 0, code, stderr)
	return models, csvPath
}

// -predict scores a CSV longer than deploy's 4096-row chunk row by row in order, the scores
// those of the saved model on the sidecar's standardisation, and stops a row beyond -data's
// limits (a field of at most 64 KiB) with an error naming its file and line.
func TestPredictStreamsRowsInChunks(t *testing.T) {
	models, _ := trainModels(t)
	model := filepath.Join(models, "ce.params")
	big := t.TempDir()
	rows := 2*4096 + 123
	csvPath := writeCSV(t, big, rows)
	code, out, stderr := roctrain(t, "-predict", model, "-data", csvPath)
	require.Equal(t, 0, code, stderr)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, rows+1)

	s, err := deploy.Load(model)
	require.NoError(t, err)
	m, err := nn.NewMLP(nn.MLPConfig{In: 3})
	require.NoError(t, err)
	require.NoError(t, nn.Load(s.ModelPath(), m))
	ds, err := data.LoadCSV(csvPath, data.CSVConfig{Label: "y"})
	require.NoError(t, err)
	std, err := s.Standardizer().Apply(ds)
	require.NoError(t, err)
	want, err := nn.Scores(m, std.X, std.Rows)
	require.NoError(t, err)
	for i, rec := range recs[1:] {
		require.Equal(t, strconv.Itoa(i+1), rec[0])
		score, err := strconv.ParseFloat(rec[2], 64)
		require.NoError(t, err)
		require.Equal(t, want[i], score, "row %d", i+1)
	}

	long := filepath.Join(big, "long.csv")
	require.NoError(t, os.WriteFile(long, []byte("a,y,b,c\n1,0,2,3\n1,1,"+strings.Repeat("9", 64<<10+1)+",3\n"), 0o644))
	code, _, stderr = roctrain(t, "-predict", model, "-data", long)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, long+": line 3")
	require.Contains(t, stderr, "MaxField")
}

// deploy.Load and Scorer.ScoreCSV on a model saved by roctrain -out print exactly what
// roctrain -predict prints, and the flagged count -predict reports.
func TestPredictIsDeployScoreCSV(t *testing.T) {
	models, csvPath := trainModels(t, "-losses", "ce,kde-plain")
	for _, run := range []string{"ce", "kde-plain"} {
		model := filepath.Join(models, run+".params")
		code, out, stderr := roctrain(t, "-predict", model, "-data", csvPath)
		require.Equal(t, 0, code, stderr)

		s, err := deploy.Load(model)
		require.NoError(t, err)
		f, err := os.Open(csvPath)
		require.NoError(t, err)
		var want bytes.Buffer
		rows, flagged, err := s.ScoreCSV(f, &want)
		f.Close()
		require.NoError(t, err)
		require.Equal(t, want.String(), out, run)
		require.Equal(t, "roctrain: flagged "+strconv.Itoa(flagged)+" of "+strconv.Itoa(rows)+" rows: score ≥ "+
			strconv.FormatFloat(s.OperatingPoint().Threshold, 'g', -1, 64)+", the threshold that kept validation FPR ≤ α = 0.1 ("+
			filepath.Base(s.ModelPath())+", seed 1)\n", stderr)
	}
}

// After -out with -seeds, -predict <run>.params (which no run wrote) says so with one
// "roctrain:" prefix, names the file given and lists the per-seed models, in seed order;
// each of them predicts.
func TestPredictAfterSeeds(t *testing.T) {
	models, csvPath := trainModels(t, "-seeds", "10", "-epochs", "1")
	typed := filepath.Join(models, "ce.params")
	code, out, stderr := roctrain(t, "-predict", typed, "-data", csvPath)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Equal(t, 1, strings.Count(stderr, "roctrain:"), stderr)
	require.True(t, strings.HasPrefix(stderr, "roctrain: -predict "+typed+": "), stderr)
	var list []string
	for s := 1; s <= 10; s++ {
		list = append(list, filepath.Join(models, "ce.seed"+strconv.Itoa(s)+".params"))
	}
	require.Contains(t, stderr, strings.Join(list, ", "))
	code, out, stderr = roctrain(t, "-predict", list[9], "-data", csvPath)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "seed 10)")
	require.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 401)
}

// With -predict, the flags that would be ignored are bad usage (status 2), before anything is
// read.
func TestPredictRefusesTrainingFlags(t *testing.T) {
	for _, args := range [][]string{{"-json"}, {"-out", "x"}, {"-alpha", "5"}, {"-seeds", "-1"}, {"-plot", "p.png"}, {"-label", "y"}} {
		code, out, stderr := roctrain(t, append([]string{"-predict", "missing.params", "-data", "missing.csv"}, args...)...)
		require.Equal(t, 2, code, "%q: %s", args, stderr)
		require.Empty(t, out)
		require.Contains(t, stderr, args[0]+" would be ignored")
	}
}

// -predict applies training's CSV rules: a duplicate column name and a row with more fields
// than the header are errors naming the file and the line, as training reports them.
func TestPredictAppliesTrainingCSVRules(t *testing.T) {
	models, _ := trainModels(t)
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"a,b,c,a,y\n1,2,3,4,0\n", `line 1, column "a": duplicate column name`},
		{"a,b,c,y\n1,2,3,0\n1,2,3,0,7\n", "line 3: 5 fields, the header has 4"},
		{"a,b,c,y\n1,2,3,0\n1,?,3,0\n", `line 3, column "b": missing value "?"`},
	} {
		path := filepath.Join(dir, "rows.csv")
		require.NoError(t, os.WriteFile(path, []byte(c.text), 0o644))
		code, _, stderr := roctrain(t, "-predict", filepath.Join(models, "ce.params"), "-data", path)
		require.Equal(t, 1, code, c.text)
		require.Contains(t, stderr, "roctrain: data: "+path+": "+c.want)
		_, err := data.LoadCSV(path, data.CSVConfig{Label: "y"})
		require.ErrorContains(t, err, c.want, "training reports the same")
	}
}
