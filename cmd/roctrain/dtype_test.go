package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/nn"
)

// -dtype float32 trains float32 models: the run reports finite figures, the checkpoint -out
// writes holds float32 parameters (nn.Describe) and its sidecar says so, and -predict scores
// every row with exactly the scores of that float32 checkpoint on the sidecar's
// standardisation. A float64 checkpoint of the same run is refused by the float32 model
// (nn.ErrArchitecture naming the dtypes), so the dtype did reach the model rather than only the files.
func TestDtypeFloat32TrainsAndPredicts(t *testing.T) {
	dir := t.TempDir()
	models, csvPath := filepath.Join(dir, "models"), writeCSV(t, dir, 400)
	code, stdout, stderr := roctrain(t, "-dtype", "float32", "-json", "-data", csvPath, "-label", "y",
		"-out", models, "-plot", "", "-losses", "ce,kde", "-hidden", "8", "-epochs", "3", "-lr", "0.01", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	var got struct {
		Results []struct {
			Loss    string  `json:"loss"`
			TestAUC float64 `json:"test_auc"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Len(t, got.Results, 2)
	for _, r := range got.Results {
		require.False(t, math.IsNaN(r.TestAUC), r.Loss)
		require.Greater(t, r.TestAUC, 0.5, "%s: the label shifts two features, so a trained model ranks above chance", r.Loss)
	}

	ds, err := data.LoadCSV(csvPath, data.CSVConfig{Label: "y"})
	require.NoError(t, err)
	for _, run := range []string{"ce", "kde"} {
		s, err := deploy.Load(filepath.Join(models, run+".params"))
		require.NoError(t, err)
		f, err := os.Open(s.ModelPath())
		require.NoError(t, err)
		_, dt, err := nn.Describe(f)
		f.Close()
		require.NoError(t, err)
		require.Equal(t, tensor.Float32, dt, run)
		var side struct {
			Model struct {
				Dtype string `json:"dtype"`
			} `json:"model"`
		}
		raw, err := os.ReadFile(filepath.Join(models, run+".json"))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(raw, &side))
		require.Equal(t, "float32", side.Model.Dtype, run)

		m, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{8}, Dtype: tensor.Float32})
		require.NoError(t, err)
		require.NoError(t, nn.Load(s.ModelPath(), m))
		m64, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{8}})
		require.NoError(t, err)
		err = nn.Load(s.ModelPath(), m64)
		require.ErrorIs(t, err, nn.ErrArchitecture)
		require.ErrorContains(t, err, "the checkpoint holds float32 parameters, the model is float64")
		std, err := s.Standardizer().Apply(ds)
		require.NoError(t, err)
		want, err := nn.Scores(m, std.X, std.Rows)
		require.NoError(t, err)
		s.Close()

		code, out, stderr := roctrain(t, "-predict", filepath.Join(models, run+".params"), "-data", csvPath)
		require.Equal(t, 0, code, stderr)
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		require.NoError(t, err)
		require.Len(t, recs, ds.Rows+1)
		for i, rec := range recs[1:] {
			score, err := strconv.ParseFloat(rec[2], 64)
			require.NoError(t, err)
			require.Equal(t, want[i], score, "%s row %d", run, i+1)
			require.Equal(t, float64(float32(score)), score, "%s row %d: a float32 model's score", run, i+1)
		}
	}
}

// -dtype takes float64 (the default) and float32; anything else is a flag error (exit status
// 2) naming the flag and the value, before any data is read.
func TestDtypeFlag(t *testing.T) {
	for dt, want := range map[string]tensor.Dtype{"": tensor.Float64, "float64": tensor.Float64, "float32": tensor.Float32} {
		args := []string{}
		if dt != "" {
			args = []string{"-dtype", dt}
		}
		opt, err := parseFlags(args, os.Stderr)
		require.NoError(t, err, dt)
		require.Equal(t, want, opt.modelDtype, dt)
	}
	for _, bad := range []string{"float16", "Float32", "f32", ""} {
		code, stdout, stderr := roctrain(t, "-dtype", bad, "-data", "/nonexistent.csv", "-plot", "")
		require.Equal(t, 2, code, "%q: %s", bad, stderr)
		require.Contains(t, stderr, "-dtype")
		require.Contains(t, stderr, strconv.Quote(bad))
		require.NotContains(t, stderr, "nonexistent", "refused before reading the data")
		require.Empty(t, stdout)
	}
}
