package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/metrics"
)

// seedResult is one run on one seed: an entry of "per_seed" in the JSON output, and the
// whole result when -seeds is 1.
type seedResult struct {
	Loss         string  `json:"loss"`
	WarmupEpochs int     `json:"warmup_epochs"`
	Alpha        float64 `json:"alpha"`
	Seed         uint64  `json:"seed"`
	testFigures
	BestEpoch int `json:"best_epoch"`
	// ChosenRecipe is the candidate validation chose, for a -losses name with several (such as
	// "ce+kde", whose λ it names); left out for the others.
	ChosenRecipe string `json:"chosen_recipe,omitempty"`
	// Diagnostics holds the corrective-power diagnostics of every epoch of the chosen
	// learning rate's training with -diagnose, and is left out without it.
	Diagnostics []diagnosis `json:"diagnostics,omitempty"`

	name           string         // the run's name in -losses
	fpr, tpr       []float64      // the test ROC curve
	valFPR, valTPR float64        // the rates of the deployed threshold on the validation part
	test           *metrics.Curve // the test part's curve, until the paired comparison is done
}

// testFigures are the test figures of a run, for one seed in seedResult and as means over the
// seeds in result; embedded in both, they keep their place among the JSON keys.
type testFigures struct {
	TestAUC  float64 `json:"test_auc"`
	TestPAUC float64 `json:"test_pauc"`
	TestTPR  float64 `json:"test_tpr_at_fpr"`
	// With -recall r: r, and the test false-positive rate at true-positive rate r
	// (metrics.FPRAtTPR); both left out without -recall.
	Recall       float64  `json:"recall,omitempty"`
	TestFPRAtTPR *float64 `json:"test_fpr_at_tpr,omitempty"`
	// The 95% intervals of the three test figures on this split: DeLong's for the AUC
	// (AUC ± 1.96·√Var, clipped to [0, 1] as pROC does), the
	// stratified percentile bootstrap's (-boot resamples) for the others; null when they
	// cannot be computed (fewer than two test rows of a class; -boot 0).
	TestAUCCI  *interval `json:"test_auc_ci95"`
	TestPAUCCI *interval `json:"test_pauc_ci95"`
	TestTPRCI  *interval `json:"test_tpr_at_fpr_ci95"`
	// The operating point chosen on the validation part: flag score ≥ DeployedThreshold, the
	// lowest threshold whose validation FPR is at most α (null when even the top validation
	// score exceeds it, which flags nothing), and the rates it achieves on the test part.
	DeployedThreshold *float64 `json:"deployed_threshold"`
	DeployedTestFPR   float64  `json:"deployed_test_fpr"`
	DeployedTestTPR   float64  `json:"deployed_test_tpr"`
	// TestAUCVsFirst compares this run's test AUC with the first run's of -losses on the same
	// seed, on the same test rows, by DeLong's paired test (metrics.DeLongPaired); null for the
	// first run, when it failed on this seed, or when a class has fewer than two test rows.
	TestAUCVsFirst *delongDiff `json:"test_auc_vs_first"`
	TrainSeconds   float64     `json:"train_seconds"`
	LearningRate   float64     `json:"learning_rate"`
}

// delongDiff is DeLong's paired comparison of two AUCs on the same rows: the difference, its
// 95% interval diff ± 1.96·√Var and the two-sided p-value of "no difference".
type delongDiff struct {
	Diff float64  `json:"diff"`
	CI95 interval `json:"ci95"`
	P    float64  `json:"p"`
}

// compareAUC is DeLong's paired test of r's test AUC against first's, both scored on the
// same test rows; nil when a class has fewer than two test rows.
func compareAUC(r, first *seedResult) (*delongDiff, error) {
	diff, variance, p, err := r.test.DeLongPaired(first.test)
	if errors.Is(err, metrics.ErrTooFew) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	half := z95 * math.Sqrt(variance)
	return &delongDiff{Diff: diff, CI95: interval{diff - half, diff + half}, P: p}, nil
}

// interval is a confidence interval [lo, hi].
type interval [2]float64

// excludes0 reports whether the interval lies wholly on one side of 0.
func (iv interval) excludes0() bool { return iv[0] > 0 || iv[1] < 0 }

// split is what the operating-point file reads of a seed's data.
type split struct {
	train *data.Dataset
	std   data.Standardizer
}

// result measures the model search kept on one seed's split into the run's figures, and
// saves it when -out is set; started is when the search started.
func (o *options) result(sp *experiment.Split, spec runSpec, best *experiment.Best, started time.Time) (seedResult, error) {
	r := seedResult{
		Loss: strings.TrimSuffix(spec.name, "+wu"), WarmupEpochs: spec.warmup, Alpha: o.alpha, Seed: sp.Seed,
		testFigures: testFigures{Recall: o.recall, TrainSeconds: time.Since(started).Seconds(), LearningRate: best.LearningRate},
		BestEpoch:   best.Epoch(), name: spec.name, Diagnostics: diagnosesOf(best.History),
	}
	if len(spec.recipes) > 1 {
		r.ChosenRecipe = best.Recipe.String()
	}
	m, err := experiment.Measure(best.Model, sp, experiment.MeasureConfig{Alpha: o.alpha, Recall: o.recall, Boot: o.boot, Seed: sp.Seed})
	if err != nil {
		return seedResult{}, err
	}
	r.TestAUC, r.TestPAUC, r.TestTPR, r.TestFPRAtTPR = m.AUC, m.PartialAUC, m.TPR, m.FPRAtTPR
	if m.DeLong != nil {
		r.TestAUC, r.TestAUCCI = m.DeLong.AUC, (*interval)(&m.DeLong.CI)
	}
	r.TestPAUCCI, r.TestTPRCI = (*interval)(m.PartialAUCCI), (*interval)(m.TPRCI)
	if !math.IsInf(m.Threshold, 1) {
		r.DeployedThreshold = &m.Threshold
	}
	r.DeployedTestFPR, r.DeployedTestTPR, r.valFPR, r.valTPR = m.TestFPR, m.TestTPR, m.ValFPR, m.ValTPR
	r.fpr, r.tpr, _ = m.Test.ROC()
	r.test = m.Test
	if o.out != "" {
		if err := saveDeployment(modelPath(o, spec, sp.Seed), best.Model, newSidecar(o, &split{sp.Train, sp.Std}, &r)); err != nil {
			return seedResult{}, err
		}
	}
	return r, nil
}

// modelPath is where -out saves a run's model: <dir>/<run>.params, or with several seeds
// <dir>/<run>.seed<seed>.params, where <run> is the run's -losses name with every character
// but letters, digits and "+._-" replaced by "_" (so "kde:pool=1024" is saved as
// kde_pool_1024.params, a name every file system takes; the only such characters of a valid
// name are the option separators ":" and "=", so distinct names keep distinct files); its
// operating point goes beside it (see sidecarPath).
func modelPath(o *options, spec runSpec, seed uint64) string {
	name := fileName(spec.name)
	if o.seeds > 1 {
		name += fmt.Sprintf(".seed%d", seed)
	}
	return filepath.Join(o.out, name+".params")
}

// fileName returns a run's name as modelPath spells it in file names.
func fileName(run string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("+._-", r):
			return r
		}
		return '_'
	}, run)
}

// z95 is Φ⁻¹(0.975), the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054
