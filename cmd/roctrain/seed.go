package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
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

	name           string    // the run's name in -losses
	fpr, tpr       []float64 // the test ROC curve
	valFPR, valTPR float64   // the rates of the deployed threshold on the validation part
	testScores     []float64 // the test part's scores, until the paired comparison is done
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
// test rows labelled y; nil when a class has fewer than two test rows.
func compareAUC(r, first *seedResult, y []float64) (*delongDiff, error) {
	diff, variance, p, err := metrics.DeLongPaired(r.testScores, first.testScores, y)
	if errors.Is(err, metrics.ErrTooFew) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	half := z975 * math.Sqrt(variance)
	return &delongDiff{Diff: diff, CI95: interval{diff - half, diff + half}, P: p}, nil
}

// interval is a confidence interval [lo, hi].
type interval [2]float64

// excludes0 reports whether the interval lies wholly on one side of 0.
func (iv interval) excludes0() bool { return iv[0] > 0 || iv[1] < 0 }

// tuned is the outcome of training one run with every learning rate on one seed.
type tuned struct {
	model  nn.Model
	hist   *train.History
	lr     float64
	recipe train.Recipe
}

// runOnce trains spec on one seed's split, keeps its best model (see tune), measures it and
// saves it when -out is set.
func runOnce(ctx context.Context, o *options, sp *split, spec runSpec, stderr io.Writer) (seedResult, error) {
	start := time.Now()
	best, err := tune(ctx, o, sp, spec, stderr)
	if err != nil {
		return seedResult{}, err
	}
	r := seedResult{
		Loss: strings.TrimSuffix(spec.name, "+wu"), WarmupEpochs: spec.warmup, Alpha: o.alpha, Seed: sp.seed,
		testFigures: testFigures{Recall: o.recall, TrainSeconds: time.Since(start).Seconds(), LearningRate: best.lr},
		BestEpoch:   best.hist.Epochs[best.hist.Best].Index, name: spec.name, Diagnostics: diagnosesOf(best.hist),
	}
	if len(spec.recipes) > 1 {
		r.ChosenRecipe = best.recipe.String()
	}
	if err := measure(o, sp, best.model, &r); err != nil {
		return seedResult{}, err
	}
	if o.out != "" {
		if err := saveRun(o, sp, spec, &r, best.model); err != nil {
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
// operating point goes beside it (deploy.Save writes <run>.<hash>.params and <run>.json; -predict
// takes this path).
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

// tune trains spec once per learning rate and keeps the model with the best validation
// metric (partial AUC up to α; with -recall, TNR at TPR = recall). A learning rate whose training fails part-way still competes with the
// weights of its best epoch (the trainer restores them); its error is reported on stderr.
func tune(ctx context.Context, o *options, sp *split, spec runSpec, stderr io.Writer) (tuned, error) {
	var (
		best      tuned
		bestScore = math.Inf(-1)
		errs      []error
	)
	for _, recipe := range spec.recipes {
		for _, lr := range o.learningRate {
			m, err := nn.NewMLP(nn.MLPConfig{In: sp.train.Cols, Hidden: o.hiddenSizes, Seed: sp.seed})
			if err != nil {
				return tuned{}, err
			}
			hist, err := recipe.Fit(ctx, m, train.Config{
				Epochs:       o.epochs,
				BatchSize:    o.batch,
				LearningRate: lr,
				Metric:       o.metric(),
				Seed:         sp.seed,
				Progress:     o.progress,
				Diagnose:     diagnoseConfig(o, sp.seed),
			}, sp.train, sp.val)
			if errors.Is(err, train.ErrConfig) {
				return tuned{}, err
			}
			if err != nil {
				if ctx.Err() != nil {
					return tuned{}, err
				}
				what := fmt.Sprintf("learning rate %g", lr)
				if len(spec.recipes) > 1 {
					what = fmt.Sprintf("%v, %s", recipe, what)
				}
				err = fmt.Errorf("%s: %w", what, err)
				errs = append(errs, err)
				if hist == nil || hist.Best < 0 {
					fmt.Fprintf(stderr, "roctrain: %s: %v (no epoch finished; skipped)\n", spec.name, err)
					continue
				}
				fmt.Fprintf(stderr, "roctrain: %s: %v (keeping its best epoch, %d)\n", spec.name, err, hist.Epochs[hist.Best].Index)
			}
			if score := hist.Epochs[hist.Best].Metric; score > bestScore {
				best, bestScore = tuned{model: m, hist: hist, lr: lr, recipe: recipe}, score
			}
		}
	}
	if best.model == nil {
		return tuned{}, errors.Join(errs...)
	}
	return best, nil
}

// measure fills r's test figures, their intervals and the deployed operating point.
func measure(o *options, sp *split, m nn.Model, r *seedResult) error {
	scores, err := nn.Scores(m, sp.test.X, sp.test.Rows)
	if err != nil {
		return err
	}
	y := sp.test.Y
	r.testScores = scores
	if r.TestPAUC, err = metrics.PartialAUC(scores, y, o.alpha); err != nil {
		return err
	}
	if r.TestTPR, err = metrics.TPRAtFPR(scores, y, o.alpha); err != nil {
		return err
	}
	if o.recall > 0 {
		fpr, err := metrics.FPRAtTPR(scores, y, o.recall)
		if err != nil {
			return err
		}
		r.TestFPRAtTPR = &fpr
	}
	if r.fpr, r.tpr, _, err = metrics.ROC(scores, y); err != nil {
		return err
	}
	auc, variance, err := metrics.DeLong(scores, y)
	switch {
	case errors.Is(err, metrics.ErrTooFew):
		if auc, err = metrics.AUC(scores, y); err != nil {
			return err
		}
	case err != nil:
		return err
	default:
		half := z975 * math.Sqrt(variance)
		r.TestAUCCI = &interval{max(0, auc-half), min(1, auc+half)}
	}
	r.TestAUC = auc
	if o.boot > 0 {
		pauc := func(s, y []float64) (float64, error) { return metrics.PartialAUC(s, y, o.alpha) }
		tpr := func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, o.alpha) }
		for _, b := range []struct {
			dst  **interval
			stat func(s, y []float64) (float64, error)
		}{{&r.TestPAUCCI, pauc}, {&r.TestTPRCI, tpr}} {
			lo, hi, err := metrics.Bootstrap(scores, y, b.stat, o.boot, 0.95, sp.seed)
			if err != nil {
				return err
			}
			*b.dst = &interval{lo, hi}
		}
	}

	valScores, err := nn.Scores(m, sp.val.X, sp.val.Rows)
	if err != nil {
		return err
	}
	t, valFPR, valTPR, err := metrics.ThresholdAtFPR(valScores, sp.val.Y, o.alpha)
	if err != nil {
		return err
	}
	r.valFPR, r.valTPR = valFPR, valTPR
	if !math.IsInf(t, 1) {
		r.DeployedThreshold = &t
	}
	r.DeployedTestFPR, r.DeployedTestTPR = ratesAt(scores, y, t)
	return nil
}

// z975 is Φ⁻¹(0.975), the normal quantile of a two-sided 95% interval.
const z975 = 1.959963984540054

// ratesAt returns the false- and true-positive rates of flagging the rows scoring at least t.
func ratesAt(scores, labels []float64, t float64) (fpr, tpr float64) {
	var fp, tp, nNeg, nPos float64
	for i, s := range scores {
		nPos += labels[i]
		nNeg += 1 - labels[i]
		if s >= t {
			fp += 1 - labels[i]
			tp += labels[i]
		}
	}
	return fp / nNeg, tp / nPos
}
