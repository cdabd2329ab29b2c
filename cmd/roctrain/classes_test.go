package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
)

// writeClassCSV writes n rows of three features and a text label cycling through classes
// (class c at rows i with i mod len(classes) = c), the features shifted by the class so that a
// model can tell them apart, and returns the path.
func writeClassCSV(t *testing.T, dir string, n int, classes []string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("u,v,kind,w\n")
	for i := range n {
		c := i % len(classes)
		u, v, w := math.Sin(float64(i*i)), math.Cos(float64(3*i)), math.Sin(float64(7*i+1))
		fmt.Fprintf(&b, "%g,%g,%s,%g\n", u+0.8*float64(c%2), v+0.6*float64(c), classes[c], w-0.5*float64(c%3))
	}
	path := filepath.Join(dir, "classes.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// writeLabelsCSV writes n rows of two features and the 0/1 label columns p, q and r, each
// leaning on the features, and returns the path.
func writeLabelsCSV(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x1,p,x2,q,r\n")
	b2i := map[bool]int{true: 1}
	for i := range n {
		x1, x2, e := math.Sin(float64(i*i)), math.Cos(float64(3*i)), math.Sin(float64(11*i+2))
		fmt.Fprintf(&b, "%g,%d,%g,%d,%d\n", x1, b2i[x1+0.5*e > 0], x2, b2i[x2-0.7*e > 0.2], b2i[x1+x2+e > 0])
	}
	path := filepath.Join(dir, "labels.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// classRun is a run of the JSON output on data of classes.
type classRun struct {
	Name          string                            `json:"name"`
	LearningRate  float64                           `json:"learning_rate"`
	TestAUC       float64                           `json:"test_auc"`
	OvR           *float64                          `json:"test_auc_ovr"`
	OvO           *float64                          `json:"test_auc_ovo"`
	ClassAUC      []float64                         `json:"test_class_auc"`
	ClassTPR      []float64                         `json:"test_class_tpr_at_fpr"`
	TPR           float64                           `json:"test_tpr_at_fpr"`
	DeployedTPR   float64                           `json:"deployed_test_tpr"`
	Thresholds    []*float64                        `json:"deployed_thresholds"`
	Threshold     *float64                          `json:"deployed_threshold"`
	PairedVsFirst map[string]struct{ Diff float64 } `json:"paired_vs_first"`
	PerSeed       []classRun                        `json:"per_seed"`
}

type classOutput struct {
	Classes    []string   `json:"classes"`
	Multilabel bool       `json:"multilabel"`
	Results    []classRun `json:"results"`
}

func decodeClasses(t *testing.T, stdout string) classOutput {
	t.Helper()
	var out classOutput
	require.NoError(t, json.Unmarshal([]byte(stdout), &out), stdout)
	return out
}

// mean is the mean of the figure get reads off each seed.
func meanOf(seeds []classRun, get func(classRun) float64) float64 {
	var s float64
	for _, r := range seeds {
		s += get(r)
	}
	return s / float64(len(seeds))
}

// A CSV whose label column holds text class names trains every kind of run — softmax
// cross-entropy, one-vs-rest and one-vs-one pairwise, a warm-up — with -seeds 2: the JSON
// parses, lists the classes sorted, and holds each multi-class key per seed; the macro OvR AUC
// is the mean of the per-class AUCs; and every summary figure is the mean of the seeds'.
func TestClassesJSON(t *testing.T) {
	const tol = 1e-12
	dir := t.TempDir()
	path := writeClassCSV(t, dir, 180, []string{"wolf", "emu", "Cat", "dog"})
	code, stdout, stderr := roctrain(t, "-data", path, "-label", "kind", "-json", "-seeds", "2", "-epochs", "3", "-warmup", "1",
		"-lr", "0.01", "-hidden", "8", "-losses", "ce,sqhinge,hinge:ovo,sqhinge+wu", "-plot", "")
	require.Equal(t, 0, code, stderr)
	out := decodeClasses(t, stdout)
	require.Equal(t, []string{"Cat", "dog", "emu", "wolf"}, out.Classes) // sorted as text
	require.False(t, out.Multilabel)
	require.Len(t, out.Results, 4)
	for _, r := range out.Results {
		require.Len(t, r.PerSeed, 2, r.Name)
		for _, s := range r.PerSeed {
			require.NotNil(t, s.OvR, r.Name)
			require.NotNil(t, s.OvO, r.Name)
			require.Len(t, s.ClassAUC, 4, r.Name)
			require.Len(t, s.ClassTPR, 4, r.Name)
			require.Len(t, s.Thresholds, 4, r.Name)
			require.Nil(t, s.Threshold, r.Name)
			require.Equal(t, *s.OvR, s.TestAUC, r.Name)
			require.InDelta(t, *s.OvR, mean(s.ClassAUC), tol, r.Name)
			require.InDelta(t, s.TPR, mean(s.ClassTPR), tol, r.Name)
			for _, v := range append(slices.Clone(s.ClassAUC), *s.OvO, s.TPR) {
				require.True(t, v >= 0 && v <= 1, "%s: %v", r.Name, v)
			}
		}
		require.InDelta(t, meanOf(r.PerSeed, func(s classRun) float64 { return *s.OvR }), *r.OvR, tol, r.Name)
		require.InDelta(t, meanOf(r.PerSeed, func(s classRun) float64 { return *s.OvO }), *r.OvO, tol, r.Name)
		require.InDelta(t, meanOf(r.PerSeed, func(s classRun) float64 { return s.TPR }), r.TPR, tol, r.Name)
		for c := range r.ClassAUC {
			require.InDelta(t, meanOf(r.PerSeed, func(s classRun) float64 { return s.ClassAUC[c] }), r.ClassAUC[c], tol, r.Name)
		}
	}
	first := out.Results[0]
	for _, r := range out.Results[1:] {
		for key, get := range map[string]func(classRun) float64{
			"test_auc_ovr":    func(s classRun) float64 { return *s.OvR },
			"test_auc_ovo":    func(s classRun) float64 { return *s.OvO },
			"test_tpr_at_fpr": func(s classRun) float64 { return s.TPR },
		} {
			p, ok := r.PairedVsFirst[key]
			require.True(t, ok, "%s: %s", r.Name, key)
			want := (get(r.PerSeed[0]) - get(first.PerSeed[0]) + get(r.PerSeed[1]) - get(first.PerSeed[1])) / 2
			require.InDelta(t, want, p.Diff, tol, "%s: %s", r.Name, key)
		}
	}
	// The table shows the macro figures and the per-class AUCs.
	code, stdout, stderr = roctrain(t, "-data", path, "-label", "kind", "-epochs", "2", "-lr", "0.01", "-hidden", "8",
		"-losses", "ce,sqhinge:ovo", "-plot", "")
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{"4 classes", "MLP 3→8→4", "test macro AUC (OvR)", "test macro AUC (OvO)", "test AUC of each class", " wolf "} {
		require.Contains(t, stdout, want)
	}
}

// mean is the mean of xs.
func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// -label naming several 0/1 columns trains on multi-label data: ce and a pairwise loss run,
// the JSON lists the labels in -label's order and holds no one-vs-one AUC.
func TestMultilabelCSV(t *testing.T) {
	dir := t.TempDir()
	path := writeLabelsCSV(t, dir, 150)
	code, stdout, stderr := roctrain(t, "-data", path, "-label", "r, p,q", "-json", "-epochs", "30", "-lr", "0.01",
		"-hidden", "8", "-losses", "ce,hinge+wu", "-warmup", "1", "-plot", "")
	require.Equal(t, 0, code, stderr)
	out := decodeClasses(t, stdout)
	require.Equal(t, []string{"r", "p", "q"}, out.Classes)
	require.True(t, out.Multilabel)
	require.Len(t, out.Results, 2)
	for _, r := range out.Results {
		require.Nil(t, r.OvO, r.Name)
		require.Len(t, r.ClassAUC, 3, r.Name)
		require.InDelta(t, mean(r.ClassAUC), *r.OvR, 1e-12, r.Name)
		require.Greater(t, *r.OvR, 0.6, r.Name) // each label leans on the features
	}
}

// Bad input on data of classes is a clear error with status 1 (2 for a bad flag), naming what
// is wrong, and never a panic.
func TestClassBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	classes := writeClassCSV(t, dir, 60, []string{"a", "b", "c"})
	var small, many, empty strings.Builder
	small.WriteString("x,y\n")
	for i := range 20 {
		fmt.Fprintf(&small, "%d,%s\n", i, []string{"a", "b", "c", "d"}[min(i%3, 2)])
	}
	small.WriteString("1,rare\n2,rare\n")
	many.WriteString("x,y\n")
	for i := range 1001 * 3 {
		fmt.Fprintf(&many, "%d,k%d\n", i, i%1001)
	}
	empty.WriteString("x,y\n1,a\n2,b\n3,c\n4, \n")
	labels := writeLabelsCSV(t, dir, 30)
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  []string
	}{
		{"small class", []string{"-data", write("small.csv", small.String())}, 1, []string{`class "rare" has 2 rows`, "line 22"}},
		{"too many classes", []string{"-data", write("many.csv", many.String())}, 1, []string{"at most 1000 classes"}},
		{"empty class name", []string{"-data", write("empty.csv", empty.String())}, 1, []string{"line 5", "class name cannot be empty"}},
		{"not 0/1", []string{"-data", labels, "-label", "p,x2"}, 1, []string{`column "x2"`, "line 3", "not a label"}},
		{"missing label column", []string{"-data", labels, "-label", "p,s"}, 1, []string{`no label column "s"`}},
		{"bad label list", []string{"-data", labels, "-label", "p,,q"}, 2, []string{"-label", "empty"}},
		{"ovo on binary", []string{"-losses", "sqhinge:ovo"}, 1, []string{"-losses sqhinge:ovo", "multi-class data", "binary"}},
		{"ovo on labels", []string{"-data", labels, "-label", "p,q", "-losses", "hinge:ovo"}, 1, []string{"-losses hinge:ovo", "multi-label"}},
		{"kde on classes", []string{"-data", classes, "-label", "kind", "-losses", "ce,kde"}, 1, []string{"-losses kde", "KDE loss"}},
		{"ce+kde on classes", []string{"-data", classes, "-label", "kind", "-losses", "ce+kde"}, 1, []string{"-losses ce+kde", "KDE loss"}},
		{"recall on classes", []string{"-data", classes, "-label", "kind", "-losses", "ce", "-recall", "0.9"}, 1, []string{"-recall"}},
		{"diagnose on labels", []string{"-data", labels, "-label", "p,q", "-losses", "ce", "-diagnose", "-json"}, 1, []string{"-diagnose", "multi-class"}},
		{"unknown option", []string{"-losses", "sqhinge:ovr"}, 2, []string{`unknown option "ovr"`, "ovo"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := roctrain(t, append(c.args, "-epochs", "1", "-plot", "")...)
			require.Equal(t, c.code, code, stderr)
			require.Empty(t, stdout)
			require.NotContains(t, stderr, "panic")
			for _, m := range c.msg {
				require.Contains(t, stderr, m)
			}
		})
	}
}

// -plot on data of classes draws one one-vs-rest panel per class, three a row: one row for
// three classes; for eight, the six smallest and the macro curve, three rows.
func TestClassPlot(t *testing.T) {
	dir := t.TempDir()
	heights := map[int]int{}
	for _, k := range []int{3, 8} {
		names := make([]string, k)
		for c := range names {
			names[c] = fmt.Sprintf("k%d", c)
		}
		path, plot := writeClassCSV(t, dir, 40*k, names), filepath.Join(dir, fmt.Sprintf("roc%d.png", k))
		code, stdout, stderr := roctrain(t, "-data", path, "-label", "kind", "-epochs", "2", "-lr", "0.01", "-hidden", "4",
			"-losses", "ce,square", "-plot", plot)
		require.Equal(t, 0, code, stderr)
		require.Contains(t, stdout, "ROC curves: "+plot)
		w, h := pngSize(t, plot)
		require.Greater(t, w, h)
		heights[k] = h
	}
	require.InDelta(t, 3*heights[3], heights[8], 1) // rounding to pixels
}

// Models of classes saved with -out record the classes, the per-class thresholds of the JSON
// and whether the scores are softmax probabilities (a softmax cross-entropy run: yes; a
// pairwise run: no); -predict prints row,<label>,score_<class>…,flag_<class>… with the scores
// computed here from the files alone (the softmax of the outputs when probabilities) and
// flag_c exactly when score_c ≥ the saved threshold of class c, which some row reaches.
func TestClassModelsPredict(t *testing.T) {
	dir := t.TempDir()
	classes := []string{"wolf", "emu", "cat"}
	path, models := writeClassCSV(t, dir, 150, classes), filepath.Join(dir, "models")
	code, stdout, stderr := roctrain(t, "-data", path, "-label", "kind", "-json", "-out", models, "-plot", "",
		"-losses", "ce,hinge:ovo", "-hidden", "4", "-epochs", "4", "-lr", "0.01")
	require.Equal(t, 0, code, stderr)
	out := decodeClasses(t, stdout)
	sorted := []string{"cat", "emu", "wolf"}
	ds, err := data.LoadCSV(path, data.CSVConfig{Label: "kind"})
	require.NoError(t, err)
	for i, r := range out.Results {
		model := filepath.Join(models, deploy.SafeName([]string{"ce", "hinge:ovo"}[i])+".params")
		s, err := deploy.Load(model)
		require.NoError(t, err)
		op := s.OperatingPoint()
		require.Equal(t, sorted, op.Classes)
		require.Equal(t, "kind", op.Label)
		require.False(t, op.Multilabel)
		require.Equal(t, i == 0, op.Probabilities, r.Name) // ce is softmax-trained
		require.Len(t, op.Thresholds, 3)
		for c, th := range r.Thresholds {
			if th == nil {
				require.True(t, math.IsInf(op.Thresholds[c], 1))
			} else {
				require.Equal(t, *th, op.Thresholds[c])
			}
		}
		code, got, errOut := roctrain(t, "-predict", model, "-data", path)
		require.Equal(t, 0, code, errOut)
		recs, err := csv.NewReader(strings.NewReader(got)).ReadAll()
		require.NoError(t, err)
		require.Equal(t, []string{"row", "kind", "score_cat", "score_emu", "score_wolf", "flag_cat", "flag_emu", "flag_wolf", "predicted"}, recs[0])
		require.Len(t, recs, 151)

		m, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4}, Outputs: 3})
		require.NoError(t, err)
		require.NoError(t, nn.Load(s.ModelPath(), m))
		std, err := s.Standardizer().Apply(ds)
		require.NoError(t, err)
		want, err := nn.Scores(m, std.X, std.Rows)
		require.NoError(t, err)
		if op.Probabilities {
			want, err = crossentropy.Softmax(want, 3)
			require.NoError(t, err)
		}
		atThreshold, flagged := make([]int, 3), make([]int, 3)
		for row, rec := range recs[1:] {
			require.Equal(t, classes[row%3], rec[1])
			// predicted: the class of the highest score.
			top := 0
			for c := 1; c < 3; c++ {
				if want[3*row+c] > want[3*row+top] {
					top = c
				}
			}
			require.Equal(t, sorted[top], rec[8], "row %d", row+1)
			for c := range 3 {
				if rec[5+c] == "1" {
					flagged[c]++
				}
			}
			for c := range 3 {
				score, err := strconv.ParseFloat(rec[2+c], 64)
				require.NoError(t, err)
				require.Equal(t, want[3*row+c], score, "row %d, class %d", row+1, c)
				require.Equal(t, map[bool]string{true: "1", false: "0"}[score >= op.Thresholds[c]], rec[5+c], "row %d, class %d", row+1, c)
				if score == op.Thresholds[c] {
					atThreshold[c]++
				}
			}
		}
		for c, th := range op.Thresholds {
			if !math.IsInf(th, 1) {
				require.Positive(t, atThreshold[c], "class %d: the validation row at the threshold", c)
			}
		}
		require.Contains(t, errOut, fmt.Sprintf("roctrain: flagged rows per class: cat %d, emu %d, wolf %d\n", flagged[0], flagged[1], flagged[2]))
	}
	// A multi-label model prints its label columns and a flag per label.
	labels := writeLabelsCSV(t, dir, 120)
	code, _, stderr = roctrain(t, "-data", labels, "-label", "q,p", "-out", filepath.Join(dir, "ml"), "-plot", "",
		"-losses", "sqhinge", "-hidden", "4", "-epochs", "3", "-lr", "0.01")
	require.Equal(t, 0, code, stderr)
	code, got, errOut := roctrain(t, "-predict", filepath.Join(dir, "ml", "sqhinge.params"), "-data", labels)
	require.Equal(t, 0, code, errOut)
	require.True(t, strings.HasPrefix(got, "row,q,p,score_q,score_p,flag_q,flag_p\n"), got[:80])
	require.Contains(t, errOut, "roctrain: flagged rows per label: q ")
}

// Parquet training data takes one 0/1 label column: a multi-label -label list on a Parquet
// file is a clear error, not a misread.
func TestMultilabelParquetRefused(t *testing.T) {
	path := writeParquetOf(t, writeCSV(t, t.TempDir(), 60))
	code, stdout, stderr := roctrain(t, "-data", path, "-label", "y,a", "-epochs", "1", "-plot", "")
	require.Equal(t, 1, code, stderr)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "read from CSV only")
	require.Contains(t, stderr, `["y" "a"]`)
}

// -diagnose on multi-class data records a diagnosis of every epoch of each run (the macro
// figures over the binary comparisons of its loss) and draws the diagnostics PNG.
func TestClassDiagnose(t *testing.T) {
	dir := t.TempDir()
	path, plot := writeClassCSV(t, dir, 120, []string{"a", "b", "c"}), filepath.Join(dir, "roc.png")
	code, stdout, stderr := roctrain(t, "-data", path, "-label", "kind", "-json", "-diagnose", "-epochs", "3",
		"-lr", "0.01", "-hidden", "4", "-losses", "ce,hinge:ovo", "-plot", plot)
	require.Equal(t, 0, code, stderr)
	var out struct {
		Results []struct {
			Name        string           `json:"name"`
			Diagnostics []map[string]any `json:"diagnostics"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out))
	for _, r := range out.Results {
		require.Len(t, r.Diagnostics, 3, r.Name)
		for _, d := range r.Diagnostics {
			m, ok := d["misranking"].(float64)
			require.True(t, ok && m >= 0 && m <= 1, "%s: %v", r.Name, d)
		}
	}
	w, h := pngSize(t, diagnosticsPath(plot))
	require.Greater(t, w, h)
}
