package experiment

import (
	"errors"
	"math"

	"github.com/rocops/rocops/internal/stats"
	"github.com/rocops/rocops/metrics"
)

// Result is one search on one seed, measured: an entry of "per_seed" in roctrain's JSON
// output, and the whole result there with one seed. The fields without a JSON key are for
// the plots, the deployment and the paired comparison.
type Result struct {
	Loss         string  `json:"loss"`
	WarmupEpochs int     `json:"warmup_epochs"`
	Alpha        float64 `json:"alpha"`
	Seed         uint64  `json:"seed"`
	Figures
	BestEpoch int `json:"best_epoch"`
	// Phases is the number of phases the kept candidate trained (2 for a warm-up or a
	// cross-entropy first phase followed by the run's loss, else 1), and KeptPhases how many of
	// them its kept weights went through: KeptPhases < Phases when validation did not keep the
	// later phase, and the model is the earlier phase's (train's FineTune restores them when
	// its second phase does not improve the validation metric).
	Phases     int `json:"phases"`
	KeptPhases int `json:"kept_phases"`
	// ChosenRecipe is the candidate validation chose, for a search of several recipes (such as
	// roctrain's "ce+kde", whose λ it names); left out for the others.
	ChosenRecipe string `json:"chosen_recipe,omitempty"`
	// Diagnostics holds the corrective-power diagnostics of every epoch of the kept
	// candidate's training with train.Config.Diagnose, and is left out without it.
	Diagnostics []Diagnosis `json:"diagnostics,omitempty"`

	// Name is the run's name, such as roctrain's "sqhinge+wu(10)"; the caller sets it.
	Name string `json:"name"`
	// Target is the JSON key of the figure the run's loss optimises ([Target]), which tables
	// list first; the caller sets it.
	Target string `json:"target"`

	FPR, TPR       []float64      `json:"-"` // the test ROC curve
	ValFPR, ValTPR float64        `json:"-"` // the rates of the deployed threshold on the validation part
	Test           *metrics.Curve `json:"-"` // the test part's curve, for the comparison with the first run
	TestScores     []float64      `json:"-"` // the test scores in row order, likewise
	// ScoresHash is an FNV-1a hash of the bits of the test scores, in order: two runs with
	// equal hashes scored every test row alike, bit for bit (up to a 2⁻⁶⁴ chance of a
	// collision), such as runs a plot draws once.
	ScoresHash uint64 `json:"-"`
	// Classes is the measurement of a multi-class or multi-label run (nil for binary data),
	// for the per-class tables, plots and deployment; Test, FPR and TPR are then nil. It holds
	// the classes or label columns in output order (Names; Multilabel says which), whether the
	// scores are the softmax probabilities of the outputs (Probabilities), the macro AUCs (OvR,
	// and OvO for multi-class data) and in Class each class's one-vs-rest figures: its test
	// AUC, PartialAUC and TPR at FPR α, the Threshold chosen on validation with its ValFPR and
	// ValTPR and the TestFPR and TestTPR it gives, its test ROC curve (ROCFPR, ROCTPR) and its
	// test rows (Positives).
	Classes *classMeasurement `json:"-"`
}

// newResult is the result of the candidate best, measured by m: its test figures (the AUC as
// DeLong's estimate when m has it, with its interval), the deployed point, the learning rate,
// epoch and diagnostics. The caller names the run and sets Loss, WarmupEpochs, Alpha, Seed,
// Recall and TrainSeconds.
func newResult(best *Best, m *Measurement) Result {
	r := Result{
		Figures: Figures{TestAUC: m.AUC, TestPAUC: m.PartialAUC, TestTPR: m.TPR, TestFPRAtTPR: m.FPRAtTPR,
			TestPAUCCI: m.PartialAUCCI, TestTPRCI: m.TPRCI,
			DeployedTestFPR: m.TestFPR, DeployedTestTPR: m.TestTPR,
			LearningRate: best.LearningRate},
		BestEpoch: best.Epoch(), Diagnostics: diagnosesOf(best.History),
		ValFPR: m.ValFPR, ValTPR: m.ValTPR, Test: m.Test,
		TestScores: m.TestScores, ScoresHash: hashScores(m.TestScores),
	}
	r.Phases, r.KeptPhases = phasesOf(best.History)
	if m.DeLong != nil {
		r.TestAUC, r.TestAUCCI = m.DeLong.AUC, &m.DeLong.CI
	}
	if !math.IsInf(m.Threshold, 1) {
		r.DeployedThreshold = &m.Threshold
	}
	r.DeployedTestFPRCI, r.DeployedTestTPRCI = m.TestFPRCI, m.TestTPRCI
	r.FPR, r.TPR, _ = m.Test.ROC()
	return r
}

// Figures are the test figures of a run, for one seed in [Result] and as means over the
// seeds in [Summary]; embedded in both, they keep their place among the JSON keys.
type Figures struct {
	TestAUC  float64 `json:"test_auc"`
	TestPAUC float64 `json:"test_pauc"`
	TestTPR  float64 `json:"test_tpr_at_fpr"`
	// With a recall r: r, and the test false-positive rate at true-positive rate r
	// (metrics.FPRAtTPR); both left out without a recall.
	Recall       float64  `json:"recall,omitempty"`
	TestFPRAtTPR *float64 `json:"test_fpr_at_tpr,omitempty"`
	// Multi-class and multi-label data only ([Compare] on them), left out otherwise: the macro
	// one-vs-rest AUC (multi-label: label-wise), equal to TestAUC; Hand and Till's macro
	// one-vs-one AUC (multi-class only); and in class order each class's one-vs-rest AUC and
	// TPR at FPR α. TestPAUC, TestTPR and the deployed rates are then the macro means of the
	// per-class one-vs-rest figures.
	TestAUCOvR   *float64  `json:"test_auc_ovr,omitempty"`
	TestAUCOvO   *float64  `json:"test_auc_ovo,omitempty"`
	TestClassAUC []float64 `json:"test_class_auc,omitempty"`
	TestClassTPR []float64 `json:"test_class_tpr_at_fpr,omitempty"`
	// The 95% intervals of the three test figures on this split: DeLong's for the AUC
	// (AUC ± 1.96·√Var, clipped to [0, 1] as pROC does), the stratified percentile
	// bootstrap's (MeasureConfig.Boot resamples) for the others; null when they cannot be
	// computed (fewer than two test rows of a class; no resamples).
	// For multi-class and multi-label data, TestAUCCI is the macro one-vs-rest AUC's interval and
	// TestAUCOvOCI (multi-class only) the macro one-vs-one AUC's, both by the percentile
	// bootstrap of the test rows drawn within each class; the others are null.
	TestAUCCI    *Interval `json:"test_auc_ci95"`
	TestAUCOvOCI *Interval `json:"test_auc_ovo_ci95,omitempty"`
	TestPAUCCI   *Interval `json:"test_pauc_ci95"`
	TestTPRCI    *Interval `json:"test_tpr_at_fpr_ci95"`
	// The operating point chosen on the validation part: flag score ≥ DeployedThreshold, the
	// lowest threshold whose validation FPR is at most α (null when even the top validation
	// score exceeds it, which flags nothing), and the rates it achieves on the test part.
	DeployedThreshold *float64 `json:"deployed_threshold"`
	DeployedTestFPR   float64  `json:"deployed_test_fpr"`
	DeployedTestTPR   float64  `json:"deployed_test_tpr"`
	// With a confidence 1 − δ (MeasureConfig.Confidence), left out without one: the confidence
	// itself, the deployed threshold then being the Neyman–Pearson umbrella threshold of the
	// validation scores (test FPR ≤ α, or with a recall r TPR ≥ r, with probability at least
	// 1 − δ), and the 95% Clopper–Pearson intervals of the deployed test FPR and TPR on this
	// split (binary data; null in a summary of several seeds). On multi-class and multi-label
	// data, each class's deployed test FPR and TPR in class order (means over the seeds in a
	// summary) with their intervals (a single split's, as above).
	DeployedConfidence     float64    `json:"deployed_confidence,omitempty"`
	DeployedTestFPRCI      *Interval  `json:"deployed_test_fpr_ci95,omitempty"`
	DeployedTestTPRCI      *Interval  `json:"deployed_test_tpr_ci95,omitempty"`
	DeployedClassTestFPR   []float64  `json:"deployed_class_test_fpr,omitempty"`
	DeployedClassTestTPR   []float64  `json:"deployed_class_test_tpr,omitempty"`
	DeployedClassTestFPRCI []Interval `json:"deployed_class_test_fpr_ci95,omitempty"`
	DeployedClassTestTPRCI []Interval `json:"deployed_class_test_tpr_ci95,omitempty"`
	// DeployedThresholds are, for multi-class and multi-label data, the per-class thresholds
	// chosen on validation one-vs-rest as DeployedThreshold is (null for a class that no
	// threshold kept at validation FPR ≤ α); left out for binary data, and DeployedThreshold is
	// then null.
	DeployedThresholds []*float64 `json:"deployed_thresholds,omitempty"`
	// TestAUCVsFirst compares this run's test AUC with the first run's on the same seed, on
	// the same test rows, by DeLong's paired test (metrics.Curve.DeLongPaired): the difference
	// (diff), its 95% interval diff ± 1.96·√Var (ci95) and the two-sided p-value of "no
	// difference" (p); null for the first run, when that failed on this seed, or when a class
	// has fewer than two test rows.
	TestAUCVsFirst *aucDiff `json:"test_auc_vs_first"`
	// TestVsFirst holds the paired bootstrap comparisons with the first run on the same seed
	// and test rows ([Compare]), by figure: "test_pauc", "test_tpr_at_fpr",
	// "deployed_test_tpr" and with a recall "test_fpr_at_tpr"; null when TestAUCVsFirst is, or
	// without α or resamples. For multi-class and multi-label runs, whose TestAUCVsFirst is
	// null, it holds "test_auc_ovr" alone (the paired bootstrap of the macro one-vs-rest AUC,
	// rows drawn within each class), null without resamples.
	TestVsFirst  map[string]Paired `json:"test_vs_first"`
	TrainSeconds float64           `json:"train_seconds"`
	LearningRate float64           `json:"learning_rate"`
}

// aucDiff is DeLong's paired comparison of two AUCs on the same rows: the difference, its
// 95% interval diff ± 1.96·√Var and the two-sided p-value of "no difference".
type aucDiff struct {
	Diff float64  `json:"diff"`
	CI95 Interval `json:"ci95"`
	P    float64  `json:"p"`
}

// compareAUC is DeLong's paired test of r's test AUC against first's, both scored on the
// same test rows (metrics.Curve.DeLongPaired); nil when a class has fewer than two test rows.
func compareAUC(r, first *Result) (*aucDiff, error) {
	diff, variance, p, err := r.Test.DeLongPaired(first.Test)
	if errors.Is(err, metrics.ErrTooFew) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	half := stats.Z975 * math.Sqrt(variance)
	return &aucDiff{Diff: diff, CI95: Interval{diff - half, diff + half}, P: p}, nil
}
