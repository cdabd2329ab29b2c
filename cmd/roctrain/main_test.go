package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
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
		Data    map[string]any   `json:"data"`
		Results []map[string]any `json:"results"`
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&got))
	require.False(t, dec.More(), "stdout holds one JSON object only")
	require.Equal(t, map[string]any{"rows": 569.0, "features": 30.0, "encoded_features": 30.0, "label": "malignant",
		"split": map[string]any{"train": 341.0, "validation": 115.0, "test": 113.0}}, got.Data)

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
		require.Equal(t, 1.0, r["seeds"])
		require.Len(t, r["per_seed"], 1)
		require.Nil(t, r["sd"])
		require.Nil(t, r["paired_vs_first"])
		for _, k := range []string{"test_auc_ci95", "test_pauc_ci95", "test_tpr_at_fpr_ci95"} {
			ci, ok := r[k].([]any)
			require.True(t, ok, "%s = %v", k, r[k])
			require.Len(t, ci, 2)
		}
		for _, k := range []string{"deployed_threshold", "deployed_test_fpr", "deployed_test_tpr"} {
			_, ok := r[k].(float64)
			require.True(t, ok, "%s = %v", k, r[k])
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
	s, err := deploy.Load(filepath.Join(models, "sqhinge+wu.params"))
	require.NoError(t, err)
	require.NoError(t, nn.Load(s.ModelPath(), m))
}

// Without -json the command prints the table with one row per run, each figure with its
// interval, the deployed rates and the data credit.
func TestTable(t *testing.T) {
	code, stdout, stderr := roctrain(t, "-epochs", "2", "-lr", "0.01", "-losses", "ce,kde", "-plot", "", "-boot", "50")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "test TPR@FPR=0.1")
	require.Contains(t, stdout, "deployed TPR")
	require.Contains(t, stdout, "UCI Machine Learning Repository")
	require.Contains(t, stderr, "[2/2] seed 1: training kde")
	rows := 0
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Fields(l)
		// run, lr, three figures with two interval fields each, two rates, seconds
		if len(f) == 14 && (f[0] == "ce" || f[0] == "kde" || f[0] == "kde†") {
			rows++
			require.Regexp(t, `^\[0\.\d{3},$`, f[3], l)
		}
	}
	require.Equal(t, 2, rows, stdout)
	require.Contains(t, stdout, "each run minus ce on the same test rows")
	// kde targets the TPR at FPR α: that comes first, then the AUC's difference and p, then
	// pAUC, TPR and the deployed TPR and FPR.
	d := `[+-]0\.\d{4} \[[+-]0\.\d{3}, [+-]0\.\d{3}\]\*?`
	require.Regexp(t, `(?m)^\s+kde†?\s+TPR@0\.1\s+`+d+`\s+`+d+`\s+[0-9.e-]+\s+`+d+`\s+`+d+`\s+`+d+`\s+`+d+`$`, stdout)
}

// With -seeds the table shows means ± standard deviations and the paired differences.
func TestTableSeeds(t *testing.T) {
	code, stdout, stderr := roctrain(t, "-epochs", "2", "-lr", "0.01", "-losses", "ce,kde", "-plot", "", "-boot", "0", "-seeds", "2")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "seeds 1…2")
	require.Contains(t, stdout, "difference from ce on the same seeds")
	require.Regexp(t, `(?m)^\s+ce\s+2\s+0\.\d{4} ± 0\.\d{4}`, stdout)
	require.Regexp(t, `(?m)^\s+kde†?\s+[+-]0\.\d{4} \[[+-]0\.\d{3}, [+-]0\.\d{3}\][ *]`, stdout)
}

func TestCSVInputAndErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	var b strings.Builder
	b.WriteString("a,b,target,c\n")
	for i := range 60 {
		y := i % 3 / 2 // one row in three is positive
		b.WriteString(strings.Join([]string{strconv.Itoa(i % 7), strconv.Itoa(i%5 + 3*y), strconv.Itoa(y), strconv.Itoa(i % 2)}, ",") + "\n")
	}
	require.NoError(t, os.WriteFile(good, []byte(b.String()), 0o644))
	code, stdout, stderr := roctrain(t, "-data", good, "-label", "target", "-json", "-epochs", "2", "-lr", "0.01", "-losses", "ce", "-plot", "", "-hidden", "")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, `"loss": "ce"`)

	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("a,b,y\n1,2,0\n3,1e999,1\n"), 0o644))
	code, _, stderr = roctrain(t, "-data", bad, "-plot", "")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "line 3")
	require.Contains(t, stderr, `column "b"`)
	require.NoError(t, os.WriteFile(bad, []byte("a,b,y\n1,2,0\n3,,1\n"), 0o644))
	code, _, stderr = roctrain(t, "-data", bad, "-plot", "", "-missing", "error")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `roctrain: data: `+bad+`: line 3, column "b": missing value (empty field)`)

	for _, args := range [][]string{
		{"-alpha", "0"}, {"-alpha", "1.5"}, {"-losses", "ce,focal"}, {"-losses", "ce,ce"}, {"-losses", ""},
		{"-epochs", "0"}, {"-hidden", "64,x"}, {"-lr", "-1"}, {"-lr", ""}, {"extra"}, {"-nosuchflag"},
		{"-recall", "1"}, {"-recall", "-0.2"}, {"-losses", "kde+wu"}, {"-losses", "kde:nope"}, {"-losses", "kde:pool=0"},
		{"-losses", "kde:lr=0.3+wu"}, {"-missing", "drop"}, {"-valid", "v.csv"}, {"-data", "d.csv", "-test", "t.csv"},
		{"-valid", "v.csv", "-test", "t.csv"},
	} {
		code, _, stderr := roctrain(t, args...)
		require.Equal(t, 2, code, "%v: %s", args, stderr)
		require.Contains(t, stderr, "roctrain")
	}
}

// With -recall the KDE runs train the mirrored loss, the runs are selected on validation
// TNR@TPR=r, and every result reports the test FPR at TPR r, with its paired difference.
func TestRecall(t *testing.T) {
	code, stdout, stderr := roctrain(t, "-json", "-plot", "", "-epochs", "2", "-lr", "0.01", "-boot", "0", "-seeds", "2",
		"-recall", "0.9", "-losses", "ce,kde,kde-plain+wu", "-warmup", "1")
	require.Equal(t, 0, code, stderr)
	var out struct {
		Results []struct {
			Loss   string   `json:"loss"`
			Warmup int      `json:"warmup_epochs"`
			Recall float64  `json:"recall"`
			FPR    *float64 `json:"test_fpr_at_tpr"`
			SD     struct {
				FPR *float64 `json:"test_fpr_at_tpr"`
			} `json:"sd"`
			PairedVsFirst map[string]struct {
				Diff float64 `json:"diff"`
			} `json:"paired_vs_first"`
			PerSeed []struct {
				FPR *float64 `json:"test_fpr_at_tpr"`
			} `json:"per_seed"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out))
	require.Len(t, out.Results, 3)
	for i, r := range out.Results {
		require.Equal(t, 0.9, r.Recall)
		require.NotNil(t, r.FPR, r.Loss)
		require.NotNil(t, r.SD.FPR, r.Loss)
		require.True(t, *r.FPR >= 0 && *r.FPR <= 1, "%s: FPR@TPR %v", r.Loss, *r.FPR)
		sum := 0.0
		for _, s := range r.PerSeed {
			require.NotNil(t, s.FPR)
			sum += *s.FPR
		}
		require.InDelta(t, sum/2, *r.FPR, 1e-12, "the mean over the seeds")
		if i > 0 {
			require.Contains(t, r.PairedVsFirst, "test_fpr_at_tpr")
		}
	}
	require.Equal(t, "kde-plain", out.Results[2].Loss)
	require.Equal(t, 1, out.Results[2].Warmup)

	code, stdout, stderr = roctrain(t, "-plot", "", "-epochs", "2", "-lr", "0.01", "-boot", "0", "-recall", "0.8", "-losses", "ce,kde")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "test FPR@TPR=0.8")
	require.Contains(t, stdout, "validation TNR@TPR=0.8")
}

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

// jsonRun is one entry of "results" or "per_seed", as a consumer of -json reads it.
type jsonRun struct {
	Loss              string      `json:"loss"`
	WarmupEpochs      int         `json:"warmup_epochs"`
	Seed              uint64      `json:"seed"`
	Seeds             int         `json:"seeds"`
	TestAUC           float64     `json:"test_auc"`
	TestPAUC          float64     `json:"test_pauc"`
	TestTPR           float64     `json:"test_tpr_at_fpr"`
	TestAUCCI         *[2]float64 `json:"test_auc_ci95"`
	TestPAUCCI        *[2]float64 `json:"test_pauc_ci95"`
	TestTPRCI         *[2]float64 `json:"test_tpr_at_fpr_ci95"`
	DeployedThreshold *float64    `json:"deployed_threshold"`
	DeployedTestFPR   float64     `json:"deployed_test_fpr"`
	DeployedTestTPR   float64     `json:"deployed_test_tpr"`
	TestAUCVsFirst    *struct {
		Diff float64    `json:"diff"`
		CI95 [2]float64 `json:"ci95"`
		P    float64    `json:"p"`
	} `json:"test_auc_vs_first"`
	SD            map[string]float64  `json:"sd"`
	PairedVsFirst map[string]jsonDiff `json:"paired_vs_first"`
	PerSeed       []jsonRun           `json:"per_seed"`
}

type jsonDiff struct {
	Diff float64    `json:"diff"`
	CI95 [2]float64 `json:"ci95"`
}

// figure reads a per-seed figure by its JSON key.
func (r jsonRun) figure(key string) float64 {
	return map[string]float64{
		"test_auc": r.TestAUC, "test_pauc": r.TestPAUC, "test_tpr_at_fpr": r.TestTPR,
		"deployed_test_fpr": r.DeployedTestFPR, "deployed_test_tpr": r.DeployedTestTPR,
	}[key]
}

func decodeRuns(t *testing.T, stdout string) []jsonRun {
	t.Helper()
	var got struct {
		Results []jsonRun `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got), stdout)
	return got.Results
}

// -seeds 3 -json: every requested run is there with its three seeds, the summary is the mean
// and sample standard deviation of its own per-seed figures, and each paired difference is
// the mean of the per-seed differences from the first run inside its interval.
func TestSeedsJSON(t *testing.T) {
	const tol = 1e-12
	args := []string{"-json", "-epochs", "2", "-lr", "0.01", "-boot", "50", "-losses", "ce,kde,sqhinge+wu", "-warmup", "1"}
	dir := t.TempDir()
	plot, models := filepath.Join(dir, "roc.png"), filepath.Join(dir, "models")
	code, stdout, stderr := roctrain(t, append(args, "-seeds", "3", "-seed", "4", "-plot", plot, "-out", models)...)
	require.Equal(t, 0, code, stderr)
	runs := decodeRuns(t, stdout)
	// One model and operating point per run and seed, and the plot of one seed.
	for _, name := range []string{"ce", "kde", "sqhinge+wu"} {
		for seed := 4; seed <= 6; seed++ {
			s, err := deploy.Load(filepath.Join(models, fmt.Sprintf("%s.seed%d.params", name, seed)))
			require.NoError(t, err)
			require.Equal(t, uint64(seed), s.OperatingPoint().Run.Seed)
		}
	}
	f, err := os.Open(plot)
	require.NoError(t, err)
	_, err = png.Decode(f)
	f.Close()
	require.NoError(t, err)
	require.Len(t, runs, 3)
	keys := []string{"test_auc", "test_pauc", "test_tpr_at_fpr", "deployed_test_fpr", "deployed_test_tpr"}
	for i, want := range []struct {
		loss   string
		warmup int
	}{{"ce", 0}, {"kde", 0}, {"sqhinge", 1}} {
		r := runs[i]
		require.Equal(t, want.loss, r.Loss)
		require.Equal(t, want.warmup, r.WarmupEpochs)
		require.Equal(t, 3, r.Seeds)
		require.Len(t, r.PerSeed, 3)
		for k, s := range r.PerSeed {
			require.Equal(t, uint64(4+k), s.Seed)
			require.Equal(t, want.loss, s.Loss)
			for _, ci := range []*[2]float64{s.TestAUCCI, s.TestPAUCCI, s.TestTPRCI} {
				require.NotNil(t, ci)
				require.True(t, 0 <= ci[0] && ci[0] <= ci[1] && ci[1] <= 1, "%v", *ci)
			}
			require.True(t, s.TestAUCCI[0] <= s.TestAUC && s.TestAUC <= s.TestAUCCI[1])
			require.NotNil(t, s.DeployedThreshold)
		}
		require.Nil(t, r.TestAUCCI, "no single-split interval on a multi-seed summary")
		require.Nil(t, r.DeployedThreshold)
		for _, key := range keys {
			xs := make([]float64, 3)
			for k, s := range r.PerSeed {
				xs[k] = s.figure(key)
			}
			m := (xs[0] + xs[1] + xs[2]) / 3
			v := ((xs[0]-m)*(xs[0]-m) + (xs[1]-m)*(xs[1]-m) + (xs[2]-m)*(xs[2]-m)) / 2
			require.InDelta(t, m, r.figure(key), tol, "%s mean of %s", want.loss, key)
			require.InDelta(t, math.Sqrt(v), r.SD[key], tol, "%s sd of %s", want.loss, key)
		}
		// DeLong's paired comparison with the first run on each seed's test part.
		for k, ps := range r.PerSeed {
			if i == 0 {
				require.Nil(t, ps.TestAUCVsFirst)
				continue
			}
			d := ps.TestAUCVsFirst
			require.NotNil(t, d)
			require.InDelta(t, ps.TestAUC-runs[0].PerSeed[k].TestAUC, d.Diff, tol)
			require.True(t, d.CI95[0] <= d.Diff && d.Diff <= d.CI95[1])
			require.True(t, d.P >= 0 && d.P <= 1)
		}
		require.Nil(t, r.TestAUCVsFirst, "per seed only")
		// The splits differ between seeds, so the figures do too.
		require.False(t, r.PerSeed[0].TestAUC == r.PerSeed[1].TestAUC && r.PerSeed[1].TestAUC == r.PerSeed[2].TestAUC)
		if i == 0 {
			require.Nil(t, r.PairedVsFirst)
			continue
		}
		for _, key := range keys {
			var d float64
			for k := range 3 {
				d += (r.PerSeed[k].figure(key) - runs[0].PerSeed[k].figure(key)) / 3
			}
			p, ok := r.PairedVsFirst[key]
			require.True(t, ok, key)
			require.InDelta(t, d, p.Diff, tol, key)
			require.True(t, p.CI95[0] <= p.Diff && p.Diff <= p.CI95[1], "%s: %v", key, p)
		}
	}

	// Each repetition is the run a single seed gives: seed 5 alone reproduces the second.
	code, stdout, stderr = roctrain(t, append(args, "-seeds", "1", "-seed", "5", "-plot", "")...)
	require.Equal(t, 0, code, stderr)
	single := decodeRuns(t, stdout)
	for i := range runs {
		require.Equal(t, 1, single[i].Seeds)
		require.Equal(t, runs[i].PerSeed[1], single[i].PerSeed[0])
		require.Equal(t, single[i].PerSeed[0].TestAUC, single[i].TestAUC)
		require.Equal(t, single[i].PerSeed[0].TestAUCCI, single[i].TestAUCCI)
	}
}

// writeRows writes the CSV file name in a new temporary folder, the header line and then
// the line row(i) for each i < n, and returns its path.
func writeRows(t *testing.T, name, header string, n int, row func(i int) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := range n {
		b.WriteString(row(i) + "\n")
	}
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// writeCSV writes n rows of three features and a label "y" (one row in four positive, the
// positives shifted in a and b) and returns the path.
func writeCSV(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("a,y,b,c\n")
	for i := range n {
		y := 0
		if i%4 == 0 {
			y = 1
		}
		u, v, w := math.Sin(float64(i*i)), math.Cos(float64(3*i)), math.Sin(float64(7*i+1))
		fmt.Fprintf(&b, "%g,%d,%g,%g\n", u+1.5*float64(y), y, 10*v+8*float64(y), w)
	}
	path := filepath.Join(dir, "rows.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// A model saved with -out and loaded back by -predict flags exactly the rows whose score,
// computed here from the checkpoint and the sidecar's standardisation, is at or above the
// saved threshold — including the validation row that defines the threshold.
func TestSavedModelFlagsRowsAtThreshold(t *testing.T) {
	dir := t.TempDir()
	csvPath := writeCSV(t, dir, 400)
	models := filepath.Join(dir, "models")
	code, stdout, stderr := roctrain(t, "-data", csvPath, "-label", "y", "-json", "-out", models, "-plot", "",
		"-losses", "ce,kde-plain", "-hidden", "", "-epochs", "3", "-lr", "0.01", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	runs := decodeRuns(t, stdout)
	require.Len(t, runs, 2)
	for _, r := range runs {
		t.Run(r.Loss, func(t *testing.T) {
			model := filepath.Join(models, r.Loss+".params")
			s, err := deploy.Load(model)
			require.NoError(t, err)
			op := s.OperatingPoint()
			require.Equal(t, 2, s.Version())
			require.NotNil(t, r.DeployedThreshold)
			require.Equal(t, *r.DeployedThreshold, op.Threshold)
			require.Equal(t, 0.1, op.Alpha)
			require.Equal(t, []string{"a", "b", "c"}, s.Features())
			require.Equal(t, r.DeployedTestTPR, op.TestTPR)
			require.LessOrEqual(t, op.ValFPR, 0.1)
			st := s.Standardizer()

			code, out, errOut := roctrain(t, "-predict", model, "-data", csvPath)
			require.Equal(t, 0, code, errOut)
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			require.NoError(t, err)
			require.Equal(t, []string{"row", "y", "score", "flag"}, recs[0])
			require.Len(t, recs, 401)

			// Score every row here, from the files alone.
			m, err := nn.NewMLP(nn.MLPConfig{In: 3})
			require.NoError(t, err)
			require.NoError(t, nn.Load(s.ModelPath(), m))
			ds, err := data.LoadCSV(csvPath, data.CSVConfig{Label: "y"})
			require.NoError(t, err)
			std, err := st.Apply(ds)
			require.NoError(t, err)
			want, err := nn.Scores(m, std.X, std.Rows)
			require.NoError(t, err)

			flagged, atThreshold := 0, 0
			for i, rec := range recs[1:] {
				require.Equal(t, strconv.Itoa(i+1), rec[0])
				require.Equal(t, strconv.Itoa(int(ds.Y[i])), rec[1])
				score, err := strconv.ParseFloat(rec[2], 64)
				require.NoError(t, err)
				require.Equal(t, want[i], score, "row %d", i+1)
				wantFlag := "0"
				if want[i] >= op.Threshold {
					wantFlag = "1"
					flagged++
				}
				if want[i] == op.Threshold {
					atThreshold++
				}
				require.Equal(t, wantFlag, rec[3], "row %d, score %v, threshold %v", i+1, want[i], op.Threshold)
			}
			require.Greater(t, flagged, 0)
			require.Less(t, flagged, 400)
			require.Positive(t, atThreshold, "the threshold is the score of a validation row")
			require.Contains(t, errOut, fmt.Sprintf("flagged %d of 400 rows", flagged))
		})
	}

	// A sidecar never applies to another model, and a CSV must hold every feature. (The plain
	// KDE loss: the "kde" recipe may keep the cross-entropy weights, and so the same model.)
	ce, kde := filepath.Join(models, "ce.params"), filepath.Join(models, "kde-plain.params")
	sce, err := deploy.Load(ce)
	require.NoError(t, err)
	skde, err := deploy.Load(kde)
	require.NoError(t, err)
	b, err := os.ReadFile(skde.ModelPath())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(sce.ModelPath(), b, 0o644))
	code, _, stderr = roctrain(t, "-predict", ce, "-data", csvPath)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "does not match its operating-point file")
	noB := filepath.Join(dir, "nob.csv")
	require.NoError(t, os.WriteFile(noB, []byte("a,c\n1,2\n"), 0o644))
	code, _, stderr = roctrain(t, "-predict", kde, "-data", noB)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `no column "b"`)
	code, _, stderr = roctrain(t, "-predict", filepath.Join(dir, "none.params"), "-data", csvPath)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "operating-point file")
}
