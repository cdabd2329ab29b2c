package rocbeam

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
)

// saveModel saves the linear scorer s = 2·a′ − b′ + 0.5 on a′ = (a − 10)/2 and b′ = b, with
// threshold 1, α 0.2 and label column y, and returns its path.
func saveModel(t *testing.T, dir string) string {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: 2})
	require.NoError(t, err)
	copy(m.Params()[0].Value.Data().([]float64), []float64{2, -1}) // layer0.weight
	copy(m.Params()[1].Value.Data().([]float64), []float64{0.5})   // layer0.bias
	op := deploy.OperatingPoint{Alpha: 0.2, Threshold: 1, ValFPR: 0.2, ValTPR: 0.7, TestFPR: 0.2, TestTPR: 0.7, Label: "y"}
	path, err := deploy.Save(dir, "linear", m, op, data.Standardizer{Mean: []float64{10, 0}, Std: []float64{2, 1}}, []string{"a", "b"})
	require.NoError(t, err)
	return path
}

// featureShards writes shards CSV files dir/rows-k.csv of n rows in all, columns b, y, a (not
// the model's order), with features on a grid of a few values so that scores tie heavily,
// and label 1 more often where a is large. Without label, the y column is left out.
func featureShards(t *testing.T, dir string, n, shards int, label bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(9, 9))
	bufs := make([]*strings.Builder, shards)
	for k := range bufs {
		bufs[k] = &strings.Builder{}
		if label {
			bufs[k].WriteString("b,y,a\n")
		} else {
			bufs[k].WriteString("b,a\n")
		}
	}
	for i := range n {
		a := 8 + float64(rng.IntN(9))/2
		b := float64(rng.IntN(5)) - 2
		y := 0
		if rng.Float64() < 0.1+0.08*(a-8) {
			y = 1
		}
		if label {
			fmt.Fprintf(bufs[i%shards], "%g,%d,%g\n", b, y, a)
		} else {
			fmt.Fprintf(bufs[i%shards], "%g,%g\n", b, a)
		}
	}
	for k, b := range bufs {
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("rows-%d.csv", k)), []byte(b.String()), 0o644))
	}
}

// runScore builds and runs the scoring of cfg on the test runner.
func runScore(t *testing.T, cfg Config) error {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	require.NoError(t, Score(s, cfg))
	return ptest.Run(p)
}

// scoreInProcess scores the CSV file at path with the model in this process, as deploy does,
// returning its output and the scores and labels in it.
func scoreInProcess(t *testing.T, model, path string) (out []byte, scores, labels []float64) {
	t.Helper()
	return scoreInProcessLabel(t, model, path, "y")
}

func TestScoreMatchesInProcess(t *testing.T) {
	defer func(m int) { maxTally = m }(maxTally)
	maxTally = 3 // flush often: the combine merges many blocks
	modelDir, in, out := t.TempDir(), t.TempDir(), t.TempDir()
	model := saveModel(t, modelDir)
	const shards = 3
	featureShards(t, in, 6000, shards, true)
	require.NoError(t, runScore(t, Config{Input: filepath.Join(in, "rows-*.csv"), Model: model, Output: out}))

	var scores, labels []float64
	for k := range shards {
		want, s, y := scoreInProcess(t, model, filepath.Join(in, fmt.Sprintf("rows-%d.csv", k)))
		got, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("scored-rows-%d.csv", k)))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "shard %d scored as deploy scores it", k)
		scores, labels = append(scores, s...), append(labels, y...)
	}

	r := readReport(t, out)
	require.Equal(t, len(scores), r.N)
	require.Equal(t, 0.2, r.Alpha, "the model's α")
	auc, variance, err := metrics.DeLong(scores, labels)
	require.NoError(t, err)
	require.InDelta(t, auc, r.AUC, tolCurve)
	require.InEpsilon(t, variance, *r.AUCVariance, tolVariance)
	tpr, err := metrics.TPRAtFPR(scores, labels, 0.2)
	require.NoError(t, err)
	require.InDelta(t, tpr, r.TPRAtFPR, tolCurve)
	pauc, err := metrics.PartialAUC(scores, labels, 0.2)
	require.NoError(t, err)
	require.InDelta(t, pauc, r.PAUC, tolCurve)
	require.Equal(t, 1.0, *r.DeployedThreshold, "the sidecar's threshold")
	wantFPR, wantTPR := scanRates(scores, labels, 1)
	require.Equal(t, wantFPR, *r.DeployedFPR)
	require.Equal(t, wantTPR, *r.DeployedTPR)
	fpr, tprs, _, err := metrics.ROC(scores, labels)
	require.NoError(t, err)
	require.Equal(t, fpr, r.ROC.FPR, "few distinct scores: the curve is whole")
	require.Equal(t, tprs, r.ROC.TPR)

	// The scored shards are -scores input: evaluated at the model's threshold, α and label
	// column, they give the same report.
	again := t.TempDir()
	threshold := 1.0
	require.NoError(t, run(Config{Scores: filepath.Join(out, "scored-*.csv"), Output: again, Alpha: 0.2, Threshold: &threshold, Label: "y"}))
	require.Equal(t, r, readReport(t, again))
}

// Rows without the label column are scored and nothing is evaluated.
func TestScoreWithoutLabels(t *testing.T) {
	modelDir, in, out := t.TempDir(), t.TempDir(), t.TempDir()
	model := saveModel(t, modelDir)
	featureShards(t, in, 100, 2, false)
	require.NoError(t, runScore(t, Config{Input: filepath.Join(in, "rows-*.csv"), Model: model, Output: out}))
	got, err := os.ReadFile(filepath.Join(out, "scored-rows-0.csv"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(got), "row,score,flag\n"))
	require.Equal(t, 1+50, strings.Count(string(got), "\n"))
	_, err = os.Stat(filepath.Join(out, "metrics.json"))
	require.True(t, os.IsNotExist(err), "no metrics.json without labels")
}

func TestScoreBadInput(t *testing.T) {
	good := "b,y,a\n1,0,10\n0,1,12\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"bad feature", map[string]string{"rows-0.csv": good, "rows-1.csv": "b,y,a\n1,0,10\n1,1,x\n"},
			[]string{"rows-1.csv", "line 3", `column "a"`}},
		{"bad label", map[string]string{"rows-0.csv": "b,y,a\n1,0,10\n1,7,10\n"},
			[]string{"rows-0.csv", "line 3", `column "y"`}},
		{"missing feature", map[string]string{"rows-0.csv": "b,y\n1,0\n"},
			[]string{"rows-0.csv", `"a"`}},
		{"labels in some shards only", map[string]string{"rows-0.csv": good, "rows-1.csv": "a,b\n10,1\n12,0\n"},
			[]string{"rocbeam: shards have different columns", "rows-0.csv", `"row,y,score,flag"`, "rows-1.csv", `"row,score,flag"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			skipFailingUnderRace(t)
			modelDir, in, out := t.TempDir(), t.TempDir(), t.TempDir()
			model := saveModel(t, modelDir)
			for name, text := range tc.files {
				require.NoError(t, os.WriteFile(filepath.Join(in, name), []byte(text), 0o644))
			}
			err := runScore(t, Config{Input: filepath.Join(in, "rows-*.csv"), Model: model, Output: out})
			require.Error(t, err)
			for _, w := range tc.want {
				require.Contains(t, err.Error(), w)
			}
			_, err = os.Stat(filepath.Join(out, "metrics.json"))
			require.True(t, os.IsNotExist(err), "no metrics.json")
			if tc.name == "bad feature" {
				_, err = os.Stat(filepath.Join(out, "scored-rows-1.csv"))
				require.True(t, os.IsNotExist(err), "the failed file's scored shard is removed")
			}
		})
	}
	// A model that does not load fails before the pipeline runs.
	_, s := beam.NewPipelineWithRoot()
	err := Score(s, Config{Input: "x", Model: filepath.Join(t.TempDir(), "none.params"), Output: t.TempDir()})
	require.ErrorContains(t, err, "none.json")
}

// Binary, which -scores -model applies (one score a row, one threshold), refuses a model of
// classes with ErrClasses; Score takes multi-class models (TestScoreEvaluatesClasses).
func TestBinaryRefusesModelOfClasses(t *testing.T) {
	path := saveClassesModel(t, t.TempDir())
	sc, err := deploy.Load(path)
	require.NoError(t, err)
	defer sc.Close()
	require.ErrorIs(t, Binary(sc), ErrClasses)
	require.ErrorContains(t, Binary(sc), "3 classes")
	bin, err := deploy.Load(saveModel(t, t.TempDir()))
	require.NoError(t, err)
	defer bin.Close()
	require.NoError(t, Binary(bin))
}

// saveClassesModel saves a linear model of three classes and returns its path.
func saveClassesModel(t *testing.T, dir string) string {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: 3})
	require.NoError(t, err)
	rates := []float64{0.1, 0.2, 0.3}
	op := deploy.OperatingPoint{Alpha: 0.2, Label: "y", Classes: []string{"a", "b", "c"}, Thresholds: []float64{0, 0, 0},
		ClassValFPR: rates, ClassValTPR: rates, ClassTestFPR: rates, ClassTestTPR: rates}
	path, err := deploy.Save(dir, "classes", m, op, data.Standardizer{Mean: []float64{10, 0}, Std: []float64{2, 1}}, []string{"a1", "b1"})
	require.NoError(t, err)
	return path
}
