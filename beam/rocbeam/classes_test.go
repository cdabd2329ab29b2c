package rocbeam

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
)

// saveScoringClassesModel saves a linear model of the classes a, b and c on the features a1
// and b1, with weights that rank each class above the others on its own region, and per-class
// thresholds; it returns its path.
func saveScoringClassesModel(t *testing.T, dir string) string {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: 3})
	require.NoError(t, err)
	copy(m.Params()[0].Value.Data().([]float64), []float64{1, -1, 0, 0, 1, -1}) // weight, 2×3: s_a = a1, s_b = b1 − a1, s_c = −b1
	copy(m.Params()[1].Value.Data().([]float64), []float64{0, 0.2, -0.1})
	rates := []float64{0.1, 0.2, 0.3}
	op := deploy.OperatingPoint{Alpha: 0.2, Label: "kind", Classes: []string{"a", "b", "c"}, Thresholds: []float64{0.5, math.Inf(1), 0},
		ClassValFPR: rates, ClassValTPR: rates, ClassTestFPR: rates, ClassTestTPR: rates}
	path, err := deploy.Save(dir, "classes", m, op, data.Standardizer{Mean: []float64{0, 0}, Std: []float64{1, 1}}, []string{"a1", "b1"})
	require.NoError(t, err)
	return path
}

// classShards writes shards of n rows of the three classes, the features on a coarse grid so
// that scores tie, in the columns kind, b1, a1.
func classShards(t *testing.T, dir string, n, shards int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	bufs := make([]strings.Builder, shards)
	for k := range bufs {
		bufs[k].WriteString("kind,b1,a1\n")
	}
	for i := range n {
		c := rng.IntN(3)
		a := float64(rng.IntN(7)-3)/2 + []float64{1, 0, -1}[c]
		b := float64(rng.IntN(7)-3)/2 + []float64{0, 1, -1}[c]
		fmt.Fprintf(&bufs[i%shards], "%s,%g,%g\n", []string{"a", "b", "c"}[c], b, a)
	}
	for k := range bufs {
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("rows-%d.csv", k)), []byte(bufs[k].String()), 0o644))
	}
}

// A multi-class model is scored, and evaluated from its k×k count tables: every class's
// one-vs-rest figures, their macro means and the one-vs-one AUC equal the in-process figures
// of package metrics on the scores deploy gives the same rows.
func TestScoreEvaluatesClasses(t *testing.T) {
	defer func(m int) { maxTally = m }(maxTally)
	maxTally = 5 // flush often: many blocks per table
	modelDir, in, out := t.TempDir(), t.TempDir(), t.TempDir()
	model := saveScoringClassesModel(t, modelDir)
	classShards(t, in, 3000, 3)
	require.NoError(t, runScore(t, Config{Input: filepath.Join(in, "rows-*.csv"), Model: model, Output: out}))

	sc, err := deploy.Load(model)
	require.NoError(t, err)
	defer sc.Close()
	var scores, labels []float64
	for k := range 3 {
		in, err := os.ReadFile(filepath.Join(in, fmt.Sprintf("rows-%d.csv", k)))
		require.NoError(t, err)
		var want bytes.Buffer
		_, _, err = sc.ScoreCSV(bytes.NewReader(in), &want)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("scored-rows-%d.csv", k)))
		require.NoError(t, err)
		require.Equal(t, want.String(), string(got), "shard %d scored as deploy scores it", k)
		recs, err := csv.NewReader(&want).ReadAll()
		require.NoError(t, err)
		for _, r := range recs[1:] {
			labels = append(labels, float64(strings.Index("abc", r[1])))
			for c := range 3 {
				x, err := strconv.ParseFloat(r[2+c], 64)
				require.NoError(t, err)
				scores = append(scores, x)
			}
		}
	}
	r := readReport(t, out)
	require.Equal(t, len(labels), r.N)
	require.Len(t, r.Classes, 3)
	ovr, err := metrics.TaskAUC(scores, labels, rocops.Classes(3), metrics.OvR, metrics.Macro)
	require.NoError(t, err)
	require.InDelta(t, ovr, r.AUC, tolCurve)
	ovo, err := metrics.TaskAUC(scores, labels, rocops.Classes(3), metrics.OvO, metrics.Macro)
	require.NoError(t, err)
	require.InDelta(t, ovo, *r.AUCOvO, tolCurve)
	var tprMean, fprMean float64
	for c, cr := range r.Classes {
		col, ind := make([]float64, len(labels)), make([]float64, len(labels))
		for i, y := range labels {
			col[i] = scores[3*i+c]
			if int(y) == c {
				ind[i] = 1
			}
		}
		require.Equal(t, []string{"a", "b", "c"}[c], cr.Class)
		auc, variance, err := metrics.DeLong(col, ind)
		require.NoError(t, err)
		require.InDelta(t, auc, cr.AUC, tolCurve, cr.Class)
		require.InEpsilon(t, variance, *cr.AUCVariance, tolVariance, cr.Class)
		tpr, err := metrics.TPRAtFPR(col, ind, 0.2)
		require.NoError(t, err)
		require.InDelta(t, tpr, cr.TPRAtFPR, tolCurve, cr.Class)
		th := sc.OperatingPoint().Thresholds[c]
		wantFPR, wantTPR := scanRates(col, ind, th)
		require.Equal(t, wantFPR, *cr.DeployedFPR, cr.Class)
		require.Equal(t, wantTPR, *cr.DeployedTPR, cr.Class)
		tprMean, fprMean = tprMean+wantTPR/3, fprMean+wantFPR/3
	}
	require.Nil(t, r.Classes[1].DeployedThreshold, "class b's +Inf threshold flags nothing")
	require.Equal(t, 0.0, *r.Classes[1].DeployedTPR)
	require.InDelta(t, tprMean, *r.DeployedTPR, 1e-15)
	require.InDelta(t, fprMean, *r.DeployedFPR, 1e-15)
	require.Greater(t, ovo, 0.7, "the classes are told apart")
}

// A multi-label model is refused with ErrClasses before the pipeline runs.
func TestScoreRefusesMultilabel(t *testing.T) {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: 2})
	require.NoError(t, err)
	rates := []float64{0.1, 0.2}
	op := deploy.OperatingPoint{Alpha: 0.2, Classes: []string{"p", "q"}, Multilabel: true, Thresholds: []float64{0, 0},
		ClassValFPR: rates, ClassValTPR: rates, ClassTestFPR: rates, ClassTestTPR: rates}
	path, err := deploy.Save(t.TempDir(), "ml", m, op, data.Standardizer{Mean: []float64{0, 0}, Std: []float64{1, 1}}, []string{"a1", "b1"})
	require.NoError(t, err)
	_, s := beam.NewPipelineWithRoot()
	err = Score(s, Config{Input: "x", Model: path, Output: t.TempDir()})
	require.ErrorIs(t, err, ErrClasses)
	require.ErrorContains(t, err, "multi-label model of 2 labels")
}

// A model trained on a raw table (text columns, missing values, text labels) scores raw
// shards through its encoder, as deploy scores them, with blank cells and a level new since
// training, and the report's AUC is the in-process one.
func TestScoreEncodedModel(t *testing.T) {
	const train = "dept,age,left\nsales,30,No\nhr,,Yes\nit,41,No\nsales,NA,Yes\nhr,25,No\nit,50,Yes\nsales,33,No\nhr,47,Yes\n"
	ds, err := data.ReadCSV(strings.NewReader(train), data.CSVConfig{Text: true, Missing: true, Positive: "Yes"})
	require.NoError(t, err)
	enc, err := data.FitEncoder(ds, data.EncoderConfig{MinRows: 2})
	require.NoError(t, err)
	x, err := enc.Apply(ds)
	require.NoError(t, err)
	st, err := data.FitStandardizer(x)
	require.NoError(t, err)
	m, err := nn.NewMLP(nn.MLPConfig{In: x.Cols, Seed: 3})
	require.NoError(t, err)
	op := deploy.OperatingPoint{Alpha: 0.2, Threshold: 0, ValFPR: 0.2, ValTPR: 0.5, TestFPR: 0.2, TestTPR: 0.5, Label: "left", Encoder: enc}
	model, err := deploy.Save(t.TempDir(), "raw", m, op, st, x.FeatureNames)
	require.NoError(t, err)

	in, out := t.TempDir(), t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 2 {
		var b strings.Builder
		b.WriteString("age,left,dept\n")
		for range 200 {
			age, dept := strconv.Itoa(20+rng.IntN(40)), []string{"sales", "hr", "it", "legal", ""}[rng.IntN(5)]
			if rng.IntN(6) == 0 {
				age = ""
			}
			fmt.Fprintf(&b, "%s,%s,%s\n", age, []string{"No", "Yes"}[rng.IntN(2)], dept)
		}
		require.NoError(t, os.WriteFile(filepath.Join(in, fmt.Sprintf("rows-%d.csv", k)), []byte(b.String()), 0o644))
	}
	require.NoError(t, runScore(t, Config{Input: filepath.Join(in, "rows-*.csv"), Model: model, Output: out}))
	var scores, labels []float64
	for k := range 2 {
		want, s, y := scoreInProcessLabel(t, model, filepath.Join(in, fmt.Sprintf("rows-%d.csv", k)), "left")
		got, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("scored-rows-%d.csv", k)))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "shard %d", k)
		for _, v := range s {
			require.False(t, math.IsNaN(v) || math.IsInf(v, 0))
		}
		scores, labels = append(scores, s...), append(labels, y...)
	}
	auc, err := metrics.AUC(scores, labels)
	require.NoError(t, err)
	require.InDelta(t, auc, readReport(t, out).AUC, tolCurve)
}

// scoreInProcessLabel is scoreInProcess of a model whose label column is label.
func scoreInProcessLabel(t *testing.T, model, path, label string) (out []byte, scores, labels []float64) {
	t.Helper()
	sc, err := deploy.Load(model)
	require.NoError(t, err)
	defer sc.Close()
	in, err := os.ReadFile(path)
	require.NoError(t, err)
	var buf bytes.Buffer
	_, _, err = sc.ScoreCSV(bytes.NewReader(in), &buf)
	require.NoError(t, err)
	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"row", label, "score", "flag"}, recs[0])
	for _, r := range recs[1:] {
		y, err := strconv.ParseFloat(r[1], 64)
		require.NoError(t, err)
		x, err := strconv.ParseFloat(r[2], 64)
		require.NoError(t, err)
		scores, labels = append(scores, x), append(labels, y)
	}
	return buf.Bytes(), scores, labels
}
