package experiment

import (
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/metrics"
)

// The keys of Figures.TestVsFirst: the figures compared by the paired bootstrap.
const (
	keyPAUC        = "test_pauc"
	keyTPR         = "test_tpr_at_fpr"
	keyDeployedTPR = "deployed_test_tpr"
)

// compareWithFirst compares r with first, two runs on one seed scored on the same test rows
// (whose labels are labels), and sets r.TestAUCVsFirst, DeLong's paired AUC test
// (compareAUC), and with cfg.Alpha and cfg.Boot resamples r.TestVsFirst: for the partial
// AUC up to α, the TPR at FPR α, the deployed TPR and FPR and with cfg.Recall the FPR at that TPR,
// r's figure minus first's and the 95%
// percentile interval of metrics.BootstrapPaired, which draws the same stratified resamples
// of rows for both runs. The deployed TPR of a resample is the share of its positives whose
// score reaches the run's own deployed threshold (the threshold is held fixed, as deployment
// holds it). Two runs that score every row alike get a difference of 0 and [0, 0]. A class
// with fewer than two test rows leaves the comparisons out (nil), as it leaves out the
// intervals of [Measure].
//
// For two multi-class or multi-label runs (r.Classes set) it sets, with cfg.Boot resamples,
// r.TestVsFirst's paired bootstrap differences of the macro one-vs-rest and one-vs-one AUCs and,
// with cfg.Alpha, of the macro partial AUC, TPR and deployed TPR and FPR, drawing the rows
// within each class (see compareClasses), and leaves r.TestAUCVsFirst nil; without resamples
// it sets nothing.
func compareWithFirst(r, first *Result, labels []float64, cfg MeasureConfig) error {
	if r.Classes != nil || first.Classes != nil {
		if r.Classes == nil || first.Classes == nil || cfg.Boot == 0 {
			return nil
		}
		return compareClasses(r, first, labels, cfg.Alpha, cfg.Boot, cfg.Seed)
	}
	var err error
	if r.TestAUCVsFirst, err = compareAUC(r, first); err != nil || r.TestAUCVsFirst == nil || cfg.Alpha == 0 || cfg.Boot == 0 {
		return err
	}
	alpha := cfg.Alpha
	pauc := func(s, y []float64) (float64, error) { return metrics.PartialAUC(s, y, alpha) }
	tpr := func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, alpha) }
	type figure struct {
		key  string
		a, b []float64
		stat func(s, y []float64) (float64, error)
	}
	compared := []figure{
		{keyPAUC, r.TestScores, first.TestScores, pauc},
		{keyTPR, r.TestScores, first.TestScores, tpr},
		{keyDeployedTPR, flags(r), flags(first), positiveMean},
		{keyDeployedFPR, flags(r), flags(first), negativeMean},
	}
	if recall := cfg.Recall; recall > 0 {
		fpr := func(s, y []float64) (float64, error) { return metrics.FPRAtTPR(s, y, recall) }
		compared = append(compared, figure{recallKey, r.TestScores, first.TestScores, fpr})
	}
	out := make(map[string]Paired, len(compared))
	for _, f := range compared {
		d, lo, hi, err := metrics.BootstrapPaired(f.a, f.b, labels, f.stat, cfg.Boot, 0.95, cfg.Seed)
		if err != nil {
			return err
		}
		out[f.key] = Paired{Diff: d, CI95: Interval{lo, hi}}
	}
	r.TestVsFirst = out
	return nil
}

// flags is 1 for each test row r's deployed threshold flags and 0 for the others.
func flags(r *Result) []float64 {
	t := r.threshold()
	out := make([]float64, len(r.TestScores))
	for i, s := range r.TestScores {
		if s >= t {
			out[i] = 1
		}
	}
	return out
}

// positiveMean is the mean of the positives' values: with 0/1 flags, the TPR.
func positiveMean(v, labels []float64) (float64, error) {
	var sum, n float64
	for i, y := range labels {
		if y == 1 {
			sum, n = sum+v[i], n+1
		}
	}
	if n == 0 {
		return 0, rocops.ErrNoPositives
	}
	return sum / n, nil
}

// negativeMean is the mean of the negatives' values: with 0/1 flags, the FPR.
func negativeMean(v, labels []float64) (float64, error) {
	var sum, n float64
	for i, y := range labels {
		if y == 0 {
			sum, n = sum+v[i], n+1
		}
	}
	if n == 0 {
		return 0, rocops.ErrNoNegatives
	}
	return sum / n, nil
}

// threshold is r's deployed threshold, +Inf (nothing flagged) when it has none.
func (r *Result) threshold() float64 {
	if r.DeployedThreshold == nil {
		return math.Inf(1)
	}
	return *r.DeployedThreshold
}
