//go:build results

package train_test

// The experiments of docs/results.md, section "Where each loss wins". Not part of the suite
// (build tag results). Build once, run the trainings (one JSON line per task, α, seed and
// recipe), then print the tables:
//
//	go test -c -tags results -o results.test ./train
//	ROCOPS_PANEL=/path/to/panel RESULTS_TASKS=churn,tilted RESULTS_ALPHAS=0.05,0.1 \
//	    RESULTS_SEEDS=1,2,3,4,5 nice ./results.test -test.run 'TestResults$' > rows.jsonl
//	RESULTS_IN=rows.jsonl ./results.test -test.run TestResultsTable
//
// TestResultsTable takes RESULTS_RECIPES for its columns, RESULTS_BASE (default "ce") for
// the recipe the paired differences are taken from, RESULTS_FIGURE for the figure (tpr, the
// default; pauc; auc) and RESULTS_GROUPS for columns that select among recipes on
// validation ("direct=hinge|sqhinge"). TestResults takes RESULTS_METRIC=auc to select the
// learning rate and epoch on validation AUC instead of the partial AUC, and a recipe name
// with the suffix "+wu" trains a plain recipe after 5 epochs of cross-entropy.
//
// RESULTS_RECIPES (default "ce,kde,kde-plain") takes roctrain's -losses names with their
// options (ParseRecipe; several candidates, as for "ce+kde", are chosen among on validation
// with the learning rate); RESULTS_EPOCHS (default 40) the epochs of each phase. Every run is
// an experiment.Search: batches of 128, Adam with learning rates 0.001, 0.003 and 0.01, early
// stopping after 8 epochs without a better validation partial AUC up to α; the learning rate
// and epoch with the best validation partial AUC are kept and scored on the test part
// (experiment.Measure). Panel tasks are split 60/20/20 (stratified, by the seed) and
// standardised on the training part; synthetic tasks draw their three parts from the seed.

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/train"
)

// resultsTask is one data set with its scorer.
type resultsTask struct {
	name   string
	hidden []int // nil: a linear scorer
	load   func(t testing.TB, seed uint64) (tr, val, te *data.Dataset)
}

// standardSplit splits ds 60/20/20 by seed and standardises it on the training part
// (experiment.NewSplit), as cmd/roctrain does.
func standardSplit(t testing.TB, ds *data.Dataset, seed uint64) (tr, val, te *data.Dataset) {
	sp, err := experiment.NewSplit(ds, seed)
	if err != nil {
		t.Fatal(err)
	}
	return sp.Train, sp.Val, sp.Test
}

// panelTask reads file from the directory $ROCOPS_PANEL (the development panel; see
// docs/results.md for the sources).
func panelTask(name, file string, hidden []int) resultsTask {
	return resultsTask{name: name, hidden: hidden, load: func(t testing.TB, seed uint64) (tr, val, te *data.Dataset) {
		dir := os.Getenv("ROCOPS_PANEL")
		if dir == "" {
			t.Skip("set ROCOPS_PANEL to the panel's directory")
		}
		ds, err := data.LoadCSV(filepath.Join(dir, file), data.CSVConfig{})
		if err != nil {
			t.Fatal(err)
		}
		return standardSplit(t, ds, seed)
	}}
}

// logisticTask is well specified for cross-entropy: x ~ N(0, I₁₀) and
// P(y = 1 | x) = σ(w·x − 3.2) with w = (1.5, −1, 1, 0.5, −0.5, 0.5, 0, 0, 0, 0), about 10%
// positives.
func logisticTask(t testing.TB, n int, seed uint64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 21))
	const d = 10
	w := []float64{1.5, -1, 1, 0.5, -0.5, 0.5, 0, 0, 0, 0}
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range n {
		z := -3.2
		for j := range d {
			x[i*d+j] = rng.NormFloat64()
			z += w[j] * x[i*d+j]
		}
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			y[i] = 1
		}
	}
	ds, err := data.New(x, y, d)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func logistic(name string, hidden []int) resultsTask {
	return resultsTask{name: name, hidden: hidden, load: func(t testing.TB, seed uint64) (tr, val, te *data.Dataset) {
		return logisticTask(t, 4000, 3*seed+1), logisticTask(t, 2000, 3*seed+2), logisticTask(t, 20000, 3*seed+3)
	}}
}

var resultsTasks = map[string]resultsTask{
	"so":        panelTask("stackoverflow_remote", "stackoverflow_remote.csv", []int{64}),
	"churn":     panelTask("telecom_churn", "telecom_churn.csv", []int{64}),
	"credit":    panelTask("credit_scoring", "credit_scoring.csv", []int{64}),
	"spam":      panelTask("spambase", "spambase.csv", []int{64}),
	"so-lin":    panelTask("stackoverflow_remote/linear", "stackoverflow_remote.csv", nil),
	"churn-lin": panelTask("telecom_churn/linear", "telecom_churn.csv", nil),
	"wdbc": {name: "wdbc", hidden: []int{64}, load: func(t testing.TB, seed uint64) (tr, val, te *data.Dataset) {
		ds, err := data.WDBC()
		if err != nil {
			t.Fatal(err)
		}
		return standardSplit(t, ds, seed)
	}},
	// The tilted-outlier task of compare_test.go: 5000 training and validation rows, 20000
	// test rows.
	"tilted": {name: "tilted/linear", load: func(t testing.TB, seed uint64) (tr, val, te *data.Dataset) {
		return train.TiltedTask(t, 5000, 3*seed+1), train.TiltedTask(t, 5000, 3*seed+2), train.TiltedTask(t, 20000, 3*seed+3)
	}},
	"logit":     logistic("logistic/mlp", []int{64}),
	"logit-lin": logistic("logistic/linear", nil),
}

// resultsRow is one JSON line: a recipe's tuned test figures on one task, α and seed.
type resultsRow struct {
	Task    string  `json:"task"`
	Alpha   float64 `json:"alpha"`            // 0 with RESULTS_RECALL
	Recall  float64 `json:"recall,omitempty"` // RESULTS_RECALL
	Seed    uint64  `json:"seed"`
	Recipe  string  `json:"recipe"`
	LR      float64 `json:"lr"`
	Val     float64 `json:"val"`                  // validation partial AUC up to α of the kept model
	TPR     float64 `json:"tpr"`                  // test TPR at FPR α (with RESULTS_RECALL: 0)
	FPR     float64 `json:"fpr_at_tpr,omitempty"` // with RESULTS_RECALL: test FPR at TPR r
	AUC     float64 `json:"auc"`                  // test AUC
	PAUC    float64 `json:"pauc,omitempty"`       // test partial AUC up to α (McClish), without RESULTS_RECALL
	Epoch   int     `json:"epoch"`
	Secs    float64 `json:"secs"`
	NegTest int     `json:"neg_test"` // negatives in the test part
}

func envList(name, def string) []string {
	v := os.Getenv(name)
	if v == "" {
		v = def
	}
	return strings.Split(v, ",")
}

// resultsPoints returns the operating points of the runs: kdequantile.Config{Recall: r} for
// RESULTS_RECALL=r (the mirrored loss, selected on validation TNR at TPR r and scored by the
// test FPR at TPR r), else one Config{Alpha: α} per α of RESULTS_ALPHAS.
func resultsPoints(t *testing.T) []kdequantile.Config {
	if r := os.Getenv("RESULTS_RECALL"); r != "" {
		recall, err := strconv.ParseFloat(r, 64)
		if err != nil {
			t.Fatal(err)
		}
		return []kdequantile.Config{{Recall: recall}}
	}
	var out []kdequantile.Config
	for _, as := range envList("RESULTS_ALPHAS", "0.05") {
		alpha, err := strconv.ParseFloat(as, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, kdequantile.Config{Alpha: alpha})
	}
	return out
}

func TestResults(t *testing.T) {
	epochs := 40
	if e := os.Getenv("RESULTS_EPOCHS"); e != "" {
		var err error
		if epochs, err = strconv.Atoi(e); err != nil {
			t.Fatal(err)
		}
	}
	var seeds []uint64
	for _, ss := range envList("RESULTS_SEEDS", "1") {
		seed, err := strconv.ParseUint(ss, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, seed)
	}
	enc := json.NewEncoder(os.Stdout)
	for _, tn := range envList("RESULTS_TASKS", "tilted") {
		task, ok := resultsTasks[tn]
		if !ok {
			t.Fatalf("unknown task %q", tn)
		}
		for _, point := range resultsPoints(t) {
			metric := train.PartialAUC(point.Alpha)
			if point.Recall != 0 {
				metric = train.TNRAtTPR(point.Recall)
			}
			if os.Getenv("RESULTS_METRIC") == "auc" {
				metric = train.AUC()
			}
			var searches []*experiment.Search
			for _, rn := range envList("RESULTS_RECIPES", "ce,kde,kde-plain") {
				base, wu := strings.CutSuffix(rn, "+wu")
				recipes, err := train.ParseRecipe(base, point)
				if err != nil {
					t.Fatal(err)
				}
				for k, r := range recipes {
					p, ok := r.(train.Plain)
					if wu && !ok {
						t.Fatalf("%s: a warm-up applies to plain recipes only", rn)
					}
					if wu {
						p.WarmupEpochs = 5
						recipes[k] = p
					}
				}
				searches = append(searches, &experiment.Search{
					Name: rn, Recipes: recipes, LearningRates: []float64{0.001, 0.003, 0.01},
					Model:  nn.MLPConfig{Hidden: task.hidden},
					Config: train.Config{Epochs: epochs, Patience: 8, BatchSize: 128, Metric: metric, Progress: io.Discard},
					Hooks: experiment.Hooks{Done: func(c experiment.Candidate, h *train.History, err error) {
						if err != nil && (h == nil || h.Best < 0) {
							fmt.Fprintln(os.Stderr, task.name, rn, err)
						}
					}},
				})
			}
			var start time.Time
			g := &experiment.Grid{
				Seeds: seeds,
				Split: func(seed uint64) (*experiment.Split, error) {
					tr, val, te := task.load(t, seed)
					return &experiment.Split{Seed: seed, Train: tr, Val: val, Test: te}, nil
				},
				Searches: searches,
				Hooks: experiment.GridHooks{
					Start: func(*experiment.Split, int) bool { start = time.Now(); return true },
					Done: func(sp *experiment.Split, k int, best *experiment.Best, err error) error {
						rn := searches[k].Name
						if err != nil {
							return fmt.Errorf("%s %s %+v seed %d: %w", task.name, rn, point, sp.Seed, err)
						}
						m, err := experiment.Measure(best.Model, sp, experiment.MeasureConfig{Alpha: point.Alpha, Recall: point.Recall})
						if err != nil {
							return err
						}
						var fpr float64
						if m.FPRAtTPR != nil {
							fpr = *m.FPRAtTPR
						}
						return enc.Encode(resultsRow{task.name, point.Alpha, point.Recall, sp.Seed, rn, best.LearningRate, best.History.Epochs[best.History.Best].Metric,
							m.TPR, fpr, m.AUC, m.PartialAUC, best.Epoch(), time.Since(start).Seconds(), sp.Test.Rows - sp.Test.Positives()})
					},
				},
			}
			if err := g.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestResultsTable prints the JSON lines of the files $RESULTS_IN (comma-separated) as one
// Markdown table, a row per task and operating point: for each recipe the mean ± sample sd of
// the test TPR at FPR α (with a recall r, "TPR r: FPR", the test FPR at TPR r: lower is
// better) over the seeds, and for each recipe but the baseline $RESULTS_BASE (default ce)
// its paired difference from the baseline on the same seeds with the 95% paired-t interval
// d̄ ± t_{0.975, k−1}·s_d/√k (* where it excludes 0). A second table sums each recipe's
// differences up over the rows, with its wall time of training relative to the baseline's
// (mean and range over the rows; the rows' "secs", so only as steady as the machine was).
func TestResultsTable(t *testing.T) {
	type key struct {
		task          string
		alpha, recall float64
	}
	runs := map[key]map[string]map[uint64]resultsRow{}
	var order []key
	readLines(t, envList("RESULTS_IN", "rows.jsonl"), func(r resultsRow) {
		k := key{r.Task, r.Alpha, r.Recall}
		if runs[k] == nil {
			runs[k] = map[string]map[uint64]resultsRow{}
			order = append(order, k)
		}
		if runs[k][r.Recipe] == nil {
			runs[k][r.Recipe] = map[uint64]resultsRow{}
		}
		runs[k][r.Recipe][r.Seed] = r
	})
	// RESULTS_GROUPS: "name=a|b|c;…" adds the column name, on every row and seed the member
	// recipe with the best validation figure (the selection a user makes among them).
	if g := os.Getenv("RESULTS_GROUPS"); g != "" {
		for _, spec := range strings.Split(g, ";") {
			name, members, _ := strings.Cut(spec, "=")
			for _, k := range order {
				sel := map[uint64]resultsRow{}
				for _, m := range strings.Split(members, "|") {
					for seed, r := range runs[k][m] {
						if c, ok := sel[seed]; !ok || r.Val > c.Val {
							sel[seed] = r
						}
					}
				}
				runs[k][name] = sel
			}
		}
	}
	slices.SortStableFunc(order, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.task, b.task), cmp.Compare(a.alpha, b.alpha), cmp.Compare(a.recall, b.recall))
	})
	recipes := envList("RESULTS_RECIPES", "ce,kde,kde-plain")
	base := os.Getenv("RESULTS_BASE")
	if base == "" {
		base = "ce"
	}
	head, rule := "| task | α | test negatives (fewest) | seeds |", "|---|---:|---:|---:|"
	for _, rn := range recipes {
		head += " " + rn + " |"
		rule += "---:|"
		if rn != base {
			head += " " + rn + " − " + base + " |"
			rule += "---:|"
		}
	}
	fmt.Println(head)
	fmt.Println(rule)
	type interval struct {
		mean, lo, hi float64
		where        string
		time         float64 // the recipe's mean training seconds over the base's, on this row
	}
	diffs := map[string][]interval{} // per recipe, one per row
	for _, k := range order {
		ref := runs[k][base]
		negTest := math.MaxInt // the fewest over the seeds: synthetic tasks draw a test part per seed
		for _, r := range ref {
			negTest = min(negTest, r.NegTest)
		}
		point := fmt.Sprintf("%g", k.alpha)
		figure := func(r resultsRow) float64 { return r.TPR }
		switch os.Getenv("RESULTS_FIGURE") { // default tpr
		case "pauc":
			figure = func(r resultsRow) float64 { return r.PAUC }
		case "auc":
			figure = func(r resultsRow) float64 { return r.AUC }
		}
		if k.recall != 0 {
			point = fmt.Sprintf("TPR %g: FPR", k.recall)
			figure = func(r resultsRow) float64 { return r.FPR }
		}
		row := fmt.Sprintf("| %s | %s | %d | %d |", k.task, point, negTest, len(ref))
		for _, rn := range recipes {
			var xs, ds []float64
			for seed, r := range runs[k][rn] {
				xs = append(xs, figure(r))
				if c, ok := ref[seed]; ok {
					ds = append(ds, figure(r)-figure(c))
				}
			}
			cell := "–"
			if len(xs) > 0 {
				m, s := meanSD(xs)
				cell = fmt.Sprintf("%.3f ± %.3f", m, s)
			}
			row += " " + cell + " |"
			if rn == base {
				continue
			}
			diff := "–"
			if len(ds) > 1 {
				m, s := meanSD(ds)
				h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(ds) - 1)}.Quantile(0.975) * s / math.Sqrt(float64(len(ds)))
				mark := ""
				if m-h > 0 || m+h < 0 {
					mark = " *"
				}
				diff = fmt.Sprintf("%+.3f [%+.3f, %+.3f]%s", m, m-h, m+h, mark)
				diffs[rn] = append(diffs[rn], interval{m, m - h, m + h, k.task + " " + point,
					meanSecs(runs[k][rn]) / meanSecs(ref)})
			}
			row += " " + diff + " |"
		}
		fmt.Println(row)
	}

	// Over the rows: each recipe's mean difference, the rows whose interval lies above or
	// below 0, and the lowest lower end with its row.
	fmt.Println()
	fmt.Printf("| recipe | rows | mean − %s | above 0 | below 0 | lowest lower end | training time / %s |\n", base, base)
	fmt.Println("|---|---:|---:|---:|---:|---|---|")
	for _, rn := range recipes {
		ivs := diffs[rn]
		if len(ivs) == 0 {
			continue
		}
		var sum float64
		var above, below int
		lowest := ivs[0]
		tMin, tMax, tSum := math.Inf(1), math.Inf(-1), 0.0
		for _, iv := range ivs {
			sum += iv.mean
			tMin, tMax, tSum = min(tMin, iv.time), max(tMax, iv.time), tSum+iv.time
			if iv.lo > 0 {
				above++
			}
			if iv.hi < 0 {
				below++
			}
			if iv.lo < lowest.lo {
				lowest = iv
			}
		}
		fmt.Printf("| %s | %d | %+.3f | %d | %d | %+.3f (%s) | %.1f [%.1f, %.1f] |\n", rn, len(ivs), sum/float64(len(ivs)), above, below,
			lowest.lo, lowest.where, tSum/float64(len(ivs)), tMin, tMax)
	}
}

// meanSecs is the mean wall time of the runs (all learning rates of one recipe, task,
// operating point and seed each).
func meanSecs(runs map[uint64]resultsRow) float64 {
	var s float64
	for _, r := range runs {
		s += r.Secs
	}
	return s / float64(len(runs))
}

// meanSD returns the mean and the sample standard deviation (n − 1) of xs, 0 for one value.
func meanSD(xs []float64) (float64, float64) {
	if len(xs) < 2 {
		return stat.Mean(xs, nil), 0
	}
	return stat.MeanStdDev(xs, nil)
}

// readLines decodes every line of the files that is a JSON object of T (a results run's
// output also holds test logs, which are skipped) and hands it to use, in file order. A
// file that cannot be opened or read fails the test.
func readLines[T any](t *testing.T, files []string, use func(T)) {
	t.Helper()
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var r T
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				continue // not a result line
			}
			use(r)
		}
		err = sc.Err()
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
}
