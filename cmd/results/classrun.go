package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// runClasses is "results classes": every run on every multi-class or multi-label task and
// seed, tuned by an experiment.Search over the learning rates 0.001, 0.003 and 0.01 with Adam
// (aucm: PESG's 0.03, 0.1 and 0.3; aucm:lr=η: η), batches of 128 (holding every class), an MLP
// of 64 hidden units and k outputs, -epochs epochs after the warm-up, without early stopping;
// the learning rate and epoch (warm-up epochs included) with the best validation macro AUC are
// kept — one-vs-one (Hand and Till) for the ovo runs, one-vs-rest for the others, label-wise
// for multi-label — and the kept model's test macro one-vs-one and one-vs-rest AUC
// (multi-label: the macro label-wise AUC) are logged. The trainer measures an epoch of the
// softmax cross-entropy on the softmax probabilities of the outputs and every other epoch on
// the outputs (train.History.Probabilities); the test figures are taken on the same scores as
// the kept epoch's validation figure.
func runClasses(ctx context.Context, args []string, _, stderr io.Writer) error {
	o, err := parseClasses(args, stderr)
	if err != nil {
		return err
	}
	all := classTasks(o.panel)
	grids := make([]*experiment.Grid, len(o.tasks))
	log, _, err := experiment.OpenLog(o.out, classRow.key)
	if err != nil {
		return err
	}
	prog := &experiment.Progress{W: stderr}
	for k, tn := range o.tasks {
		task, ok := all[tn]
		if !ok {
			return usageError{fmt.Errorf("-tasks: unknown task %q", tn)}
		}
		if grids[k], err = o.grid(task, log, prog, stderr); err != nil {
			return err
		}
		prog.Total += len(o.seeds) * len(grids[k].Searches)
	}
	for _, g := range grids {
		if err := g.Run(ctx); err != nil {
			return err
		}
	}
	return nil
}

// grid is the grid of every run on task over the seeds: a run already in log is skipped, and
// every run that finishes is measured and added to it.
func (o *classOptions) grid(task classTask, log *experiment.Log[classRow], prog *experiment.Progress, stderr io.Writer) (*experiment.Grid, error) {
	searches, err := o.searches(task, stderr)
	if err != nil {
		return nil, err
	}
	r := classRow{Task: task.name}
	var start time.Time
	split := func(seed uint64) (*experiment.Split, error) {
		sp, err := task.split(seed)
		if err != nil {
			return nil, err
		}
		for _, s := range searches {
			s.Model.Outputs = sp.Train.Task().K()
		}
		return sp, nil
	}
	return &experiment.Grid{Seeds: o.seeds, Split: split, Searches: searches, Hooks: experiment.GridHooks{
		Start: func(sp *experiment.Split, k int) bool {
			r.Seed, r.Run = sp.Seed, searches[k].Name
			if log.Has(r.key()) {
				prog.Skip()
				return false
			}
			prog.Start(fmt.Sprintf("%s seed %d: %s", task.name, sp.Seed, r.Run))
			start = time.Now()
			return true
		},
		Done: func(sp *experiment.Split, k int, best *experiment.Best, err error) error {
			prog.Finish()
			if err != nil {
				return fmt.Errorf("%s %s seed %d: %w", task.name, r.Run, sp.Seed, err)
			}
			r.LR, r.Val, r.Epoch = best.LearningRate, best.History.Epochs[best.History.Best].Metric, best.Epoch()
			if r.OvO, r.OvR, err = classAUC(best.Model, sp.Test, best.History.Probabilities); err != nil {
				return fmt.Errorf("%s %s seed %d: %w", task.name, r.Run, sp.Seed, err)
			}
			r.Secs = time.Since(start).Seconds()
			return log.Add(r)
		},
	}}, nil
}

// searches are the searches of the runs on task.
func (o *classOptions) searches(task classTask, stderr io.Writer) ([]*experiment.Search, error) {
	runs := o.runs
	if runs == nil {
		runs = defaultClassRuns(task.multilabel)
	}
	var searches []*experiment.Search
	for _, rn := range runs {
		recipe, metric, err := classRun(rn, task.multilabel)
		if err != nil {
			return nil, usageError{fmt.Errorf("-runs: %w", err)}
		}
		lrs, err := classRates(rn)
		if err != nil {
			return nil, usageError{fmt.Errorf("-runs: %w", err)}
		}
		searches = append(searches, &experiment.Search{
			Name: rn, Recipes: []train.Recipe{recipe}, LearningRates: lrs,
			Model:  nn.MLPConfig{Hidden: []int{64}},
			Config: train.Config{Epochs: o.epochs, BatchSize: 128, Metric: metric, Progress: io.Discard},
			Hooks: experiment.Hooks{Done: func(c experiment.Candidate, h *train.History, err error) {
				if err != nil {
					fmt.Fprintln(stderr, task.name, rn, c.LearningRate, err)
				}
			}},
		})
	}
	return searches, nil
}
