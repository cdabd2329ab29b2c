package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/rocops/rocops/metrics"
)

// rawTable describes a synthetic raw table of the shape users bring: numeric columns with
// blanks and NA cells, text columns, a column with no value in the training file, a text
// level that only the test file has, and a text label.
type rawTable struct {
	name               string
	label              string
	positive, negative string
	numeric            []string   // numeric columns, each with an effect on the label
	text               []string   // text columns
	levels             [][]string // each text column's levels
	newLevel           string     // a level of the first text column that only the test file has
}

// rawTables are three tables of the shapes of a diabetes table (NA cells, pos/neg), an HR
// attrition table (many text columns, blanks, Yes/No) and a loan table (50 states, good/bad).
var rawTables = []rawTable{
	{name: "diabetes", label: "diabetes", positive: "pos", negative: "neg",
		numeric: []string{"pregnant", "glucose", "pressure", "triceps", "insulin", "mass", "age"},
		text:    []string{"clinic"}, levels: [][]string{{"north", "south", "east"}}, newLevel: "west"},
	{name: "attrition", label: "Attrition", positive: "Yes", negative: "No",
		numeric: []string{"Age", "MonthlyIncome", "YearsAtCompany"},
		text:    []string{"BusinessTravel", "Department", "EducationField", "JobRole", "MaritalStatus"},
		levels: [][]string{{"Travel_Rarely", "Travel_Frequently", "Non-Travel"}, {"Sales", "R&D", "HR"},
			{"Life Sciences", "Medical", "Marketing", "Technical Degree", "Other"},
			{"Sales Executive", "Research Scientist", "Laboratory Technician", "Manager"}, {"Single", "Married", "Divorced"}},
		newLevel: "Travel_Sometimes"},
	{name: "loan", label: "status", positive: "bad", negative: "good",
		numeric:  []string{"amount", "income", "dti"},
		text:     []string{"state", "term", "purpose"},
		levels:   [][]string{states(), {"term_36", "term_60"}, {"car", "house", "debt", "other"}},
		newLevel: "PR"},
}

// states are 50 two-letter codes.
func states() []string {
	var s []string
	for k := range 50 {
		s = append(s, string(rune('A'+k/26))+string(rune('A'+k%26)))
	}
	return s
}

// write writes n rows of the table for part (0 training, 1 validation, 2 test) to path, and
// returns them: the header, then the rows.
func (tb rawTable) write(t *testing.T, path string, part, n int, seed uint64) [][]string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, uint64(part)))
	header := append(append(append([]string{}, tb.numeric...), tb.text...), "late_field", tb.label)
	rows := [][]string{header}
	for range n {
		var row []string
		z := -1.0
		for k := range tb.numeric {
			x := r.NormFloat64()
			z += 1.8 * x / float64(k+1)
			switch u := r.Float64(); {
			case u < 0.06:
				row = append(row, "NA")
			case u < 0.1:
				row = append(row, "")
			default:
				row = append(row, strconv.FormatFloat(10*x+50, 'f', 2, 64))
			}
		}
		for k, levels := range tb.levels {
			i := r.IntN(len(levels))
			z += 1.2 * float64(i%3-1)
			v := levels[i]
			switch u := r.Float64(); {
			case u < 0.05:
				v = ""
			case part == 2 && k == 0 && u < 0.12:
				v = tb.newLevel
			}
			row = append(row, v)
		}
		late := "" // no value in the training file
		if part > 0 && r.Float64() < 0.8 {
			late = strconv.Itoa(r.IntN(9))
		}
		row = append(row, late)
		label := tb.negative
		if r.Float64() < 1/(1+math.Exp(-z)) {
			label = tb.positive
		}
		rows = append(rows, append(row, label))
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	require.NoError(t, w.WriteAll(rows))
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	return rows
}

// Each raw table trains end to end with -label and -positive from its own -valid and -test
// files, and -predict scores the test file's rows, with a level new since training and blank
// cells, finitely.
func TestRawTablesEndToEnd(t *testing.T) {
	for k, tb := range rawTables {
		t.Run(tb.name, func(t *testing.T) {
			dir := t.TempDir()
			paths := [3]string{}
			for part, n := range []int{360, 120, 120} {
				paths[part] = filepath.Join(dir, fmt.Sprintf("%s-%d.csv", tb.name, part))
				tb.write(t, paths[part], part, n, uint64(k+1))
			}
			models := filepath.Join(dir, "models")
			code, stdout, stderr := roctrain(t, "-data", paths[0], "-valid", paths[1], "-test", paths[2], "-label", tb.label,
				"-positive", tb.positive, "-losses", "ce,sqhinge", "-epochs", "15", "-hidden", "", "-boot", "0", "-plot", "", "-out", models)
			require.Equal(t, 0, code, stderr)
			cols := len(tb.numeric) + len(tb.text) + 1
			require.Contains(t, stdout, fmt.Sprintf(`data: %s, 600 rows (`, paths[0]))
			require.Contains(t, stdout, fmt.Sprintf(`label %q (-label), positive %q, %d features (%d text, %d with missing values, 1 without a value in training, unused), `,
				tb.label, tb.positive, cols, len(tb.text), len(tb.numeric)+len(tb.text)))
			require.Contains(t, stdout, "; split 360/120/120 (train/validation/test: -data, -valid, -test)")

			if k == 0 { // with -seeds, the one split given
				code, stdout, stderr := roctrain(t, "-data", paths[0], "-valid", paths[1], "-test", paths[2], "-label", tb.label,
					"-positive", tb.positive, "-losses", "ce", "-epochs", "3", "-hidden", "", "-boot", "0", "-plot", "", "-seeds", "2")
				require.Equal(t, 0, code, stderr)
				require.Contains(t, stdout, "seeds 1…2: each repeats the initialisation and the batches, on the one split -data, -valid and -test give")
			}

			// -predict on the test file: a score for every row, finite, and the labels as 0/1.
			var out, errb bytes.Buffer
			model := filepath.Join(models, "ce.json")
			code = run(t.Context(), []string{"-predict", model, "-data", paths[2]}, &out, &errb)
			require.Equal(t, 0, code, errb.String())
			recs, err := csv.NewReader(&out).ReadAll()
			require.NoError(t, err)
			require.Len(t, recs, 121)
			require.Equal(t, []string{"row", tb.label, "score", "flag"}, recs[0])
			for _, rec := range recs[1:] {
				s, err := strconv.ParseFloat(rec[2], 64)
				require.NoError(t, err)
				require.False(t, math.IsNaN(s) || math.IsInf(s, 0), rec)
				require.Contains(t, []string{"0", "1"}, rec[1])
			}

			// A label value not seen in training, and a -valid file of other columns, are errors
			// naming the line and the column.
			bad := filepath.Join(dir, "bad.csv")
			b, err := os.ReadFile(paths[1])
			require.NoError(t, err)
			lines := strings.SplitAfter(string(b), "\n")
			lines[3] = strings.TrimSuffix(strings.TrimSuffix(lines[3], "\n"), tb.positive)
			lines[3] = strings.TrimSuffix(lines[3], tb.negative) + "maybe\n"
			require.NoError(t, os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644))
			code, _, stderr = roctrain(t, "-data", paths[0], "-valid", bad, "-test", paths[2], "-label", tb.label, "-positive", tb.positive, "-plot", "")
			require.Equal(t, 1, code)
			require.Contains(t, stderr, fmt.Sprintf(`roctrain: -valid: data: %s: line 4, column %q: "maybe" is a label value not seen in training (%q, %q)`,
				bad, tb.label, tb.negative, tb.positive))
			lines = strings.SplitAfter(string(b), "\n")
			lines[0] = strings.Replace(lines[0], "late_field", "late", 1)
			require.NoError(t, os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644))
			code, _, stderr = roctrain(t, "-data", paths[0], "-valid", bad, "-test", paths[2], "-label", tb.label, "-positive", tb.positive, "-plot", "")
			require.Equal(t, 1, code)
			require.Contains(t, stderr, fmt.Sprintf(`roctrain: -valid: data: %s: line 1, column "late": feature %d is "late", a column the training data does not have`, bad, cols))

			// Without -positive, the two text values and the flag are named.
			code, _, stderr = roctrain(t, "-data", paths[0], "-label", tb.label, "-plot", "")
			require.Equal(t, 1, code)
			require.Contains(t, stderr, "name the positive class (CSVConfig.Positive; roctrain -positive VALUE)")
			require.Contains(t, stderr, strconv.Quote(tb.positive))
			require.Contains(t, stderr, strconv.Quote(tb.negative))
		})
	}
}

// The cross-entropy run of a linear scorer on the loan table gets the test AUC of the
// pipeline a scikit-learn user would write — median imputation with missing indicators, one-hot
// encoding (unseen levels ignored), standardisation and an L2 logistic regression (C = 1) —
// computed here by hand with gonum (scikit-learn cannot be installed on this machine) on the
// same training and test files.
func TestRawTableMatchesLogisticPipeline(t *testing.T) {
	tb := rawTables[2]
	dir := t.TempDir()
	var rows [3][][]string
	var paths [3]string
	for part, n := range []int{1200, 400, 400} {
		paths[part] = filepath.Join(dir, fmt.Sprintf("loan-%d.csv", part))
		rows[part] = tb.write(t, paths[part], part, n, 7)
	}
	code, stdout, stderr := roctrain(t, "-data", paths[0], "-valid", paths[1], "-test", paths[2], "-label", tb.label,
		"-positive", tb.positive, "-losses", "ce", "-hidden", "", "-epochs", "40", "-boot", "0", "-plot", "", "-json")
	require.Equal(t, 0, code, stderr)
	var got struct {
		Results []struct {
			TestAUC float64 `json:"test_auc"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))

	auc := logisticPipelineAUC(t, rows[0], rows[2], tb.positive)
	// The tolerance: two fits of one linear model on 1200 rows (early stopped on validation
	// against L2-penalised to convergence) differ by a few thousandths in test AUC; 0.02 is far
	// below the distance to chance (0.5) or to a model missing the text columns.
	const tol = 0.02
	require.InDelta(t, auc, got.Results[0].TestAUC, tol, "pipeline %.4f, roctrain ce %.4f", auc, got.Results[0].TestAUC)
	require.Greater(t, auc, 0.7, "the table carries signal")
	t.Logf("test AUC: pipeline %.4f, roctrain ce %.4f", auc, got.Results[0].TestAUC)
}

// logisticPipelineAUC fits the pipeline on the training rows (a header, then rows; the label
// last) and returns its test AUC.
func logisticPipelineAUC(t *testing.T, train, test [][]string, positive string) float64 {
	t.Helper()
	header := train[0]
	p := len(header) - 1
	isMissing := func(s string) bool { return s == "" || s == "NA" }
	type column struct {
		numeric  bool
		median   float64
		missing  bool
		levels   []string
		constant bool // no value in training: dropped
	}
	cols := make([]column, p)
	for j := range p {
		var nums []float64
		levels := map[string]bool{}
		numeric := true
		for _, r := range train[1:] {
			if isMissing(r[j]) {
				cols[j].missing = true
				continue
			}
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				numeric = false
			}
			nums = append(nums, v)
			levels[r[j]] = true
		}
		switch {
		case len(nums) == 0:
			cols[j].constant = true
		case numeric:
			sort.Float64s(nums)
			n := len(nums)
			cols[j].numeric, cols[j].median = true, (nums[(n-1)/2]+nums[n/2])/2
		default:
			for l := range levels {
				cols[j].levels = append(cols[j].levels, l)
			}
			slices.Sort(cols[j].levels)
		}
	}
	encode := func(r []string) []float64 {
		var x []float64
		for j, c := range cols {
			switch {
			case c.constant:
				if c.missing { // scikit-learn keeps the indicator of a column missing throughout; constant, it gets no weight
					x = append(x, 1)
				}
			case c.numeric:
				v, err := strconv.ParseFloat(r[j], 64)
				if isMissing(r[j]) || err != nil {
					v = c.median
				}
				x = append(x, v)
				if c.missing {
					x = append(x, float64(btoiTest(isMissing(r[j]))))
				}
			default:
				for _, l := range c.levels {
					x = append(x, float64(btoiTest(r[j] == l)))
				}
				if c.missing {
					x = append(x, float64(btoiTest(isMissing(r[j]))))
				}
			}
		}
		return x
	}
	design := func(rows [][]string) ([][]float64, []float64) {
		var xs [][]float64
		var ys []float64
		for _, r := range rows[1:] {
			xs = append(xs, encode(r))
			ys = append(ys, float64(btoiTest(r[p] == positive)))
		}
		return xs, ys
	}
	xtr, ytr := design(train)
	xte, yte := design(test)
	d := len(xtr[0])
	mean, sd := make([]float64, d), make([]float64, d)
	for k := range d {
		for _, x := range xtr {
			mean[k] += x[k] / float64(len(xtr))
		}
		for _, x := range xtr {
			sd[k] += (x[k] - mean[k]) * (x[k] - mean[k]) / float64(len(xtr))
		}
		if sd[k] = math.Sqrt(sd[k]); sd[k] == 0 {
			sd[k] = 1
		}
	}
	scale := func(xs [][]float64) *mat.Dense {
		m := mat.NewDense(len(xs), d+1, nil)
		for i, x := range xs {
			m.Set(i, 0, 1)
			for k := range d {
				m.Set(i, k+1, (x[k]-mean[k])/sd[k])
			}
		}
		return m
	}
	X, Xte := scale(xtr), scale(xte)
	// Newton's method on the L2-penalised log-likelihood, ½‖w‖² + Σ log(1 + e^{−y′ xᵀw}) with
	// the intercept unpenalised, as scikit-learn's LogisticRegression(C=1) minimises it.
	w := mat.NewVecDense(d+1, nil)
	n := len(xtr)
	for range 50 {
		g := mat.NewVecDense(d+1, nil)
		h := mat.NewDense(d+1, d+1, nil)
		for i := range n {
			row := X.RawRowView(i)
			z := mat.Dot(mat.NewVecDense(d+1, row), w)
			pr := 1 / (1 + math.Exp(-z))
			for a := range d + 1 {
				g.SetVec(a, g.AtVec(a)+(pr-ytr[i])*row[a])
				for b := range d + 1 {
					h.Set(a, b, h.At(a, b)+pr*(1-pr)*row[a]*row[b])
				}
			}
		}
		for a := 1; a <= d; a++ {
			g.SetVec(a, g.AtVec(a)+w.AtVec(a))
			h.Set(a, a, h.At(a, a)+1)
		}
		var step mat.VecDense
		require.NoError(t, step.SolveVec(h, g))
		w.SubVec(w, &step)
		if mat.Norm(&step, 2) < 1e-10 {
			break
		}
	}
	scores := make([]float64, len(xte))
	for i := range scores {
		scores[i] = mat.Dot(mat.NewVecDense(d+1, Xte.RawRowView(i)), w)
	}
	auc, err := metrics.AUC(scores, yte)
	require.NoError(t, err)
	return auc
}

// Without -losses, multi-class data runs ce, sqhinge, sqhinge:ovo and aucm, multi-label data
// ce, sqhinge and aucm, and the output says the runs were chosen for the task.
func TestTaskDefaultLosses(t *testing.T) {
	dir := t.TempDir()
	var mc, ml strings.Builder
	mc.WriteString("a,b,kind\n")
	ml.WriteString("a,b,l1,l2\n")
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 90 {
		c := i % 3
		fmt.Fprintf(&mc, "%.3f,%.3f,%s\n", r.NormFloat64()+float64(c), r.NormFloat64(), []string{"x", "y", "z"}[c])
		fmt.Fprintf(&ml, "%.3f,%.3f,%d,%d\n", r.NormFloat64()+float64(i%2), r.NormFloat64()+float64(i%3/2), i%2, i%3/2)
	}
	for _, c := range []struct {
		name, csv, task string
		args, runs      []string
	}{
		{"multiclass.csv", mc.String(), "multi-class", nil, []string{"ce", "sqhinge", "sqhinge:ovo", "aucm"}},
		{"multilabel.csv", ml.String(), "multi-label", []string{"-label", "l1,l2"}, []string{"ce", "sqhinge", "aucm"}},
	} {
		path := filepath.Join(dir, c.name)
		require.NoError(t, os.WriteFile(path, []byte(c.csv), 0o644))
		args := append([]string{"-data", path, "-epochs", "2", "-boot", "0", "-plot", ""}, c.args...)
		code, stdout, stderr := roctrain(t, args...)
		require.Equal(t, 0, code, stderr)
		require.Contains(t, stdout, fmt.Sprintf("runs: %s, chosen for %s data (-losses to choose others)", strings.Join(c.runs, ", "), c.task))
		code, stdout, stderr = roctrain(t, append(args, "-json")...)
		require.Equal(t, 0, code, stderr)
		var got struct {
			RunsChosenFor string `json:"runs_chosen_for"`
			Results       []struct {
				Name string `json:"name"`
			} `json:"results"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &got))
		require.Equal(t, c.task, got.RunsChosenFor)
		var names []string
		for _, r := range got.Results {
			names = append(names, r.Name)
		}
		require.Equal(t, c.runs, names)
	}
	// Binary data keeps the four runs, and says nothing of a choice.
	code, stdout, stderr := roctrain(t, "-epochs", "1", "-boot", "0", "-plot", "", "-lr", "0.01")
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stdout, "chosen for")
	require.Contains(t, stdout, "sqhinge+wu(10)")
}

func btoiTest(b bool) int {
	if b {
		return 1
	}
	return 0
}
