package rocbeam

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/internal/race"
	"github.com/rocops/rocops/internal/stats"
	"github.com/rocops/rocops/metrics"
)

func TestMain(m *testing.M) {
	beamlog.LogLevel = "warn"
	// A temporary directory of the tests' own, for the file the loopback runner leaves at
	// every run.
	tmp, err := os.MkdirTemp("", "rocbeam-test-")
	if err == nil {
		os.Setenv("TMPDIR", tmp)
	}
	code := ptest.MainRet(m) // runs the pipelines on the embedded prism runner unless --runner says otherwise
	os.RemoveAll(tmp)
	os.Exit(code)
}

// Tolerances against the in-process metrics, which sum the same terms: tolCurve for the
// figures of the curve (summed in the same order), tolVariance for DeLong's variance (summed
// by groups of tied rows), relative.
const (
	tolCurve    = 1e-12
	tolVariance = 1e-9
)

// problem draws n rows, a share p of them positive, with scores either continuous (levels 0)
// or from levels distinct values, so that ties within and across classes are heavy.
func problem(rng *rand.Rand, n int, p float64, levels int) (scores, labels []float64) {
	scores, labels = make([]float64, n), make([]float64, n)
	for i := range n {
		if rng.Float64() < p {
			labels[i] = 1
		}
		if levels > 0 {
			scores[i] = float64(rng.IntN(levels))/float64(levels) + 0.3*labels[i]
		} else {
			scores[i] = rng.NormFloat64() + labels[i]
		}
	}
	labels[0], labels[1], labels[2], labels[3] = 0, 0, 1, 1
	return scores, labels
}

// writeShards writes the rows over shards CSV files dir/scored-k.csv, row i to shard i mod
// shards, with columns row, label, score; scores are written exactly ('g', -1). Shard 1 is
// gzipped, as scored-1.csv.gz.
func writeShards(t *testing.T, dir string, shards int, scores, labels []float64) {
	t.Helper()
	var files []*strings.Builder
	for range shards {
		b := &strings.Builder{}
		b.WriteString("row,label,score\n")
		files = append(files, b)
	}
	for i, x := range scores {
		fmt.Fprintf(files[i%shards], "%d,%g,%s\n", i, labels[i], strconv.FormatFloat(x, 'g', -1, 64))
	}
	for k, b := range files {
		name, text := fmt.Sprintf("scored-%d.csv", k), []byte(b.String())
		if k == 1 { // one shard gzipped: read through the SDK's decompression
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			_, err := zw.Write(text)
			require.NoError(t, err)
			require.NoError(t, zw.Close())
			name, text = name+".gz", z.Bytes()
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), text, 0o644))
	}
}

// run builds and runs the evaluation of cfg on the test runner.
func run(cfg Config) error {
	p, s := beam.NewPipelineWithRoot()
	if err := Evaluate(s, cfg); err != nil {
		return err
	}
	return ptest.Run(p)
}

// skipFailingUnderRace skips, under the race detector, a test whose pipeline is meant to fail.
// When prism fails a job it ends the control stream of the loopback worker, which runs in this
// process, while bundles of the job may still be running; the SDK's harness (v2.77.0,
// harness.MainWithOptions in core/runtime/harness/harness.go) then closes its response channel
// (line 195) as those bundles' goroutines send on it (line 213, after an unsynchronised check
// of its shutdown flag): a data race inside the SDK, whatever the DoFns do, reported in some
// runs only. The failed-pipeline path of the SDK is known to be incomplete upstream (Apache
// Beam pull request 27297, "[Go SDK][Prism] Improve failed pipeline handling": stray
// goroutines when a job fails with elements in flight). The same tests run in full without
// -race; the pipelines that succeed run under it.
func skipFailingUnderRace(t *testing.T) {
	t.Helper()
	if race.Enabled {
		t.Skip("a failed pipeline races inside the Beam SDK's harness (see skipFailingUnderRace)")
	}
}

// readReport reads dir/metrics.json.
func readReport(t *testing.T, dir string) Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "metrics.json"))
	require.NoError(t, err)
	var r Report
	require.NoError(t, json.Unmarshal(data, &r))
	return r
}

// scanRates counts, over all rows, the rates of flagging score ≥ t.
func scanRates(scores, labels []float64, t float64) (fpr, tpr float64) {
	var fp, tp, nNeg, nPos float64
	for i, x := range scores {
		nPos += labels[i]
		nNeg += 1 - labels[i]
		if x >= t {
			tp += labels[i]
			fp += 1 - labels[i]
		}
	}
	return fp / nNeg, tp / nPos
}

func TestEvaluateMatchesInProcess(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		p      float64
		levels int
		shards int
		alpha  float64
		tally  int // distinct scores a worker's tally holds before it flushes; 0: the default
	}{
		{"continuous", 20_000, 0.1, 0, 4, 0.05, 0},
		{"heavy ties", 30_000, 0.2, 7, 5, 0, 0}, // default α
		{"few levels, rare positives", 12_000, 0.01, 50, 3, 0.01, 0},
		{"many blocks per bucket", 10_000, 0.3, 300, 3, 0.2, 4}, // the combine merges them
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.tally > 0 {
				defer func(m int) { maxTally = m }(maxTally)
				maxTally = tc.tally // prism runs the workers in this process
			}
			rng := rand.New(rand.NewPCG(uint64(tc.n), 7))
			scores, labels := problem(rng, tc.n, tc.p, tc.levels)
			in, out := t.TempDir(), t.TempDir()
			writeShards(t, in, tc.shards, scores, labels)
			threshold := scores[5]
			require.NoError(t, run(Config{Scores: filepath.Join(in, "scored-*"), Output: out, Alpha: tc.alpha, Threshold: &threshold}))
			r := readReport(t, out)

			alpha := tc.alpha
			if alpha == 0 {
				alpha = DefaultAlpha
			}
			var nPos int
			for _, y := range labels {
				nPos += int(y)
			}
			require.Equal(t, tc.n, r.N)
			require.Equal(t, nPos, r.Positives)
			require.Equal(t, alpha, r.Alpha)
			auc, variance, err := metrics.DeLong(scores, labels)
			require.NoError(t, err)
			require.InDelta(t, auc, r.AUC, tolCurve)
			require.NotNil(t, r.AUCVariance)
			require.InEpsilon(t, variance, *r.AUCVariance, tolVariance)
			half := stats.Z975 * math.Sqrt(variance) // Φ⁻¹(0.975), as experiment's DeLong interval
			require.InDelta(t, max(0, auc-half), r.AUCCI95[0], tolCurve)
			require.InDelta(t, min(1, auc+half), r.AUCCI95[1], tolCurve)
			tpr, err := metrics.TPRAtFPR(scores, labels, alpha)
			require.NoError(t, err)
			require.InDelta(t, tpr, r.TPRAtFPR, tolCurve)
			pauc, err := metrics.PartialAUC(scores, labels, alpha)
			require.NoError(t, err)
			require.InDelta(t, pauc, r.PAUC, tolCurve)

			require.NotNil(t, r.DeployedThreshold)
			require.Equal(t, threshold, *r.DeployedThreshold)
			wantFPR, wantTPR := scanRates(scores, labels, threshold)
			require.Equal(t, wantFPR, *r.DeployedFPR)
			require.Equal(t, wantTPR, *r.DeployedTPR)

			fpr, tprs, _, err := metrics.ROC(scores, labels)
			require.NoError(t, err)
			thinF, thinT, err := metrics.ThinROC(fpr, tprs, MaxROCPoints)
			require.NoError(t, err)
			require.Equal(t, thinF, r.ROC.FPR)
			require.Equal(t, thinT, r.ROC.TPR)
			require.LessOrEqual(t, len(r.ROC.FPR), MaxROCPoints)
		})
	}
}

// Without a threshold the deployed figures are null, and with fewer than two positives so are
// DeLong's variance and interval.
func TestEvaluateNulls(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	writeShards(t, in, 2, []float64{0.1, 0.2, 0.3, 0.9, 0.4}, []float64{0, 0, 0, 1, 0})
	require.NoError(t, run(Config{Scores: filepath.Join(in, "scored-*"), Output: out}))
	data, err := os.ReadFile(filepath.Join(out, "metrics.json"))
	require.NoError(t, err)
	var keys map[string]any
	require.NoError(t, json.Unmarshal(data, &keys))
	want := []string{"n", "positives", "auc", "auc_variance", "auc_ci95", "alpha", "tpr_at_fpr", "pauc",
		"deployed_threshold", "deployed_fpr", "deployed_tpr", "roc"}
	require.Len(t, keys, len(want))
	for _, k := range want {
		require.Contains(t, keys, k)
	}
	for _, k := range []string{"auc_variance", "auc_ci95", "deployed_threshold", "deployed_fpr", "deployed_tpr"} {
		require.Nil(t, keys[k], k)
	}
	require.Equal(t, 1.0, keys["auc"])
	require.Equal(t, DefaultAlpha, keys["alpha"])
}

func TestEvaluateBadInput(t *testing.T) {
	good := "row,label,score\n1,0,0.5\n2,1,0.7\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // substrings of the error
	}{
		{"bad score", map[string]string{"a.csv": good, "b.csv": "row,label,score\n1,0,0.5\n2,1,abc\n3,0,0.1\n"},
			[]string{"rocbeam: bad row", "b.csv: line 3", `column "score"`, `"abc" is not a finite number`}},
		{"NaN score", map[string]string{"a.csv": "row,label,score\n1,0,0.5\n\n2,1,NaN\n"},
			[]string{"a.csv: line 4", `"NaN" is not a finite number`}},
		{"bad label", map[string]string{"a.csv": good, "b.csv": "row,label,score\n1,2,0.5\n"},
			[]string{"b.csv: line 2", `column "label"`, `label "2" is not 0 or 1`}},
		{"short row", map[string]string{"a.csv": "row,label,score\n1,0,0.5\n2,1\n"},
			[]string{"a.csv: line 3", "wrong number of fields"}},
		{"columns differ", map[string]string{"a.csv": good, "b.csv": "label,score\n0,0.5\n1,0.7\n"},
			[]string{"rocbeam: shards have different columns", "a.csv", `"row,label,score"`, "b.csv", `"label,score"`}},
		{"no score column", map[string]string{"a.csv": "row,label,prob\n1,0,0.5\n"},
			[]string{"rocbeam: bad header", `no column "score"`}},
		{"header only", map[string]string{"a.csv": "row,label,score\n", "b.csv": "row,label,score\n"},
			[]string{"rocbeam: no rows"}},
		{"no files", map[string]string{}, []string{"no files matching pattern"}},
		{"one class", map[string]string{"a.csv": "row,label,score\n1,0,0.5\n2,0,0.7\n"},
			[]string{"batch has no positives"}},
		{"unknown file system", map[string]string{"a.csv": good}, []string{`"nosuch" not registered`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			skipFailingUnderRace(t)
			in, out := t.TempDir(), t.TempDir()
			for name, text := range tc.files {
				require.NoError(t, os.WriteFile(filepath.Join(in, name), []byte(text), 0o644))
			}
			glob := filepath.Join(in, "*.csv")
			if tc.name == "unknown file system" {
				glob = "nosuch://" + glob
			}
			err := run(Config{Scores: glob, Output: out})
			require.Error(t, err)
			for _, w := range tc.want {
				require.Contains(t, err.Error(), w)
			}
			entries, err := os.ReadDir(out)
			require.NoError(t, err)
			require.Empty(t, entries, "nothing is written")
		})
	}
}

// What cannot work is an error before the pipeline is built.
func TestEvaluateConfigErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Scores: ""},
		{Scores: "x/*.csv", Alpha: 1.5},
		{Scores: "x/*.csv", Alpha: math.NaN()},
		{Scores: "x/*.csv", Output: "nosuch://bucket/out"},
	} {
		_, s := beam.NewPipelineWithRoot()
		require.ErrorContains(t, Evaluate(s, cfg), "rocbeam: ", "%+v", cfg)
	}
}

// Long runs report progress: a log line per progressEvery rows of a file, and the Rows counter.
func TestEvaluateProgress(t *testing.T) {
	defer func(n int64) { progressEvery = n }(progressEvery)
	progressEvery = 1000
	var logged bytes.Buffer
	logger.SetOutput(&logged) // prism runs the workers in this process
	defer logger.SetOutput(os.Stderr)
	rng := rand.New(rand.NewPCG(5, 5))
	scores, labels := problem(rng, 4500, 0.2, 0)
	in, out := t.TempDir(), t.TempDir()
	writeShards(t, in, 2, scores, labels) // 2250 rows each: two lines per shard
	p, s := beam.NewPipelineWithRoot()
	require.NoError(t, Evaluate(s, Config{Scores: filepath.Join(in, "scored-*"), Output: out}))
	res, err := ptest.RunWithMetrics(p)
	require.NoError(t, err)
	for _, k := range []string{"scored-0.csv", "scored-1.csv.gz"} {
		for _, n := range []string{"1000", "2000"} {
			require.Contains(t, logged.String(), filepath.Join(in, k)+": "+n+" rows\n")
		}
	}
	require.NotContains(t, logged.String(), "3000 rows")
	var rows int64
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "rocbeam" && c.Name() == "rows" {
			rows += c.Result()
		}
	}
	require.Equal(t, int64(len(scores)), rows)
}
