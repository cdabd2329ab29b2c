// Command corrective runs the corrective-power experiments of docs/results.md: cross-entropy
// and the five pairwise AUC surrogates, each trained directly and after a cross-entropy
// warm-up, on several data sets and seeds, with the diagnostics of package diagnose
// recorded every epoch. It tests four claims of Chen et al., "Pairwise AUC Optimization Needs
// Corrective Power" (arXiv 2610.21743) and prints the tables of docs/results.md.
//
// Usage:
//
//	corrective -panel /path/to/panel -out results/corrective
//
// Flags:
//
//	-panel dir     folder with the development panel's CSVs (spambase.csv, …); "" skips them
//	-datasets list comma-separated data sets to run: panel file names without .csv, "wdbc"
//	               (embedded) and "teacher" (the hard synthetic task of data.Teacher: 5000
//	               rows, 20 features, a random-initialised MLP teacher, 5% positives, 10% of
//	               them swapped with negatives); default: all
//	-seeds n       seeds 1…n; each has its own split, initialisation and batches (default 5)
//	-epochs n      epochs of each run's loss (default 20)
//	-warmup n      cross-entropy epochs before the "+wu" runs (default 5)
//	-lr list       Adam learning rates tried per run; validation AUC picks one (default 0.001,0.01)
//	-out dir       where runs.jsonl, summary.md and trajectories.png go (default results/corrective)
//	-plot name     data set whose trajectories are drawn (default teacher)
//	-intervene     also train each surrogate directly under the trainer's diagnose–intervene–recheck
//	               rule (train.Intervene with its defaults): runs named "<loss>+iv"
//	-summarise     train nothing: recompute the summary and the plot from -out's runs.jsonl
//
// Every run appends one JSON line to runs.jsonl (an experiment.Log) as soon as it finishes, and
// runs already in the file are skipped, so an interrupted experiment resumes where it stopped.
// The summary is computed from runs.jsonl alone (-summarise only recomputes it).
//
// Each run: the data are split 60/20/20 stratified by the seed and standardised on the
// training part; an MLP (one hidden layer of 32 ReLU units) initialised by the seed trains with
// batches of 128, and the learning rate and epoch with the best validation AUC are kept; the
// test AUC is that model's. Diagnostics (train.Diagnose, every epoch, M = 1) are those of the
// chosen learning rate's run. For the pairwise runs the command also fits the batch-size slope
// of the severe-direction noise (diagnose.BatchSlope, B = 4…64, 300 batches per size) at two
// checkpoints: after the first and after the last main-phase epoch.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

type options struct {
	panel, out, plotData string
	datasets             []string
	seeds, epochs        int
	warmup               int
	lrs                  []float64
	summariseOnly        bool
	intervene            bool
}

// panelFiles are the development panel's data sets (README of the panel folder).
var panelFiles = []string{"spambase", "stackoverflow_remote", "credit_scoring", "telecom_churn"}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o, err := parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "corrective:", err)
		os.Exit(2)
	}
	if err := run(ctx, o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "corrective:", err)
		os.Exit(1)
	}
}

func parse(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("corrective", flag.ContinueOnError)
	fs.StringVar(&o.panel, "panel", "", "folder of the development panel's CSVs; \"\" skips them")
	ds := fs.String("datasets", "", "comma-separated data sets (panel names, wdbc, teacher); default all")
	fs.IntVar(&o.seeds, "seeds", 5, "seeds 1…n")
	fs.IntVar(&o.epochs, "epochs", 20, "epochs of each run's loss")
	fs.IntVar(&o.warmup, "warmup", 5, "cross-entropy epochs before the +wu runs")
	lrs := fs.String("lr", "0.001,0.01", "learning rates tried per run")
	fs.StringVar(&o.out, "out", "results/corrective", "output folder")
	fs.StringVar(&o.plotData, "plot", "teacher", "data set whose trajectories are drawn")
	fs.BoolVar(&o.intervene, "intervene", false, "also run each surrogate directly with train.Intervene (the default rule): runs named <loss>+iv")
	fs.BoolVar(&o.summariseOnly, "summarise", false, "only recompute the summary and plot from runs.jsonl")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if o.seeds < 1 || o.epochs < 1 || o.warmup < 1 {
		return nil, errors.New("need -seeds, -epochs and -warmup ≥ 1")
	}
	for _, s := range strings.Split(*lrs, ",") {
		lr, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || !(lr > 0) {
			return nil, fmt.Errorf("-lr: bad learning rate %q", s)
		}
		o.lrs = append(o.lrs, lr)
	}
	if *ds == "" {
		if o.panel != "" {
			o.datasets = append(o.datasets, panelFiles...)
		}
		o.datasets = append(o.datasets, "wdbc", "teacher")
	} else {
		o.datasets = strings.Split(*ds, ",")
	}
	return o, nil
}

// spec is one training run: a loss, directly or after a warm-up.
type spec struct {
	loss      string // "ce" or a surrogate name
	warmup    int
	intervene bool // direct, with the trainer's diagnose–intervene–recheck rule
}

func (s spec) name() string {
	switch {
	case s.warmup > 0:
		return s.loss + "+wu"
	case s.intervene:
		return s.loss + "+iv"
	}
	return s.loss
}

// specs lists the runs: cross-entropy, then each surrogate directly and after the warm-up,
// and with -intervene directly under the intervention rule.
func specs(o *options) []spec {
	out := []spec{{loss: "ce"}}
	for _, s := range pairwise.Surrogates() {
		out = append(out, spec{loss: s.String()}, spec{loss: s.String(), warmup: o.warmup})
		if o.intervene {
			out = append(out, spec{loss: s.String(), intervene: true})
		}
	}
	return out
}

// record is one line of runs.jsonl.
type record struct {
	Dataset string `json:"dataset"`
	Run     string `json:"run"`
	Loss    string `json:"loss"`
	Warmup  int    `json:"warmup"`
	Seed    uint64 `json:"seed"`
	// Epochs and LRs are the -epochs and -lr the run was made with (0 and none in files
	// written before they were recorded); a resumed experiment must use the same.
	Epochs    int       `json:"epochs,omitempty"`
	LRs       []float64 `json:"lrs,omitempty"`
	LR        float64   `json:"lr"`
	TestAUC   float64   `json:"test_auc"`
	BestEpoch int       `json:"best_epoch"`
	Diagnoses []diag    `json:"diagnoses"`
	// Interventions counts the intervention decisions of a "+iv" run.
	Interventions int          `json:"interventions,omitempty"`
	Checkpoints   []checkpoint `json:"checkpoints,omitempty"`
}

func (r record) key() string { return fmt.Sprintf("%s/%s/%d", r.Dataset, r.Run, r.Seed) }

type diag struct {
	Epoch       int      `json:"epoch"`
	Phase       string   `json:"phase"`
	Misranking  float64  `json:"misranking"`
	SevereMass  float64  `json:"severe_mass"`
	CEBound     float64  `json:"ce_bound"`
	Drift       *float64 `json:"drift"`
	FirstOrder  *float64 `json:"first_order_share"`
	SeverePairs int      `json:"severe_pairs"`
}

// checkpoint is the batch-size scaling of the severe-direction noise at one epoch.
type checkpoint struct {
	Epoch       int     `json:"epoch"`
	SevereMass  float64 `json:"severe_mass"`
	Drift       float64 `json:"drift"`
	DriftZ      float64 `json:"drift_z"`           // drift / sqrt(BatchVariance(16, 16))
	FirstOrder  float64 `json:"first_order_share"` // at B₊ = B₋ = 16
	SplitSlope  float64 `json:"split_slope"`       // least-squares slope of log BatchVariance(B, B), B = 4…64
	Slope       float64 `json:"slope"`             // diagnose.BatchSlope
	SlopeStderr float64 `json:"slope_stderr"`
}

func ptr(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func run(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(o.out, "runs.jsonl")
	log, done, err := experiment.OpenLog(path, record.key)
	if err != nil {
		return err
	}
	if !o.summariseOnly {
		if err := trainAll(ctx, o, log, done, stderr); err != nil {
			return err
		}
		if _, done, err = experiment.OpenLog(path, record.key); err != nil {
			return err
		}
	}
	sum := summarise(o, done)
	if err := os.WriteFile(filepath.Join(o.out, "summary.md"), []byte(sum), 0o644); err != nil {
		return err
	}
	fmt.Fprint(stdout, sum)
	return plotTrajectories(filepath.Join(o.out, "trajectories.png"), o.plotData, done)
}

func loadDataset(o *options, name string) (*data.Dataset, error) {
	switch name {
	case "wdbc":
		return data.WDBC()
	case "teacher":
		return data.Teacher(data.TeacherConfig{Rows: 5000, Cols: 20, Positive: 0.05, Noise: 0.1, Seed: 1})
	}
	if o.panel == "" {
		return nil, fmt.Errorf("data set %q needs -panel", name)
	}
	return data.LoadCSV(filepath.Join(o.panel, name+".csv"), data.CSVConfig{})
}

// trainAll trains every run of every data set and seed that log does not hold yet, appending
// each to log as it finishes. done are the runs on file, which must have been made with o's
// -epochs and -lr.
func trainAll(ctx context.Context, o *options, log *experiment.Log[record], done []record, stderr io.Writer) error {
	for _, r := range done {
		if r.Epochs != 0 && (r.Epochs != o.epochs || !slices.Equal(r.LRs, o.lrs)) {
			return fmt.Errorf("%s: run %s was made with -epochs %d -lr %v, not %d and %v: resume with its flags or use another -out",
				filepath.Join(o.out, "runs.jsonl"), r.key(), r.Epochs, r.LRs, o.epochs, o.lrs)
		}
	}
	all := specs(o)
	t := &trainer{o: o, log: log, runs: all, searches: make([]*experiment.Search, len(all)),
		prog: &experiment.Progress{W: stderr, Total: len(o.datasets) * o.seeds * len(all)}}
	for k, s := range all {
		var err error
		if t.searches[k], err = o.search(s, &t.sets, &t.cps); err != nil {
			return err
		}
	}
	seeds := make([]uint64, o.seeds)
	for k := range seeds {
		seeds[k] = uint64(k + 1)
	}
	for _, name := range o.datasets {
		ds, err := loadDataset(o, name)
		if err != nil {
			return err
		}
		g := &experiment.Grid{Seeds: seeds, Searches: t.searches, Hooks: t.hooks(name),
			Split: func(seed uint64) (*experiment.Split, error) { return experiment.NewSplit(ds, seed) }}
		if err := g.Run(ctx); err != nil {
			return err
		}
	}
	return nil
}

// trainer is the state of trainAll across its grids, one per data set.
type trainer struct {
	o        *options
	log      *experiment.Log[record]
	runs     []spec
	searches []*experiment.Search // one per run
	prog     *experiment.Progress
	sets     diagnosticSets // the seed's, which the checkpoints measure along
	rec      record         // the run being trained
	cps      [][]checkpoint // its checkpoints, one list per candidate
}

// hooks are the grid hooks of data set name: a run already on file is skipped, and every run
// that finishes is appended to the log.
func (t *trainer) hooks(name string) experiment.GridHooks {
	return experiment.GridHooks{
		Split: func(sp *experiment.Split) error {
			// The trainer's own selection batch and logging pool for this seed, so that the
			// checkpoints measure along the direction History.Diagnoses uses.
			var err error
			t.sets.seed = sp.Seed
			t.sets.sel, t.sets.pool, err = train.DiagnosticSets(sp.Train, train.Diagnose{Seed: sp.Seed})
			return err
		},
		Start: func(sp *experiment.Split, k int) bool {
			s := t.runs[k]
			t.rec = record{Dataset: name, Run: s.name(), Loss: s.loss, Warmup: s.warmup, Seed: sp.Seed, Epochs: t.o.epochs, LRs: t.o.lrs}
			if t.log.Has(t.rec.key()) {
				t.prog.Skip()
				return false
			}
			t.prog.Start(fmt.Sprintf("%s seed %d %s", name, sp.Seed, s.name()))
			t.cps = make([][]checkpoint, len(t.o.lrs))
			return true
		},
		Done: func(sp *experiment.Split, _ int, best *experiment.Best, err error) error {
			if err == nil {
				err = fill(&t.rec, sp, best, t.cps[best.Index])
			}
			if err != nil {
				return fmt.Errorf("%s: %w", t.rec.key(), err)
			}
			if err := t.log.Add(t.rec); err != nil {
				return err
			}
			t.prog.Finish()
			return nil
		},
	}
}

// diagnosticSets are one seed's selection batch and logging pool of the checkpoints.
type diagnosticSets struct {
	seed      uint64
	sel, pool *data.Dataset
}

// search is the learning-rate search of run s: the model, batches and diagnostics of every
// run, and for the pairwise runs the checkpoints of each candidate, which it appends to
// (*cps)[candidate] measuring along sets.
func (o *options) search(s spec, sets *diagnosticSets, cps *[][]checkpoint) (*experiment.Search, error) {
	var loss train.Loss = train.CrossEntropy{}
	var pcfg pairwise.Config
	if s.loss != "ce" {
		sur, err := pairwise.ParseSurrogate(s.loss)
		if err != nil {
			return nil, err
		}
		pcfg = pairwise.Config{Surrogate: sur}
		loss = train.Pairwise{Config: pcfg}
	}
	var intervene *train.Intervene
	if s.intervene {
		intervene = &train.Intervene{}
	}
	checkpoints := func(c experiment.Candidate, m nn.Model) []train.Hook {
		mainEpochs := 0 // intervention epochs come between main ones and are not counted
		return []train.Hook{{Name: "checkpoints", OnEpoch: func(e train.Epoch) error {
			if e.Stage != train.Main {
				return nil
			}
			mainEpochs++
			if s.loss == "ce" || (mainEpochs != 1 && mainEpochs != o.epochs) {
				return nil
			}
			cp, err := measureCheckpoint(m, sets, pcfg, e.Index)
			if errors.Is(err, diagnose.ErrNoSevere) || errors.Is(err, diagnose.ErrDegenerate) {
				return nil
			}
			if err == nil {
				(*cps)[c.Index] = append((*cps)[c.Index], cp)
			}
			return err
		}}}
	}
	return &experiment.Search{
		Name:          s.name(),
		Recipes:       []train.Recipe{train.WithWarmup(s.warmup, loss)},
		LearningRates: o.lrs,
		Model:         nn.MLPConfig{Hidden: []int{32}},
		Config: train.Config{Epochs: o.epochs, BatchSize: 128, Progress: io.Discard,
			Diagnose: &train.Diagnose{Surrogate: pcfg, Intervene: intervene}},
		Hooks: experiment.Hooks{Start: checkpoints},
	}, nil
}

// fill completes rec with the run search kept: its learning rate, epoch, diagnostics and
// checkpoints, and its test AUC.
func fill(rec *record, sp *experiment.Split, best *experiment.Best, cps []checkpoint) error {
	rec.LR, rec.BestEpoch, rec.Checkpoints = best.LearningRate, best.Epoch(), cps
	for _, d := range best.History.Diagnoses {
		rec.Diagnoses = append(rec.Diagnoses, diag{Epoch: d.Epoch, Phase: d.Stage.String(),
			Misranking: d.Misranking, SevereMass: d.SevereMass, CEBound: d.CEBound,
			Drift: ptr(d.Drift), FirstOrder: ptr(d.FirstOrderShare), SeverePairs: d.SeverePairs})
		if d.Decision == train.Intervened {
			rec.Interventions++
		}
	}
	m, err := experiment.Measure(best.Model, sp, experiment.MeasureConfig{})
	if err != nil {
		return err
	}
	rec.TestAUC = m.AUC
	return nil
}

// measureCheckpoint fits the batch-size scaling of the severe-direction noise of model m.
func measureCheckpoint(m nn.Model, sp *diagnosticSets, cfg pairwise.Config, epoch int) (checkpoint, error) {
	const sev = 1.0
	var binary diagnose.Comparisons // the zero Comparisons: the one binary comparison
	dir, err := binary.SevereDirection(m, sp.sel.X, sp.sel.Y, cfg, sev)
	if err != nil {
		return checkpoint{}, err
	}
	p, err := diagnose.ScoreTangents(m, sp.pool.X, sp.pool.Rows, dir.V)
	if err != nil {
		return checkpoint{}, err
	}
	scores, err := nn.Scores(m, sp.pool.X, sp.pool.Rows)
	if err != nil {
		return checkpoint{}, err
	}
	splits, err := binary.Project(scores, sp.pool.Y, p, cfg)
	if err != nil {
		return checkpoint{}, err
	}
	split := splits[0].Split
	_, severe, err := binary.SevereMass(scores, sp.pool.Y, sev)
	if err != nil {
		return checkpoint{}, err
	}
	var fp, fn, pp, pn []float64
	for i, y := range sp.pool.Y {
		if y == 1 {
			fp, pp = append(fp, scores[i]), append(pp, p[i])
		} else {
			fn, pn = append(fn, scores[i]), append(pn, p[i])
		}
	}
	h := func(i, j int) float64 {
		return pairwise.Weight(cfg.Surrogate, cfg.Margin, fp[i]-fn[j]) * (pp[i] - pn[j])
	}
	slope, se, err := diagnose.BatchSlope(len(fp), len(fn), h, nil, 300, sp.seed)
	if err != nil {
		return checkpoint{}, err
	}
	var xs, ys []float64
	for _, b := range diagnose.DefaultSizes {
		xs, ys = append(xs, math.Log(float64(b))), append(ys, math.Log(split.BatchVariance(b, b)))
	}
	_, splitSlope := stat.LinearRegression(xs, ys, nil, false)
	return checkpoint{
		Epoch: epoch, SevereMass: severe, Drift: split.Mean,
		DriftZ:     split.Mean / math.Sqrt(split.BatchVariance(16, 16)),
		FirstOrder: split.FirstOrderShare(16, 16), SplitSlope: splitSlope,
		Slope: slope, SlopeStderr: se,
	}, nil
}
