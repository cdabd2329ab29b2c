package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/nn"
)

func TestMain(m *testing.M) {
	beamlog.LogLevel = "warn"
	// A temporary directory of the tests' own, for the file the loopback runner leaves at
	// every run.
	tmp, err := os.MkdirTemp("", "rocbeam-test-")
	if err == nil {
		os.Setenv("TMPDIR", tmp)
	}
	code := ptest.MainRet(m) // parses the flags and initialises Beam; run's pipelines go to prism
	os.RemoveAll(tmp)
	os.Exit(code)
}

// setFlags sets the command's flags for one run and restores them after the test.
func setFlags(t *testing.T, sc, mo, in, lab, out string, a float64) {
	old := []string{*scores, *model, *input, *label, *output}
	oldAlpha, oldConf := *alpha, *conf
	t.Cleanup(func() {
		*scores, *model, *input, *label, *output = old[0], old[1], old[2], old[3], old[4]
		*alpha, *conf = oldAlpha, oldConf
	})
	*scores, *model, *input, *label, *output, *alpha = sc, mo, in, lab, out, a
}

func TestRunScores(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(in, "s-0.csv"), []byte("score,y\n0.1,0\n0.7,1\n0.4,0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "s-1.csv"), []byte("score,y\n0.4,1\n0.2,0\n"), 0o644))
	setFlags(t, filepath.Join(in, "s-*.csv"), "", "", "y", out, 0.5)
	require.NoError(t, run(context.Background()))
	b, err := os.ReadFile(filepath.Join(out, "metrics.json"))
	require.NoError(t, err)
	var r struct {
		N     int     `json:"n"`
		AUC   float64 `json:"auc"`
		Alpha float64 `json:"alpha"`
	}
	require.NoError(t, json.Unmarshal(b, &r))
	// By hand: the positive at 0.7 beats all 3 negatives, the one at 0.4 beats 2 and ties 1,
	// so AUC = (3 + 2.5)/(2·3).
	require.Equal(t, 5, r.N)
	require.InDelta(t, 5.5/6, r.AUC, 1e-15)
	require.Equal(t, 0.5, r.Alpha)
}

// -confidence reaches the evaluation: the deployed threshold is metrics.ThresholdNP of the
// rows, here the 96th smallest of 100 negatives scored 0…99 (k* = 96 at α = 0.1, δ = 0.05)
// plus one ulp, and metrics.json records the confidence.
func TestRunScoresConfidence(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	var b strings.Builder
	b.WriteString("score,label\n")
	for i := range 100 {
		fmt.Fprintf(&b, "%d,0\n", i)
	}
	b.WriteString("120,1\n")
	require.NoError(t, os.WriteFile(filepath.Join(in, "s.csv"), []byte(b.String()), 0o644))
	setFlags(t, filepath.Join(in, "s.csv"), "", "", "", out, 0.1)
	*conf = 0.95
	require.NoError(t, run(context.Background()))
	raw, err := os.ReadFile(filepath.Join(out, "metrics.json"))
	require.NoError(t, err)
	var r struct {
		Threshold  float64 `json:"deployed_threshold"`
		FPR        float64 `json:"deployed_fpr"`
		Confidence float64 `json:"deployed_confidence"`
	}
	require.NoError(t, json.Unmarshal(raw, &r))
	require.Equal(t, math.Nextafter(95, math.Inf(1)), r.Threshold)
	require.Equal(t, 0.04, r.FPR)
	require.Equal(t, 0.95, r.Confidence)
}

func TestRunFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		sc, mo, in, lab, wantErr string
		a, c                     float64
	}{
		{name: "nothing", wantErr: "give -scores"},
		{name: "both", sc: "a", in: "b", mo: "m", wantErr: "not both"},
		{name: "input without model", in: "b", wantErr: "-input needs -model"},
		{name: "label with input", in: "b", mo: "m", lab: "y", wantErr: "-label is for -scores"},
		{name: "alpha", sc: "a", a: 1.5, wantErr: "-alpha 1.5"},
		{name: "no model", sc: "a", mo: filepath.Join(t.TempDir(), "none.params"), wantErr: "none.json"},
		{name: "model of classes", sc: "a", mo: saveClassesModel(t), wantErr: "multi-class or multi-label"},
		{name: "confidence", sc: "a", c: 1.5, wantErr: "-confidence 1.5"},
		{name: "confidence with input", in: "b", mo: "m", c: 0.95, wantErr: "-confidence is for -scores"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setFlags(t, tc.sc, tc.mo, tc.in, tc.lab, t.TempDir(), tc.a)
			*conf = tc.c
			require.ErrorContains(t, run(context.Background()), tc.wantErr)
		})
	}
}

// saveClassesModel saves a linear model of three classes and returns its path.
func saveClassesModel(t *testing.T) string {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: 3})
	require.NoError(t, err)
	rates := []float64{0.1, 0.2, 0.3}
	op := deploy.OperatingPoint{Alpha: 0.2, Label: "y", Classes: []string{"a", "b", "c"}, Thresholds: []float64{0, 0, 0},
		ClassValFPR: rates, ClassValTPR: rates, ClassTestFPR: rates, ClassTestTPR: rates}
	path, err := deploy.Save(t.TempDir(), "classes", m, op, data.Standardizer{Mean: []float64{10, 0}, Std: []float64{2, 1}}, []string{"a", "b"})
	require.NoError(t, err)
	return path
}
