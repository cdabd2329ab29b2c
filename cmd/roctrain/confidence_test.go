package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
)

// confidenceRun is a result of the JSON output with -confidence.
type confidenceRun struct {
	Name          string       `json:"name"`
	Confidence    *float64     `json:"deployed_confidence"`
	Threshold     *float64     `json:"deployed_threshold"`
	FPR           float64      `json:"deployed_test_fpr"`
	TPR           float64      `json:"deployed_test_tpr"`
	FPRCI         *[2]float64  `json:"deployed_test_fpr_ci95"`
	TPRCI         *[2]float64  `json:"deployed_test_tpr_ci95"`
	Thresholds    []*float64   `json:"deployed_thresholds"`
	ClassFPR      []float64    `json:"deployed_class_test_fpr"`
	ClassTPR      []float64    `json:"deployed_class_test_tpr"`
	ClassFPRCI    [][2]float64 `json:"deployed_class_test_fpr_ci95"`
	ClassTPRCI    [][2]float64 `json:"deployed_class_test_tpr_ci95"`
	PerSeed       []confidenceRun
	PerSeedKeyRaw json.RawMessage `json:"per_seed"`
}

func decodeConfidence(t *testing.T, stdout string) []confidenceRun {
	t.Helper()
	var out struct {
		Results []confidenceRun `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out), stdout)
	for k := range out.Results {
		require.NoError(t, json.Unmarshal(out.Results[k].PerSeedKeyRaw, &out.Results[k].PerSeed))
	}
	return out.Results
}

// flagCounts counts the rows of labels 0/1 that flagging score ≥ th flags: the negatives and
// positives flagged, of all.
func flagCounts(scores, labels []float64, th float64) (fp, neg, tp, pos int) {
	for i, s := range scores {
		f := 0
		if s >= th {
			f = 1
		}
		if labels[i] == 1 {
			tp, pos = tp+f, pos+1
		} else {
			fp, neg = fp+f, neg+1
		}
	}
	return fp, neg, tp, pos
}

// -confidence 0.95 deploys metrics.ThresholdNP of the saved model's validation scores (seed 1's
// split of the embedded data, made here again) at δ = 0.05, reports its test rates with their
// Clopper–Pearson intervals, counted here, and records the confidence in the JSON and in the
// sidecar (version 4), which -predict reads back; without it none of those keys appear.
func TestConfidenceDeploysTheUmbrellaThreshold(t *testing.T) {
	dir := t.TempDir()
	models := filepath.Join(dir, "models")
	code, stdout, stderr := roctrain(t, "-json", "-confidence", "0.95", "-epochs", "3", "-lr", "0.01",
		"-losses", "ce,sqhinge", "-plot", "", "-boot", "0", "-out", models)
	require.Equal(t, 0, code, stderr)
	results := decodeConfidence(t, stdout)
	require.Len(t, results, 2)

	ds, err := data.WDBC()
	require.NoError(t, err)
	sp, err := experiment.NewSplit(ds, 1)
	require.NoError(t, err)
	for _, r := range results {
		s, err := deploy.Load(filepath.Join(models, r.Name+".params"))
		require.NoError(t, err, r.Name)
		require.Equal(t, 4, s.Version(), r.Name)
		op := s.OperatingPoint()
		require.Equal(t, 0.95, op.Confidence, r.Name)
		require.Zero(t, op.Recall, r.Name)
		val, err := nn.Scores(s.Model(), sp.Val.X, sp.Val.Rows)
		require.NoError(t, err)
		test, err := nn.Scores(s.Model(), sp.Test.X, sp.Test.Rows)
		require.NoError(t, err)
		s.Close()
		th, err := metrics.ThresholdNP(val, sp.Val.Y, 0.1, 0.05)
		require.NoError(t, err)
		require.Equal(t, th, *r.Threshold, r.Name)
		require.Equal(t, th, op.Threshold, r.Name)
		require.Equal(t, 0.95, *r.Confidence, r.Name)
		fp, neg, tp, pos := flagCounts(test, sp.Test.Y, th)
		require.Equal(t, float64(fp)/float64(neg), r.FPR, r.Name)
		require.Equal(t, float64(tp)/float64(pos), r.TPR, r.Name)
		lo, hi, err := metrics.ClopperPearson(fp, neg, 0.95)
		require.NoError(t, err)
		require.Equal(t, [2]float64{lo, hi}, *r.FPRCI, r.Name)
		lo, hi, err = metrics.ClopperPearson(tp, pos, 0.95)
		require.NoError(t, err)
		require.Equal(t, [2]float64{lo, hi}, *r.TPRCI, r.Name)
		require.Equal(t, r.FPRCI, r.PerSeed[0].FPRCI, r.Name)
		vfp, vneg, _, _ := flagCounts(val, sp.Val.Y, th)
		require.Equal(t, float64(vfp)/float64(vneg), op.ValFPR, r.Name)
	}

	code, stdout, stderr = roctrain(t, "-json", "-epochs", "3", "-lr", "0.01", "-losses", "ce", "-plot", "", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	for _, key := range []string{"deployed_confidence", "deployed_test_fpr_ci95", "deployed_test_tpr_ci95", "deployed_class_test_fpr"} {
		require.NotContains(t, stdout, key, "the plain rule's JSON is as before")
	}
}

// The tables name the rule and show the deployed rates with their Clopper–Pearson intervals
// (one seed), the footnote with several seeds, and with -recall the mirror's guarantee; the
// sidecar of a -recall run records the recall, and -predict names the guarantee.
func TestConfidenceTables(t *testing.T) {
	code, stdout, stderr := roctrain(t, "-confidence", "0.95", "-epochs", "2", "-lr", "0.01", "-losses", "ce", "-plot", "", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "deployed: flag score ≥ the Neyman–Pearson threshold of the validation negatives, "+
		"whose FPR on fresh negatives is ≤ α with probability ≥ 0.95; the test FPR and TPR it gives.\n")
	require.Contains(t, stdout, "pAUC and TPR: not computed (-boot 0); deployed FPR and TPR: Clopper–Pearson).\n")
	line := regexp.MustCompile(`(?m)^ +ce .*$`).FindString(stdout)
	require.Equal(t, 3, strings.Count(line, "["), "the AUC and the two deployed rates have intervals (-boot 0): %q", line)

	code, stdout, stderr = roctrain(t, "-confidence", "0.9", "-seeds", "2", "-epochs", "2", "-lr", "0.01", "-losses", "ce", "-plot", "", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "mean ± sd over the seeds; deployed: flag score ≥ the Neyman–Pearson threshold of the validation negatives, "+
		"whose FPR on fresh negatives is ≤ α with probability ≥ 0.9.\n")

	dir := t.TempDir()
	csvPath := writeCSV(t, dir, 800) // 40 validation positives: 29 are needed
	code, stdout, stderr = roctrain(t, "-data", csvPath, "-label", "y", "-confidence", "0.95", "-recall", "0.9", "-epochs", "2",
		"-lr", "0.01", "-losses", "ce", "-plot", "", "-boot", "0", "-out", dir)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "deployed: flag score ≥ the Neyman–Pearson threshold of the validation positives, "+
		"whose TPR on fresh positives is ≥ 0.9 with probability ≥ 0.95; the test FPR and TPR it gives.\n")
	s, err := deploy.Load(filepath.Join(dir, "ce.params"))
	require.NoError(t, err)
	op := s.OperatingPoint()
	s.Close()
	require.Equal(t, [2]float64{0.95, 0.9}, [2]float64{op.Confidence, op.Recall})

	code, _, stderr = roctrain(t, "-predict", filepath.Join(dir, "ce.params"), "-data", csvPath)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, ", the threshold that keeps TPR ≥ 0.9 on fresh rows with probability 0.95, chosen on validation by the Neyman–Pearson rule (ce.")
}

// A validation part too small for the guarantee stops the command before any training, with
// status 1 and a message saying how many rows there are and how many it needs; -confidence
// outside (0, 1) is a flag error.
func TestConfidenceRefusesTooSmallAValidationPart(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := roctrain(t, "-json", "-confidence", "0.95", "-alpha", "0.02", "-losses", "ce,kde", "-plot", "", "-out", dir)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "roctrain: -confidence 0.95: experiment: the validation part of seed 1: metrics: too few negatives for the guarantee: "+
		"72 negatives, the guarantee at alpha = 0.02 with delta = 0.05 needs at least 149\n", stderr)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries, "nothing trained, nothing saved")

	code, _, stderr = roctrain(t, "-json", "-confidence", "0.95", "-recall", "0.95", "-losses", "ce", "-plot", "")
	require.Equal(t, 1, code)
	require.Equal(t, "roctrain: -confidence 0.95: experiment: the validation part of seed 1: metrics: too few positives for the guarantee: "+
		"43 positives, the guarantee at recall = 0.95 with delta = 0.05 needs at least 59\n", stderr)

	for _, bad := range []string{"1", "-0.5", "NaN", "1.5"} {
		code, _, stderr := roctrain(t, "-confidence", bad)
		require.Equal(t, 2, code, bad)
		require.Contains(t, stderr, "-confidence must be in (0, 1), or 0 for off", bad)
	}
}

// On multi-class data -confidence deploys each class's umbrella threshold one-vs-rest, lists
// each class's deployed test rates with their intervals in the JSON and in a table under the
// others, and saves a version-4 sidecar of classes.
func TestConfidenceClasses(t *testing.T) {
	dir := t.TempDir()
	path := writeClassCSV(t, dir, 600, []string{"a", "b", "c"})
	models := filepath.Join(dir, "models")
	code, stdout, stderr := roctrain(t, "-json", "-data", path, "-label", "kind", "-confidence", "0.9", "-epochs", "3", "-lr", "0.01",
		"-losses", "ce,sqhinge", "-plot", "", "-boot", "0", "-out", models)
	require.Equal(t, 0, code, stderr)
	results := decodeConfidence(t, stdout)
	require.Len(t, results, 2)
	for _, r := range results {
		require.Equal(t, 0.9, *r.Confidence)
		require.Len(t, r.ClassFPR, 3)
		require.Len(t, r.ClassFPRCI, 3)
		require.Len(t, r.ClassTPRCI, 3)
		var mean float64
		for c := range 3 {
			require.LessOrEqual(t, r.ClassFPRCI[c][0], r.ClassFPR[c])
			require.GreaterOrEqual(t, r.ClassFPRCI[c][1], r.ClassFPR[c])
			require.LessOrEqual(t, r.ClassTPRCI[c][0], r.ClassTPR[c])
			require.GreaterOrEqual(t, r.ClassTPRCI[c][1], r.ClassTPR[c])
			mean += r.ClassFPR[c] / 3
		}
		require.InDelta(t, mean, r.FPR, 1e-15)
		s, err := deploy.Load(filepath.Join(models, r.Name+".params"))
		require.NoError(t, err)
		require.Equal(t, 4, s.Version())
		op := s.OperatingPoint()
		s.Close()
		require.Equal(t, 0.9, op.Confidence)
		require.Equal(t, r.ClassFPR, op.ClassTestFPR)
		for c, th := range r.Thresholds {
			require.Equal(t, *th, op.Thresholds[c])
			require.False(t, math.IsInf(op.Thresholds[c], 0), "an umbrella threshold is a score")
		}
	}

	code, stdout, stderr = roctrain(t, "-data", path, "-label", "kind", "-confidence", "0.9", "-epochs", "3", "-lr", "0.01", "-losses", "ce", "-plot", "", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "deployed: flag class c when its score ≥ its Neyman–Pearson threshold of the validation part, "+
		"whose FPR for c on fresh rows is ≤ α with probability ≥ 0.9 (the rates: macro means).\n")
	require.Contains(t, stdout, "\ndeployed FPR and TPR of each class on this test part, one-vs-rest [95% Clopper–Pearson interval]:\n")
	for _, c := range []string{"a", "b", "c"} {
		require.Regexp(t, `\n +ce +`+c+`  +\d\.\d{4} \[\d\.\d{3}, \d\.\d{3}\]  +\d\.\d{4} \[\d\.\d{3}, \d\.\d{3}\]\n`, stdout)
	}

	labels := writeLabelsCSV(t, dir, 600)
	code, stdout, stderr = roctrain(t, "-data", labels, "-label", "p,q,r", "-confidence", "0.9", "-epochs", "3", "-lr", "0.01",
		"-losses", "ce", "-plot", "", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "\ndeployed FPR and TPR of each label on this test part [95% Clopper–Pearson interval]:\n")
	for _, c := range []string{"p", "q", "r"} {
		require.Regexp(t, `\n +ce +`+c+`  +\d\.\d{4} \[\d\.\d{3}, \d\.\d{3}\]  +\d\.\d{4} \[\d\.\d{3}, \d\.\d{3}\]\n`, stdout)
	}
}

// flagRule, -predict's account of a saved operating point, for every kind of point.
func TestFlagRule(t *testing.T) {
	for _, c := range []struct {
		op   deploy.OperatingPoint
		want string
	}{
		{deploy.OperatingPoint{Alpha: 0.1, Threshold: 1.5}, "score ≥ 1.5, the threshold that kept validation FPR ≤ α = 0.1"},
		{deploy.OperatingPoint{Alpha: 0.05, Threshold: 2, Confidence: 0.95},
			"score ≥ 2, the threshold that keeps FPR ≤ α = 0.05 on fresh rows with probability 0.95, chosen on validation by the Neyman–Pearson rule"},
		{deploy.OperatingPoint{Alpha: 0.1, Threshold: -1, Confidence: 0.99, Recall: 0.9},
			"score ≥ -1, the threshold that keeps TPR ≥ 0.9 on fresh rows with probability 0.99, chosen on validation by the Neyman–Pearson rule"},
		{deploy.OperatingPoint{Alpha: 0.1, Classes: []string{"a", "b"}, Thresholds: []float64{0.5, math.Inf(1)}},
			"score_c ≥ τ_c = [0.5 +Inf], the thresholds that kept each class's validation FPR ≤ α = 0.1"},
		{deploy.OperatingPoint{Alpha: 0.1, Classes: []string{"a", "b"}, Thresholds: []float64{0.5, 0.25}, Confidence: 0.9},
			"score_c ≥ τ_c = [0.5 0.25], the thresholds that keep each class's FPR ≤ α = 0.1 on fresh rows with probability 0.9, chosen on validation by the Neyman–Pearson rule"},
	} {
		require.Equal(t, c.want, flagRule(c.op))
	}
}
