package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/nn"
)

// roctrain runs the command in-process and returns its exit status, stdout and stderr.
func roctrain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// -json on the embedded data prints one JSON object, and nothing else, listing every
// requested run with finite metrics in range; the plot is a PNG and the models load.
func TestJSONOnEmbeddedData(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "roc.png")
	models := filepath.Join(dir, "models")
	epochs := "4"
	if !testing.Short() {
		epochs = "20"
	}
	code, stdout, stderr := roctrain(t, "-json", "-epochs", epochs, "-warmup", "2", "-lr", "0.01",
		"-losses", "ce,kde,logistic,exp,square,hinge,sqhinge,sqhinge+wu", "-plot", plot, "-out", models)
	require.Equal(t, 0, code, stderr)

	var got struct {
		Results []map[string]any `json:"results"`
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&got))
	require.False(t, dec.More(), "stdout holds one JSON object only")

	want := []struct {
		loss   string
		warmup float64
	}{{"ce", 0}, {"kde", 0}, {"logistic", 0}, {"exp", 0}, {"square", 0}, {"hinge", 0}, {"sqhinge", 0}, {"sqhinge", 2}}
	require.Len(t, got.Results, len(want))
	for i, w := range want {
		r := got.Results[i]
		require.Equal(t, w.loss, r["loss"])
		require.Equal(t, w.warmup, r["warmup_epochs"])
		require.Equal(t, 0.1, r["alpha"])
		for _, k := range []string{"test_auc", "test_pauc", "test_tpr_at_fpr"} {
			v, ok := r[k].(float64)
			require.True(t, ok, k)
			require.True(t, v >= 0 && v <= 1, "%s = %v", k, v)
		}
		// A scorer trained on WDBC ranks far better than chance whatever the loss.
		require.Greater(t, r["test_auc"].(float64), 0.9, w.loss)
		require.Greater(t, r["train_seconds"].(float64), 0.0)
	}

	info, err := os.Stat(plot)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	f, err := os.Open(plot)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	require.Greater(t, img.Bounds().Dx(), 500)

	m, err := nn.NewMLP(nn.MLPConfig{In: 30, Hidden: []int{64}})
	require.NoError(t, err)
	require.NoError(t, nn.Load(filepath.Join(models, "sqhinge+wu.params"), m))
}

// Without -json the command prints the table with one row per run and the data credit.
func TestTable(t *testing.T) {
	code, stdout, stderr := roctrain(t, "-epochs", "2", "-lr", "0.01", "-losses", "ce,kde", "-plot", "")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "test TPR@FPR=0.1")
	require.Contains(t, stdout, "UCI Machine Learning Repository")
	lines := strings.Split(stdout, "\n")
	rows := 0
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 7 && (f[0] == "ce" || f[0] == "kde") {
			rows++
		}
	}
	require.Equal(t, 2, rows, stdout)
}

func TestCSVInputAndErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	var b strings.Builder
	b.WriteString("a,b,target,c\n")
	for i := range 60 {
		y := i % 3 / 2 // one row in three is positive
		b.WriteString(strings.Join([]string{itoa(i % 7), itoa(i%5 + 3*y), itoa(y), itoa(i % 2)}, ",") + "\n")
	}
	require.NoError(t, os.WriteFile(good, []byte(b.String()), 0o644))
	code, stdout, stderr := roctrain(t, "-data", good, "-label", "target", "-json", "-epochs", "2", "-lr", "0.01", "-losses", "ce", "-plot", "", "-hidden", "")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, `"loss": "ce"`)

	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("a,b,y\n1,2,0\n3,x,1\n"), 0o644))
	code, _, stderr = roctrain(t, "-data", bad, "-plot", "")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "line 3")
	require.Contains(t, stderr, `column "b"`)

	for _, args := range [][]string{
		{"-alpha", "0"}, {"-alpha", "1.5"}, {"-losses", "ce,focal"}, {"-losses", "ce,ce"}, {"-losses", ""},
		{"-epochs", "0"}, {"-hidden", "64,x"}, {"-lr", "-1"}, {"-lr", ""}, {"extra"}, {"-nosuchflag"},
	} {
		code, _, stderr := roctrain(t, args...)
		require.Equal(t, 2, code, "%v: %s", args, stderr)
		require.Contains(t, stderr, "roctrain")
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

// A diverging run is reported on stderr and fails the command, but the other runs are still
// trained and reported; a diverging learning rate does not stop its run when another works.
func TestFailedRunsDoNotLoseTheOthers(t *testing.T) {
	// With a learning rate of 1000 the exponential surrogate overflows on the second step.
	code, stdout, stderr := roctrain(t, "-json", "-plot", "", "-epochs", "3", "-lr", "1000", "-losses", "exp,ce")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "run exp")
	require.Contains(t, stderr, "loss overflows")
	var got struct {
		Results []struct{ Loss string } `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Len(t, got.Results, 1)
	require.Equal(t, "ce", got.Results[0].Loss)

	code, stdout, stderr = roctrain(t, "-json", "-plot", "", "-epochs", "3", "-lr", "1000,0.01", "-losses", "exp")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "learning rate 1000")
	require.Contains(t, stdout, `"learning_rate": 0.01`)
}
