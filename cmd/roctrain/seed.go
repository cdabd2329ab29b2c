package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/experiment"
)

// seedResult is one run on one seed: an entry of "per_seed" in the JSON output, and the
// whole result when -seeds is 1.
type seedResult = experiment.Result

// finish completes run k's result r on split sp, measured by experiment.Compare, and saves
// its model when -out is set; secs is how long its search took.
func (o *options) finish(sp *experiment.Split, spec runSpec, best *experiment.Best, r *seedResult, secs float64) error {
	r.Loss, r.WarmupEpochs, r.Name = strings.TrimSuffix(spec.name, experiment.WarmupSuffix), spec.warmup, spec.label()
	r.TrainSeconds, r.Target = secs, experiment.Target(spec.recipes, o.recall > 0)
	if len(spec.recipes) > 1 {
		r.ChosenRecipe = best.Recipe.String()
	}
	if o.out == "" {
		return nil
	}
	return saveRun(o, sp, spec, r, best.Model)
}

// measure is what experiment.Measure and CompareWithFirst read on the split of seed.
func (o *options) measure(seed uint64) experiment.MeasureConfig {
	return experiment.MeasureConfig{Alpha: o.alpha, Recall: o.recall, Boot: o.boot, Seed: seed}
}

// label is the run's name in every table, legend and the JSON "name": its -losses name, with
// the warm-up's epochs for a "+wu" run ("sqhinge+wu(10)").
func (s runSpec) label() string {
	if s.warmup > 0 {
		return fmt.Sprintf("%s(%d)", s.name, s.warmup)
	}
	return s.name
}

// modelPath is where -out saves a run's model: <dir>/<run>.params, or with several seeds
// <dir>/<run>.seed<seed>.params, where <run> is the run's -losses name as deploy.SafeName
// spells it (the only characters it replaces in a valid name are the option separators ":"
// and "=", so distinct names keep distinct files); deploy.Save writes <run>.<hash>.params and
// <run>.json, and -predict takes this path.
func modelPath(o *options, spec runSpec, seed uint64) string {
	name := deploy.SafeName(spec.name)
	if o.seeds > 1 {
		name += fmt.Sprintf(".seed%d", seed)
	}
	return filepath.Join(o.out, name+".params")
}
