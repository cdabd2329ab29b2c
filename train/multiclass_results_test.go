//go:build results

package train_test

// The experiments of docs/results.md, section "Multi-class and multi-label". Not part of the
// suite (build tag results). Build once, run the trainings (one JSON line per task, seed and
// run), then print the tables:
//
//	go test -c -tags results -o results.test ./train
//	ROCOPS_PANEL=/path/to/panel MCRESULTS_TASKS=hpc,vehicle,hpc-labels RESULTS_SEEDS=1,2,3,4,5 \
//	    nice ./results.test -test.run 'TestMulticlassResults$' > mc.jsonl
//	RESULTS_IN=mc.jsonl ./results.test -test.run TestMulticlassResultsTable
//
// Runs (MCRESULTS_RUNS, default all of a task's but aucm): "ce", the task's cross-entropy
// (softmax for k classes, the per-label sigmoid for k labels); "<surrogate>:<split>[+wu]" with
// the surrogate hinge, sqhinge or square, the split ovr or ovo (multi-class,
// train.MulticlassPairwise) or labels (multi-label, train.MultilabelPairwise), and "+wu" for 5
// epochs of the task's cross-entropy first; "aucm", train.AUCM (one-vs-rest AUC-M with PESG at
// LibAUC's defaults), and "aucm:lr=η". Every run is an experiment.Search over the learning
// rates 0.001, 0.003 and 0.01 with Adam (aucm: PESG's 0.03, 0.1 and 0.3; aucm:lr=η: η), batches
// of 128 (holding every class), an MLP of 64 hidden units and k outputs, RESULTS_EPOCHS
// (default 30) epochs after the warm-up, without early stopping; the learning rate and epoch
// (warm-up epochs included) with the best validation macro AUC are kept — one-vs-one (Hand and
// Till) for the ovo runs, one-vs-rest for the others, label-wise for multi-label — and the kept
// model's test macro one-vs-one and one-vs-rest AUC (multi-label: the macro label-wise AUC)
// are written. The trainer measures an epoch of the softmax cross-entropy on the softmax
// probabilities of the outputs and every other epoch on the outputs
// (train.History.Probabilities); the test figures are taken on the same scores as the kept
// epoch's validation figure.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// mcTask is a multi-class or multi-label data set: split returns one seed's standardised
// parts.
type mcTask struct {
	name       string
	multilabel bool
	split      func(t testing.TB, seed uint64) *experiment.Split
}

// loadPanel reads file from $ROCOPS_PANEL, skipping the test when it is unset.
func loadPanel(t testing.TB, file string) *data.Dataset {
	dir := os.Getenv("ROCOPS_PANEL")
	if dir == "" {
		t.Skip("set ROCOPS_PANEL to the panel's directory")
	}
	ds, err := data.LoadCSV(filepath.Join(dir, file), data.CSVConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// panelClasses is a multi-class panel file split 60/20/20 by class (experiment.NewSplit).
func panelClasses(name, file string) mcTask {
	return mcTask{name: name, split: func(t testing.TB, seed uint64) *experiment.Split {
		sp, err := experiment.NewSplit(loadPanel(t, file), seed)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}}
}

// hpcLabelNames are the labels of the multi-label task built from hpc_jobs.csv.
var hpcLabelNames = []string{"not_VF", "M_or_L", "pending"}

// hpcLabels is a multi-label task built from hpc_jobs.csv: three labels per job, not_VF
// (its class is not VF, the fastest), M_or_L (its class is M or L, the two slowest) and
// pending (num_pending > 0: other jobs were queued when it was submitted), with num_pending
// removed from the features. not_VF contains M_or_L, and pending co-occurs with both. The
// rows are split 60/20/20 stratified by the joint label (the job's class crossed with
// pending, 8 strata), then each part's joint class is turned into the three indicators.
func hpcLabels(t testing.TB, seed uint64) *experiment.Split {
	ds := loadPanel(t, "hpc_jobs.csv")
	pend := slices.Index(ds.FeatureNames, "num_pending")
	if pend < 0 || !slices.Equal(ds.Classes, []string{"F", "L", "M", "VF"}) {
		t.Fatalf("hpc_jobs.csv: want a num_pending column and the classes F, L, M, VF; have %v, %v", ds.FeatureNames, ds.Classes)
	}
	joint := &data.Dataset{Rows: ds.Rows, Cols: ds.Cols - 1, LabelName: "class×pending",
		FeatureNames: slices.Delete(slices.Clone(ds.FeatureNames), pend, pend+1)}
	for c := range ds.Classes {
		joint.Classes = append(joint.Classes, ds.Classes[c]+",0", ds.Classes[c]+",1")
	}
	for i := range ds.Rows {
		row := ds.Row(i)
		joint.X = append(joint.X, row[:pend]...)
		joint.X = append(joint.X, row[pend+1:]...)
		p := 0.0
		if row[pend] > 0 {
			p = 1
		}
		joint.Y = append(joint.Y, 2*ds.Y[i]+p)
	}
	if err := joint.Validate(); err != nil {
		t.Fatal(err)
	}
	sp, err := experiment.NewSplit(joint, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []*data.Dataset{sp.Train, sp.Val, sp.Test} {
		y := make([]float64, 0, 3*part.Rows)
		for _, j := range part.Y {
			class := ds.Classes[int(j)/2]
			y = append(y, b2f(class != "VF"), b2f(class == "M" || class == "L"), float64(int(j)%2))
		}
		part.Y, part.Classes, part.Labels, part.LabelName = y, nil, slices.Clone(hpcLabelNames), ""
		if err := part.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	return sp
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

var mcTasks = map[string]mcTask{
	"hpc":        panelClasses("hpc_jobs", "hpc_jobs.csv"),
	"vehicle":    panelClasses("vehicle", "vehicle.csv"),
	"hpc-labels": {name: "hpc_jobs labels", multilabel: true, split: hpcLabels},
}

// mcRun returns the recipe and the validation metric of the run named name ("ce",
// "hinge:ovr+wu", …) on a multi-class (multilabel false) or multi-label task.
func mcRun(name string, multilabel bool) (train.Recipe, train.Metric, error) {
	base, wu := strings.CutSuffix(name, "+wu")
	warmup := 0
	if wu {
		warmup = 5
	}
	metric := train.MacroAUC(metrics.OvR)
	if base == "aucm" || strings.HasPrefix(base, "aucm:lr=") {
		if wu {
			return nil, metric, fmt.Errorf("%s: aucm has no warm-up here", name)
		}
		return train.AUCM{}, metric, nil // PESG at LibAUC's defaults, its rate from the search
	}
	if base == "ce" {
		if wu {
			return nil, metric, fmt.Errorf("%s: ce has no warm-up", name)
		}
		return train.Plain{}, metric, nil // the data's cross-entropy
	}
	sur, split, _ := strings.Cut(base, ":")
	var cfg pairwise.Config
	switch sur {
	case "hinge":
		cfg.Surrogate = pairwise.Hinge
	case "sqhinge":
		cfg.Surrogate = pairwise.SquaredHinge
	case "square":
		cfg.Surrogate = pairwise.Square
	default:
		return nil, metric, fmt.Errorf("%s: unknown surrogate %q", name, sur)
	}
	var loss train.Loss
	switch {
	case multilabel && split == "labels":
		loss = train.MultilabelPairwise{Config: cfg}
	case !multilabel && (split == "ovr" || split == "ovo"):
		ovo := cfg
		ovo.OvO = split == "ovo"
		loss = train.MulticlassPairwise{Config: ovo}
		if split == "ovo" {
			metric = train.MacroAUC(metrics.OvO)
		}
	default:
		return nil, metric, fmt.Errorf("%s: split %q does not fit the task", name, split)
	}
	return train.Plain{Loss: loss, WarmupEpochs: warmup}, metric, nil
}

// mcRates returns the learning rates a run's search tries: Adam's 0.001, 0.003 and 0.01, or
// for the aucm names those roctrain searches (train.SearchRates: PESG's train.PESGRates, or
// η alone for "aucm:lr=η").
func mcRates(name string) ([]float64, error) {
	if strings.HasPrefix(name, "aucm") {
		return train.SearchRates(name)
	}
	return []float64{0.001, 0.003, 0.01}, nil
}

// mcDefaultRuns are a task's runs without MCRESULTS_RUNS.
func mcDefaultRuns(multilabel bool) []string {
	splits := []string{"ovr", "ovo"}
	if multilabel {
		splits = []string{"labels"}
	}
	runs := []string{"ce"}
	for _, split := range splits {
		for _, sur := range []string{"hinge", "sqhinge"} {
			runs = append(runs, sur+":"+split, sur+":"+split+"+wu")
		}
	}
	return runs
}

// mcRow is one JSON line: a run's tuned test figures on one task and seed.
type mcRow struct {
	Task  string  `json:"task"`
	Seed  uint64  `json:"seed"`
	Run   string  `json:"run"`
	LR    float64 `json:"lr"`
	Val   float64 `json:"val"` // the kept epoch's validation macro AUC (the run's method)
	OvO   float64 `json:"test_ovo,omitempty"`
	OvR   float64 `json:"test_ovr"` // multi-label: the macro label-wise AUC
	Epoch int     `json:"epoch"`
	Secs  float64 `json:"secs"`
}

// mcAUC returns the macro OvO and OvR AUC of m on the part te (multi-label: 0 and the macro
// label-wise AUC), of m's softmax probabilities when prob is set.
func mcAUC(m nn.Model, te *data.Dataset, prob bool) (ovo, ovr float64, err error) {
	k := te.Outputs()
	s, err := nn.Scores(m, te.X, te.Rows)
	if err != nil {
		return 0, 0, err
	}
	if prob {
		if s, err = crossentropy.Softmax(s, k); err != nil {
			return 0, 0, err
		}
	}
	if te.Labels != nil {
		ovr, err = metrics.MultilabelAUC(s, k, te.Y, metrics.Macro)
		return 0, ovr, err
	}
	y := make([]int, te.Rows)
	for i, v := range te.Y {
		y[i] = int(v)
	}
	if ovo, err = metrics.MulticlassAUC(s, k, y, metrics.OvO, metrics.Macro); err != nil {
		return 0, 0, err
	}
	ovr, err = metrics.MulticlassAUC(s, k, y, metrics.OvR, metrics.Macro)
	return ovo, ovr, err
}

func TestMulticlassResults(t *testing.T) {
	epochs := envInt(t, "RESULTS_EPOCHS", 30)
	seeds := envSeeds(t)
	enc := json.NewEncoder(os.Stdout)
	for _, tn := range envList("MCRESULTS_TASKS", "hpc,vehicle,hpc-labels") {
		task, ok := mcTasks[tn]
		if !ok {
			t.Fatalf("unknown task %q", tn)
		}
		runs := mcDefaultRuns(task.multilabel)
		if r := os.Getenv("MCRESULTS_RUNS"); r != "" {
			runs = strings.Split(r, ",")
		}
		var searches []*experiment.Search
		for _, rn := range runs {
			recipe, metric, err := mcRun(rn, task.multilabel)
			if err != nil {
				t.Fatal(err)
			}
			lrs, err := mcRates(rn)
			if err != nil {
				t.Fatal(err)
			}
			searches = append(searches, &experiment.Search{
				Name: rn, Recipes: []train.Recipe{recipe}, LearningRates: lrs,
				Model:  nn.MLPConfig{Hidden: []int{64}},
				Config: train.Config{Epochs: epochs, BatchSize: 128, Metric: metric, Progress: io.Discard},
				Hooks: experiment.Hooks{Done: func(c experiment.Candidate, h *train.History, err error) {
					if err != nil {
						fmt.Fprintln(os.Stderr, task.name, rn, c.LearningRate, err)
					}
				}},
			})
		}
		var start time.Time
		g := &experiment.Grid{
			Seeds: seeds,
			Split: func(seed uint64) (*experiment.Split, error) {
				sp := task.split(t, seed)
				k := sp.Train.Outputs()
				for _, s := range searches {
					s.Model.Outputs = k
				}
				return sp, nil
			},
			Searches: searches,
			Hooks: experiment.GridHooks{
				Start: func(*experiment.Split, int) bool { start = time.Now(); return true },
				Done: func(sp *experiment.Split, k int, best *experiment.Best, err error) error {
					rn := searches[k].Name
					if err != nil {
						return fmt.Errorf("%s %s seed %d: %w", task.name, rn, sp.Seed, err)
					}
					row := mcRow{task.name, sp.Seed, rn, best.LearningRate, best.Score(), 0, 0, best.Epoch(), 0}
					if row.OvO, row.OvR, err = mcAUC(best.Model, sp.Test, best.History.Probabilities); err != nil {
						return fmt.Errorf("%s %s seed %d: %w", task.name, rn, sp.Seed, err)
					}
					row.Secs = time.Since(start).Seconds()
					return enc.Encode(row)
				},
			},
		}
		if err := g.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// envInt returns the integer in $name, def when it is unset.
func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var n int
	if _, err := fmt.Sscan(v, &n); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// envSeeds returns the seeds of $RESULTS_SEEDS, default 1.
func envSeeds(t *testing.T) []uint64 {
	var seeds []uint64
	for _, ss := range envList("RESULTS_SEEDS", "1") {
		var s uint64
		if _, err := fmt.Sscan(ss, &s); err != nil {
			t.Fatalf("RESULTS_SEEDS: %v", err)
		}
		seeds = append(seeds, s)
	}
	return seeds
}

// pairedT returns the mean d̄ of the paired differences ds and the half-width
// t_{0.975, k−1}·s_d/√k of its 95% paired-t interval over the k differences.
func pairedT(ds []float64) (mean, half float64) {
	m, s := meanSD(ds)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(ds) - 1)}.Quantile(0.975)
	return m, q * s / math.Sqrt(float64(len(ds)))
}

// TestMulticlassResultsTable prints the JSON lines of the files $RESULTS_IN (comma-separated)
// as Markdown tables, two per task. The first has a row per run and, for each figure (test
// macro OvO and OvR AUC; multi-label tasks: the macro label-wise AUC), the mean ± sample sd
// over the seeds and the paired difference from each baseline of $MCRESULTS_BASE (default
// "ce"; a baseline the task lacks has no column) on the same seeds with the 95% paired-t interval
// d̄ ± t_{0.975, k−1}·s_d/√k (* where it excludes 0), then the learning rates validation chose.
// The second holds the comparisons of the corrective-power paper's appendix B.6: each
// warmed-up run against its direct run, each squared-hinge run against its hinge run.
func TestMulticlassResultsTable(t *testing.T) {
	type key struct{ task, run string }
	runs := map[key]map[uint64]mcRow{}
	var tasks []string
	taskRuns := map[string][]string{}
	multilabel := map[string]bool{}
	readLines(t, envList("RESULTS_IN", "mc.jsonl"), func(r mcRow) {
		if r.Task == "" {
			return // another JSON line
		}
		k := key{r.Task, r.Run}
		if !slices.Contains(tasks, r.Task) {
			tasks = append(tasks, r.Task)
			multilabel[r.Task] = true
		}
		if r.OvO != 0 {
			multilabel[r.Task] = false
		}
		if runs[k] == nil {
			runs[k] = map[uint64]mcRow{}
			taskRuns[r.Task] = append(taskRuns[r.Task], r.Run)
		}
		runs[k][r.Seed] = r
	})
	// MCRESULTS_GROUPS: "name=a|b|c;…" adds the run name to every task holding a member, on
	// every seed the member run with the best validation figure (the selection a user makes
	// among them; the members should share a validation metric).
	if g := os.Getenv("MCRESULTS_GROUPS"); g != "" {
		for _, spec := range strings.Split(g, ";") {
			name, members, _ := strings.Cut(spec, "=")
			for _, task := range tasks {
				sel := map[uint64]mcRow{}
				for _, m := range strings.Split(members, "|") {
					for seed, r := range runs[key{task, m}] {
						if c, ok := sel[seed]; !ok || r.Val > c.Val {
							r.Run = m
							sel[seed] = r
						}
					}
				}
				if len(sel) > 0 {
					runs[key{task, name}] = sel
					taskRuns[task] = append(taskRuns[task], name)
				}
			}
		}
	}
	// MCRESULTS_SHOW: the runs to print, in this order (default all, as read).
	if show := os.Getenv("MCRESULTS_SHOW"); show != "" {
		for _, task := range tasks {
			var keep []string
			for _, rn := range strings.Split(show, ",") {
				if runs[key{task, rn}] != nil {
					keep = append(keep, rn)
				}
			}
			taskRuns[task] = keep
		}
	}
	allBases := envList("MCRESULTS_BASE", "ce")
	type figure struct {
		name string
		get  func(mcRow) float64
	}
	for _, task := range tasks {
		figs := []figure{{"OvO", func(r mcRow) float64 { return r.OvO }}, {"OvR", func(r mcRow) float64 { return r.OvR }}}
		if multilabel[task] {
			figs = []figure{{"label-wise", func(r mcRow) float64 { return r.OvR }}}
		}
		var bases []string // the baselines the task has
		for _, b := range allBases {
			if runs[key{task, b}] != nil {
				bases = append(bases, b)
			}
		}
		head, rule := "| run | seeds |", "|---|---:|"
		for _, f := range figs {
			head += " " + f.name + " |"
			rule += "---:|"
			for _, b := range bases {
				head += fmt.Sprintf(" %s − %s [95%%] |", f.name, b)
				rule += "---:|"
			}
		}
		fmt.Printf("\n%s: test macro AUC\n\n%s learning rates |\n%s---|\n", task, head, rule)
		for _, rn := range taskRuns[task] {
			rs := runs[key{task, rn}]
			row := fmt.Sprintf("| %s | %d |", rn, len(rs))
			for _, f := range figs {
				var xs []float64
				for _, r := range rs {
					xs = append(xs, f.get(r))
				}
				m, s := meanSD(xs)
				row += fmt.Sprintf(" %.4f ± %.4f |", m, s)
				for _, b := range bases {
					cell := "–"
					if rn != b {
						cell = pairedCell(rs, runs[key{task, b}], f.get)
					}
					row += " " + cell + " |"
				}
			}
			lrs := map[string]int{} // a group's cells name the member run too
			for _, r := range rs {
				cell := fmt.Sprintf("%g", r.LR)
				if r.Run != rn {
					cell = r.Run + " " + cell
				}
				lrs[cell]++
			}
			var lr []string
			for _, v := range slices.Sorted(maps.Keys(lrs)) {
				lr = append(lr, fmt.Sprintf("%s: %d", v, lrs[v]))
			}
			fmt.Println(row, strings.Join(lr, ", "), "|")
		}

		// The comparisons of appendix B.6.
		head, rule = "| comparison |", "|---|"
		for _, f := range figs {
			head += " " + f.name + " [95%] |"
			rule += "---:|"
		}
		var rows []string
		compare := func(a, b string) {
			if runs[key{task, a}] == nil || runs[key{task, b}] == nil {
				return
			}
			row := fmt.Sprintf("| %s − %s |", a, b)
			for _, f := range figs {
				row += " " + pairedCell(runs[key{task, a}], runs[key{task, b}], f.get) + " |"
			}
			rows = append(rows, row)
		}
		for _, rn := range taskRuns[task] {
			if direct, ok := strings.CutSuffix(rn, "+wu"); ok {
				compare(rn, direct)
			}
		}
		for _, rn := range taskRuns[task] {
			if rest, ok := strings.CutPrefix(rn, "sqhinge:"); ok {
				compare(rn, "hinge:"+rest)
			}
		}
		if len(rows) > 0 {
			fmt.Printf("\n%s: paired differences\n\n%s\n%s\n%s\n", task, head, rule, strings.Join(rows, "\n"))
		}
	}
}

// pairedCell formats the paired difference of the figure get between the runs a and b over
// their common seeds as "d̄ [lo, hi]" with the 95% paired-t interval, * where it excludes 0;
// "–" with fewer than two common seeds.
func pairedCell(a, b map[uint64]mcRow, get func(mcRow) float64) string {
	var ds []float64
	for seed, r := range a {
		if c, ok := b[seed]; ok {
			ds = append(ds, get(r)-get(c))
		}
	}
	if len(ds) < 2 {
		return "–"
	}
	d, h := pairedT(ds)
	mark := ""
	if d-h > 0 || d+h < 0 {
		mark = " *"
	}
	return fmt.Sprintf("%+.4f [%+.4f, %+.4f]%s", d, d-h, d+h, mark)
}
