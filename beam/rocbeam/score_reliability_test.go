package rocbeam

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/nn"
)

// saveModelLabelled is saveModel with the label column label.
func saveModelLabelled(t *testing.T, dir, label string) string {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: 2})
	require.NoError(t, err)
	op := deploy.OperatingPoint{Alpha: 0.2, Threshold: 1, ValFPR: 0.2, ValTPR: 0.7, TestFPR: 0.2, TestTPR: 0.7, Label: label}
	path, err := deploy.Save(dir, "linear", m, op, data.Standardizer{Mean: []float64{10, 0}, Std: []float64{2, 1}}, []string{"a", "b"})
	require.NoError(t, err)
	return path
}

// rowsOf returns n rows of the columns header (of a, b and y), y cycling 0, 1, 1.
func rowsOf(header string, n int) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	cols := strings.Split(header, ",")
	for i := range n {
		v := map[string]string{"a": fmt.Sprint(8 + i%9), "b": fmt.Sprint(i%5 - 2), "y": fmt.Sprint(min(i%3, 1))}
		for k, c := range cols {
			if k > 0 {
				b.WriteString(",")
			}
			b.WriteString(v[c])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Input shards of one base name in different directories would be scored into one file, the
// last writer's: they are refused before the pipeline runs, naming both (d/a/rows.csv and
// d/b/rows.csv, 100 and 200 rows, printed "300 rows scored" and left scored-rows.csv with 200).
func TestScoreRefusesShardsOfOneName(t *testing.T) {
	model, in, out := saveModel(t, t.TempDir()), t.TempDir(), t.TempDir()
	for dir, n := range map[string]int{"a": 100, "b": 200} {
		require.NoError(t, os.MkdirAll(filepath.Join(in, dir), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(in, dir, "rows.csv"), []byte(rowsOf("b,y,a", n)), 0o644))
	}
	_, s := beam.NewPipelineWithRoot()
	err := Score(s, Config{Input: filepath.Join(in, "*", "rows.csv"), Model: model, Output: out})
	require.ErrorContains(t, err, filepath.Join(in, "a", "rows.csv")+" and "+filepath.Join(in, "b", "rows.csv")+" would both be scored into "+out+"/scored-rows.csv")
	left, err := os.ReadDir(out)
	require.NoError(t, err)
	require.Empty(t, left, "nothing written")
}

// A scored shard is written under a temporary name and renamed when complete: a run killed
// mid-shard left scored-rows-*.csv files cut mid-number under their final names.
func TestScoredShardRenamedWhenComplete(t *testing.T) {
	model, in, out := saveModel(t, t.TempDir()), t.TempDir(), t.TempDir()
	featureShards(t, in, 300, 2, true)
	var seen []string
	testBeforeRename = func(tmp, final string) {
		_, errTmp := os.Stat(tmp)
		_, errFinal := os.Stat(final)
		seen = append(seen, fmt.Sprintf("%s %v %v", filepath.Base(final), errTmp == nil, os.IsNotExist(errFinal)))
	}
	defer func() { testBeforeRename = nil }()
	require.NoError(t, runScore(t, Config{Input: filepath.Join(in, "rows-*.csv"), Model: model, Output: out}))
	require.ElementsMatch(t, []string{"scored-rows-0.csv true true", "scored-rows-1.csv true true"}, seen,
		"complete under the temporary name, the final one absent")
	left, err := filepath.Glob(filepath.Join(out, "*.tmp"))
	require.NoError(t, err)
	require.Empty(t, left)
	for k := range 2 {
		want, _, _ := scoreInProcess(t, model, filepath.Join(in, fmt.Sprintf("rows-%d.csv", k)))
		got, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("scored-rows-%d.csv", k)))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
}

// A model whose label column is named as a column of the scored shards (row, score, flag) is
// refused before the pipeline runs, naming it, and so is -scores' label column "score": with
// a label named flag, the scored header was "row,flag,score,flag" and the model's own flag was
// read as the label (AUC 1.0 and 85 positives, where the truth was 0.866 and 158).
func TestScoreRefusesLabelNamedAsOutput(t *testing.T) {
	for _, label := range []string{"row", "score", "flag"} {
		_, s := beam.NewPipelineWithRoot()
		err := Score(s, Config{Input: "x.csv", Model: saveModelLabelled(t, t.TempDir(), label), Output: t.TempDir()})
		require.ErrorContains(t, err, fmt.Sprintf("the model's label column %q is a column of the scored shards", label))
	}
	_, s := beam.NewPipelineWithRoot()
	require.ErrorContains(t, Evaluate(s, Config{Scores: "x.csv", Label: "score", Output: t.TempDir()}), `label column "score" is the score column`)
}

// Shards may have their columns in any order, as docs/beam.md says (it failed once every
// shard was scored): each is scored as deploy scores it, and evaluated with the others.
func TestScoreShardsOfAnyColumnOrder(t *testing.T) {
	model, in, out := saveModel(t, t.TempDir()), t.TempDir(), t.TempDir()
	headers := []string{"b,y,a", "a,b,y", "y,a,extra,b"}
	for k, h := range headers {
		require.NoError(t, os.WriteFile(filepath.Join(in, fmt.Sprintf("rows-%d.csv", k)), []byte(rowsOf(h, 50+k)), 0o644))
	}
	require.NoError(t, runScore(t, Config{Input: filepath.Join(in, "rows-*.csv"), Model: model, Output: out}))
	n := 0
	for k := range headers {
		want, s, _ := scoreInProcess(t, model, filepath.Join(in, fmt.Sprintf("rows-%d.csv", k)))
		got, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("scored-rows-%d.csv", k)))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
		n += len(s)
	}
	require.Equal(t, n, readReport(t, out).N)
}
