package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
	"github.com/rocops/rocops/train/data"
	"github.com/rocops/rocops/train/metrics"
)

// options are the command's flags.
type options struct {
	data, label  string
	alpha        float64
	losses       string
	warmup       int
	epochs       int
	hidden       string
	lrs          string
	batch        int
	seed         uint64
	plot, out    string
	json         bool
	progress     io.Writer // nil: the trainer's default (standard error when it is a terminal)
	hiddenSizes  []int
	learningRate []float64
	runs         []runSpec
}

// runSpec is one training run: a loss, possibly after a cross-entropy warm-up.
type runSpec struct {
	name   string // as given in -losses, such as "sqhinge+wu"
	loss   train.Loss
	warmup int
}

// result is one run's outcome; the tagged fields are the JSON output.
type result struct {
	Loss         string  `json:"loss"`
	WarmupEpochs int     `json:"warmup_epochs"`
	Alpha        float64 `json:"alpha"`
	TestAUC      float64 `json:"test_auc"`
	TestPAUC     float64 `json:"test_pauc"`
	TestTPR      float64 `json:"test_tpr_at_fpr"`
	TrainSeconds float64 `json:"train_seconds"`
	LearningRate float64 `json:"learning_rate"`
	BestEpoch    int     `json:"best_epoch"`

	name     string
	fpr, tpr []float64
}

// run is the whole command; it returns the exit status (0 success, 1 failure, 2 bad usage).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opt, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "roctrain:", err)
		return 2
	}
	if err := experiment(ctx, opt, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "roctrain:", err)
		return 1
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	opt := &options{}
	fs := flag.NewFlagSet("roctrain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opt.data, "data", "", "training data CSV (header row, numeric features, 0/1 label); default: the embedded WDBC data")
	fs.StringVar(&opt.label, "label", "", "label column; default: the last column")
	fs.Float64Var(&opt.alpha, "alpha", 0.1, "target false-positive rate, 0 < alpha < 1")
	fs.StringVar(&opt.losses, "losses", "ce,kde,sqhinge,sqhinge+wu", "comma-separated runs: "+strings.Join(train.LossNames, ", ")+`; a "+wu" suffix adds a cross-entropy warm-up`)
	fs.IntVar(&opt.warmup, "warmup", 10, `cross-entropy warm-up epochs of the "+wu" runs`)
	fs.IntVar(&opt.epochs, "epochs", 60, "epochs of each run's loss")
	fs.StringVar(&opt.hidden, "hidden", "64", `hidden layer sizes of the MLP, comma-separated; "" for a linear scorer`)
	fs.StringVar(&opt.lrs, "lr", "0.001,0.003,0.01", "learning rates tried per run (Adam); validation picks one")
	fs.IntVar(&opt.batch, "batch", 128, "rows per step")
	fs.Uint64Var(&opt.seed, "seed", 1, "seed of the split, the initialisation and the batches")
	fs.StringVar(&opt.plot, "plot", "roc.png", `PNG of the ROC curves; "" for none`)
	fs.StringVar(&opt.out, "out", "", "directory to save each run's best model in, as <run>.params")
	fs.BoolVar(&opt.json, "json", false, "print one JSON object with the results, and nothing else, on stdout")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return opt, opt.check()
}

// check validates the flags and fills the parsed fields.
func (o *options) check() error {
	if !(o.alpha > 0 && o.alpha < 1) {
		return fmt.Errorf("-alpha must be in (0, 1), got %v", o.alpha)
	}
	if o.warmup < 0 || o.epochs < 1 || o.batch < 2 {
		return fmt.Errorf("need -warmup ≥ 0, -epochs ≥ 1 and -batch ≥ 2")
	}
	var err error
	if o.hiddenSizes, err = parseList(o.hidden, strconv.Atoi); err != nil {
		return fmt.Errorf("-hidden: %w", err)
	}
	if o.learningRate, err = parseList(o.lrs, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }); err != nil {
		return fmt.Errorf("-lr: %w", err)
	}
	if len(o.learningRate) == 0 {
		return errors.New("-lr: need at least one learning rate")
	}
	for _, lr := range o.learningRate {
		if !(lr > 0) || math.IsInf(lr, 0) {
			return fmt.Errorf("-lr: bad learning rate %v", lr)
		}
	}
	names, err := parseList(o.losses, func(s string) (string, error) { return s, nil })
	if err != nil || len(names) == 0 {
		return errors.New("-losses: need at least one loss")
	}
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			return fmt.Errorf("-losses: %q is listed twice", name)
		}
		seen[name] = true
		spec := runSpec{name: name}
		base, wu := strings.CutSuffix(name, "+wu")
		if wu {
			spec.warmup = o.warmup
		}
		if spec.loss, err = train.ParseLoss(base, o.alpha); err != nil {
			return fmt.Errorf("-losses: %w", err)
		}
		o.runs = append(o.runs, spec)
	}
	return nil
}

// parseList splits a comma-separated list and parses its items; "" is the empty list.
func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("bad item %q", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// split is the prepared data: standardised training, validation and test parts.
type split struct {
	name             string
	all              *data.Dataset
	train, val, test *data.Dataset
}

func loadData(o *options) (*split, error) {
	var (
		ds   *data.Dataset
		name string
		err  error
	)
	if o.data == "" {
		ds, err = data.WDBC()
		name = "embedded WDBC"
	} else {
		ds, err = data.LoadCSV(o.data, data.CSVConfig{Label: o.label})
		name = o.data
	}
	if err != nil {
		return nil, err
	}
	s := &split{name: name, all: ds}
	tr, val, te, err := data.Split(ds, data.SplitConfig{Seed: o.seed})
	if err != nil {
		return nil, err
	}
	st, err := data.FitStandardizer(tr)
	if err != nil {
		return nil, err
	}
	for _, p := range []struct {
		dst **data.Dataset
		src *data.Dataset
	}{{&s.train, tr}, {&s.val, val}, {&s.test, te}} {
		if *p.dst, err = st.Apply(p.src); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// experiment trains every run and reports the results. A run that fails is named on stderr
// and the others are still reported; the command then exits with status 1. An interrupt
// stops training and reports the runs finished before it.
func experiment(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	sp, err := loadData(o)
	if err != nil {
		return err
	}
	if o.out != "" {
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return err
		}
	}
	var (
		results []result
		failed  []error
	)
	for _, spec := range o.runs {
		if !o.json {
			fmt.Fprintf(stderr, "training %s…\n", spec.name)
		}
		r, err := trainRun(ctx, o, sp, spec, stderr)
		if err != nil {
			failed = append(failed, fmt.Errorf("run %s: %w", spec.name, err))
			if ctx.Err() != nil {
				break
			}
			continue
		}
		results = append(results, r)
	}
	if len(results) > 0 {
		if err := report(o, sp, results, stdout); err != nil {
			failed = append(failed, err)
		}
	}
	return errors.Join(failed...)
}

// report prints the table or the JSON object, and draws the plot.
func report(o *options, sp *split, results []result, stdout io.Writer) error {
	if o.plot != "" {
		if err := plotROC(o.plot, results, o.alpha); err != nil {
			return err
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Results []result `json:"results"`
		}{results})
	}
	printTable(stdout, o, sp, results)
	return nil
}

// trainRun trains spec once per learning rate and keeps the model with the best validation
// partial AUC up to α. A learning rate whose training fails part-way still competes with the
// weights of its best epoch (the trainer restores them); its error is reported on stderr.
func trainRun(ctx context.Context, o *options, sp *split, spec runSpec, stderr io.Writer) (result, error) {
	start := time.Now()
	var (
		best      nn.Model
		bestHist  *train.History
		bestLR    float64
		bestScore = math.Inf(-1)
		errs      []error
	)
	for _, lr := range o.learningRate {
		m, err := nn.NewMLP(nn.MLPConfig{In: sp.train.Cols, Hidden: o.hiddenSizes, Seed: o.seed})
		if err != nil {
			return result{}, err
		}
		tr, err := train.New(m, train.Config{
			Loss:         spec.loss,
			WarmupEpochs: spec.warmup,
			Epochs:       o.epochs,
			BatchSize:    o.batch,
			LearningRate: lr,
			Metric:       train.PartialAUC(o.alpha),
			Seed:         o.seed,
			Progress:     o.progress,
		})
		if err != nil {
			return result{}, err
		}
		hist, err := tr.Fit(ctx, sp.train, sp.val)
		if err != nil {
			if ctx.Err() != nil {
				return result{}, err
			}
			err = fmt.Errorf("learning rate %g: %w", lr, err)
			errs = append(errs, err)
			if hist == nil || hist.Best < 0 {
				fmt.Fprintf(stderr, "roctrain: %s: %v (no epoch finished; skipped)\n", spec.name, err)
				continue
			}
			fmt.Fprintf(stderr, "roctrain: %s: %v (keeping its best epoch, %d)\n", spec.name, err, hist.Epochs[hist.Best].Index)
		}
		if score := hist.Epochs[hist.Best].Metric; score > bestScore {
			best, bestHist, bestLR, bestScore = m, hist, lr, score
		}
	}
	if best == nil {
		return result{}, errors.Join(errs...)
	}
	seconds := time.Since(start).Seconds()
	r := result{
		Loss: strings.TrimSuffix(spec.name, "+wu"), WarmupEpochs: spec.warmup, Alpha: o.alpha,
		TrainSeconds: seconds, LearningRate: bestLR, BestEpoch: bestHist.Epochs[bestHist.Best].Index,
		name: spec.name,
	}
	scores, err := nn.Scores(best, sp.test.X, sp.test.Rows)
	if err != nil {
		return result{}, err
	}
	y := sp.test.Y
	if r.TestAUC, err = metrics.AUC(scores, y); err != nil {
		return result{}, err
	}
	if r.TestPAUC, err = metrics.PartialAUC(scores, y, o.alpha); err != nil {
		return result{}, err
	}
	if r.TestTPR, err = metrics.TPRAtFPR(scores, y, o.alpha); err != nil {
		return result{}, err
	}
	if r.fpr, r.tpr, _, err = metrics.ROC(scores, y); err != nil {
		return result{}, err
	}
	if o.out != "" {
		if err := nn.Save(filepath.Join(o.out, spec.name+".params"), best); err != nil {
			return result{}, err
		}
	}
	return r, nil
}

func printTable(w io.Writer, o *options, sp *split, results []result) {
	arch := "linear scorer"
	if len(o.hiddenSizes) > 0 {
		arch = fmt.Sprintf("MLP %d→%s→1", sp.train.Cols, joinInts(o.hiddenSizes, "→"))
	}
	fmt.Fprintf(w, "data: %s, %d rows (%d positive), %d features; split %d/%d/%d (train/validation/test)\n",
		sp.name, sp.all.Rows, sp.all.Positives(), sp.all.Cols, sp.train.Rows, sp.val.Rows, sp.test.Rows)
	fmt.Fprintf(w, "model: %s; α = %g; the learning rate and epoch of each run maximise validation pAUC@α\n\n", arch, o.alpha)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "loss\twarm-up\tlr\ttest AUC\ttest pAUC@%g\ttest TPR@FPR=%g\ttrain s\t\n", o.alpha, o.alpha)
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%g\t%.4f\t%.4f\t%.4f\t%.1f\t\n", r.Loss, r.WarmupEpochs, r.LearningRate, r.TestAUC, r.TestPAUC, r.TestTPR, r.TrainSeconds)
	}
	tw.Flush()
	if o.plot != "" {
		fmt.Fprintf(w, "\nROC curves: %s\n", o.plot)
	}
	if o.out != "" {
		fmt.Fprintf(w, "models: %s\n", o.out)
	}
	if o.data == "" {
		fmt.Fprintf(w, "\ndata credit: %s\n", data.WDBCCredit)
	}
}

func joinInts(xs []int, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}
