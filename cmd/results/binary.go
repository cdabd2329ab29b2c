package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/train"
)

// row is one line of a binary results log: a recipe's tuned test figures on one task,
// operating point and seed.
type row struct {
	Task    string  `json:"task"`
	Alpha   float64 `json:"alpha"`            // 0 with -recall
	Recall  float64 `json:"recall,omitempty"` // -recall
	Seed    uint64  `json:"seed"`
	Recipe  string  `json:"recipe"`
	LR      float64 `json:"lr"`
	Val     float64 `json:"val"`                  // the kept epoch's validation metric
	TPR     float64 `json:"tpr"`                  // test TPR at FPR α (with -recall: 0)
	FPR     float64 `json:"fpr_at_tpr,omitempty"` // with -recall: test FPR at TPR r
	AUC     float64 `json:"auc"`                  // test AUC
	PAUC    float64 `json:"pauc,omitempty"`       // test partial AUC up to α (McClish), without -recall
	Epoch   int     `json:"epoch"`
	Secs    float64 `json:"secs"`
	NegTest int     `json:"neg_test"` // negatives in the test part
}

// key names the run of r in its log.
func (r row) key() string {
	return fmt.Sprintf("%s/%g/%g/%d/%s", r.Task, r.Alpha, r.Recall, r.Seed, r.Recipe)
}

// binaryOptions are the flags of "results run".
type binaryOptions struct {
	panel, out, metric string
	tasks, recipes     []string
	points             []kdequantile.Config
	seeds              []uint64
	epochs             int
}

// parseBinary reads the flags of "results run".
func parseBinary(args []string, stderr io.Writer) (*binaryOptions, error) {
	o := &binaryOptions{}
	fs := flag.NewFlagSet("results run", flag.ContinueOnError)
	fs.StringVar(&o.panel, "panel", "", "folder of the development panel's CSV files, which the panel tasks read")
	tasks := fs.String("tasks", "tilted", "comma-separated tasks: so, churn, credit, spam, so-lin, churn-lin (the panel's), wdbc, tilted, logit, logit-lin")
	alphas := fs.String("alphas", "0.05", "comma-separated false-positive rates α: each run is selected on validation partial AUC up to α and scored by the test TPR at FPR α")
	recall := fs.Float64("recall", 0, "a true-positive rate r in place of -alphas: the KDE runs train the mirrored loss, select on validation TNR at TPR r and are scored by the test FPR at TPR r; 0 = off")
	seeds := fs.String("seeds", "1", "comma-separated seeds; each has its own split (or drawn parts), initialisation and batches")
	recipes := fs.String("recipes", "ce,kde,kde-plain", `comma-separated runs by their roctrain -losses names with options (train.Names); "+wu" trains a plain recipe after 5 epochs of cross-entropy`)
	fs.IntVar(&o.epochs, "epochs", 40, "epochs of each phase")
	fs.StringVar(&o.metric, "metric", "", `"auc" selects the learning rate and epoch on validation AUC instead of the operating point's metric`)
	fs.StringVar(&o.out, "out", "rows.jsonl", "the results log the runs are appended to (runs already in it are skipped)")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usageError{fmt.Errorf("run: unexpected arguments %q", fs.Args())}
	}
	var err error
	if o.seeds, err = seedList(*seeds); err != nil {
		return nil, err
	}
	if o.metric != "" && o.metric != "auc" {
		return nil, usageError{fmt.Errorf(`-metric: want "auc" or "", got %q`, o.metric)}
	}
	o.tasks, o.recipes = list(*tasks), list(*recipes)
	if *recall != 0 {
		o.points = []kdequantile.Config{{Recall: *recall}}
		return o, nil
	}
	for _, as := range list(*alphas) {
		alpha, err := strconv.ParseFloat(as, 64)
		if err != nil {
			return nil, usageError{fmt.Errorf("-alphas: %w", err)}
		}
		o.points = append(o.points, kdequantile.Config{Alpha: alpha})
	}
	return o, nil
}

// runBinary is "results run": every recipe on every task, operating point and seed, tuned by
// an experiment.Search: batches of 128, Adam with learning rates 0.001, 0.003 and 0.01, early
// stopping after 8 epochs without a better validation metric; the learning rate and epoch
// with the best validation metric are kept and scored on the test part (experiment.Measure).
func runBinary(ctx context.Context, args []string, _, stderr io.Writer) error {
	o, err := parseBinary(args, stderr)
	if err != nil {
		return err
	}
	all := binaryTasks(o.panel)
	for _, tn := range o.tasks {
		if _, ok := all[tn]; !ok {
			return usageError{fmt.Errorf("-tasks: unknown task %q", tn)}
		}
	}
	log, _, err := experiment.OpenLog(o.out, row.key)
	if err != nil {
		return err
	}
	prog := &experiment.Progress{W: stderr, Total: len(o.tasks) * len(o.points) * len(o.seeds) * len(o.recipes)}
	for _, tn := range o.tasks {
		for _, point := range o.points {
			g, err := o.grid(all[tn], point, log, prog, stderr)
			if err != nil {
				return err
			}
			if err := g.Run(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// grid is the grid of every recipe on task at one operating point over the seeds: a run
// already in log is skipped, and every run that finishes is measured and added to it.
func (o *binaryOptions) grid(task task, point kdequantile.Config, log *experiment.Log[row], prog *experiment.Progress, stderr io.Writer) (*experiment.Grid, error) {
	searches, err := o.searches(task, point, stderr)
	if err != nil {
		return nil, err
	}
	r := row{Task: task.name, Alpha: point.Alpha, Recall: point.Recall}
	var start time.Time
	return &experiment.Grid{Seeds: o.seeds, Split: task.split, Searches: searches, Hooks: experiment.GridHooks{
		Start: func(sp *experiment.Split, k int) bool {
			r.Seed, r.Recipe = sp.Seed, searches[k].Name
			if log.Has(r.key()) {
				prog.Skip()
				return false
			}
			prog.Start(fmt.Sprintf("%s, %s, seed %d: %s", task.name, pointName(point), sp.Seed, r.Recipe))
			start = time.Now()
			return true
		},
		Done: func(sp *experiment.Split, k int, best *experiment.Best, err error) error {
			prog.Finish()
			if err != nil {
				return fmt.Errorf("%s %s %+v seed %d: %w", task.name, searches[k].Name, point, sp.Seed, err)
			}
			if err := measured(&r, sp, best, point); err != nil {
				return err
			}
			r.Secs = time.Since(start).Seconds()
			return log.Add(r)
		},
	}}, nil
}

// pointName names an operating point in the progress lines: "α = 0.05" or "recall 0.9".
func pointName(point kdequantile.Config) string {
	if point.Recall != 0 {
		return fmt.Sprintf("recall %g", point.Recall)
	}
	return fmt.Sprintf("α = %g", point.Alpha)
}

// searches are the searches of the recipes on task at one operating point.
func (o *binaryOptions) searches(task task, point kdequantile.Config, stderr io.Writer) ([]*experiment.Search, error) {
	metric := train.PartialAUC(point.Alpha)
	if point.Recall != 0 {
		metric = train.TNRAtTPR(point.Recall)
	}
	if o.metric == "auc" {
		metric = train.AUC()
	}
	var searches []*experiment.Search
	for _, rn := range o.recipes {
		recipes, _, err := train.Names{Point: train.Point{Alpha: point.Alpha, Recall: point.Recall}, Warmup: 5, Epochs: o.epochs}.Parse(rn)
		if err != nil {
			return nil, usageError{fmt.Errorf("-recipes: %w", err)}
		}
		searches = append(searches, &experiment.Search{
			Name: rn, Recipes: recipes, LearningRates: []float64{0.001, 0.003, 0.01},
			Model:  nn.MLPConfig{Hidden: task.hidden},
			Config: train.Config{Epochs: o.epochs, Patience: 8, BatchSize: 128, Metric: metric, Progress: io.Discard},
			Hooks: experiment.Hooks{Done: func(c experiment.Candidate, h *train.History, err error) {
				if err != nil && (h == nil || h.Best < 0) {
					fmt.Fprintln(stderr, task.name, rn, err)
				}
			}},
		})
	}
	return searches, nil
}

// measured completes r with the run best kept on sp, measured on the test part at point.
func measured(r *row, sp *experiment.Split, best *experiment.Best, point kdequantile.Config) error {
	m, err := experiment.Measure(best.Model, sp, experiment.MeasureConfig{Alpha: point.Alpha, Recall: point.Recall})
	if err != nil {
		return err
	}
	r.FPR = 0
	if m.FPRAtTPR != nil {
		r.FPR = *m.FPRAtTPR
	}
	r.LR, r.Val, r.Epoch = best.LearningRate, best.History.Epochs[best.History.Best].Metric, best.Epoch()
	r.TPR, r.AUC, r.PAUC = m.TPR, m.AUC, m.PartialAUC
	r.NegTest = sp.Test.Rows - sp.Test.Positives()
	return nil
}
