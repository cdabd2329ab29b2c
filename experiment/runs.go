package experiment

import (
	"context"
	"fmt"
)

// Compare runs the grid g and measures what each search kept on each seed: search k's result on
// split sp is its best candidate measured by [Measure] (cfg, with the split's seed as the
// bootstrap's) — the AUC as DeLong's estimate with its interval, the deployed point, the
// learning rate, epoch, phases and diagnostics — completed by finish (which names the result
// and may save the model; nil for nothing), then compared with search 0's result on the same
// seed and test rows: DeLong's paired AUC test (TestAUCVsFirst) and, with cfg.Alpha and
// cfg.Boot, the paired bootstrap of the partial AUC, the TPR at FPR α, the deployed TPR and
// with cfg.Recall the FPR at that TPR (TestVsFirst). On multi-class and multi-label data the
// result holds each class's one-vs-rest figures and their macro means (Result.Classes), read on
// the softmax probabilities of a model whose kept weights the softmax cross-entropy trained,
// and its comparison with search 0's is the paired bootstrap of the macro one-vs-rest AUC
// alone, the rows drawn within each class. perRun[k] lists search k's results in the order of
// the seeds; only search 0's keep Test and TestScores, which the comparisons read.
//
// With cfg.Confidence, each seed's split is checked before any search runs on it: a
// validation part with too few negatives for the guarantee (with cfg.Recall, positives; on
// multi-class and multi-label data, of any class one-vs-rest) stops the grid with
// metrics.ErrTooFewNegatives (ErrTooFewPositives), naming how many there are and how many
// the guarantee needs.
//
// A search that fails on a seed, or whose measurement, finish or comparison fails, is left
// out of that seed and its error, naming the search and the seed, is one of failed; the
// others are kept. g's own Done hook, if any, is called first, and its error stops the
// grid. err is the error that stopped the grid: one of Split, of a hook, or ctx's.
func Compare(ctx context.Context, g *Grid, cfg MeasureConfig,
	finish func(sp *Split, k int, best *Best, r *Result) error) (perRun [][]Result, failed []error, err error) {
	perRun = make([][]Result, len(g.Searches))
	var first *Result // search 0's result on the current seed, when it succeeded
	grid := *g
	split := g.Hooks.Split
	grid.Hooks.Split = func(sp *Split) error {
		if err := cfg.admits(sp); err != nil {
			return err
		}
		if split != nil {
			return split(sp)
		}
		return nil
	}
	done := g.Hooks.Done
	grid.Hooks.Done = func(sp *Split, k int, best *Best, err error) error {
		if done != nil {
			if err := done(sp, k, best, err); err != nil {
				return err
			}
		}
		if k == 0 {
			first = nil
		}
		var r Result
		if err == nil {
			r, err = measure(sp, k, best, cfg, finish)
		}
		if err == nil && k > 0 && first != nil && first.Seed == sp.Seed {
			c := cfg
			c.Seed = sp.Seed
			err = compareWithFirst(&r, first, sp.Test.Y, c)
		}
		if err != nil {
			failed = append(failed, fmt.Errorf("run %s, seed %d: %w", g.Searches[k].Name, sp.Seed, err))
			return nil
		}
		if k == 0 {
			first = &r
		}
		perRun[k] = append(perRun[k], r)
		last := &perRun[k][len(perRun[k])-1]
		last.Test, last.TestScores = nil, nil // first keeps its own
		if last.Classes != nil {
			c := *last.Classes
			c.TestScores, last.Classes = nil, &c
		}
		return nil
	}
	return perRun, failed, grid.Run(ctx)
}

// measure is search k's result on sp, measured by Measure, or measureClasses on
// multi-class and multi-label data, and completed by finish.
func measure(sp *Split, k int, best *Best, cfg MeasureConfig, finish func(*Split, int, *Best, *Result) error) (Result, error) {
	cfg.Seed = sp.Seed
	var r Result
	if sp.Test.Classes != nil || sp.Test.Labels != nil {
		m, err := measureClasses(best.Model, sp, cfg, usesProbabilities(best, sp))
		if err != nil {
			return Result{}, err
		}
		r = newClassResult(best, m)
	} else {
		m, err := Measure(best.Model, sp, cfg)
		if err != nil {
			return Result{}, err
		}
		r = newResult(best, m)
	}
	r.Seed, r.Alpha, r.Recall, r.DeployedConfidence = sp.Seed, cfg.Alpha, cfg.Recall, cfg.Confidence
	if finish != nil {
		return r, finish(sp, k, best, &r)
	}
	return r, nil
}
