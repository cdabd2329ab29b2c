package experiment

import (
	"errors"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
)

// MeasureConfig says which figures [Measure] reads. Every zero value leaves figures out.
type MeasureConfig struct {
	// Alpha is the false-positive rate α of the partial AUC, the TPR at FPR α and the deployed
	// threshold; 0 = none of them.
	Alpha float64
	// Recall is the true-positive rate r of the FPR at TPR r; 0 = not read.
	Recall float64
	// Boot is the number of bootstrap resamples of the intervals of the partial AUC and the
	// TPR (with Alpha); 0 = no intervals.
	Boot int
	// Seed seeds the bootstrap.
	Seed uint64
}

// Interval is a confidence interval [lo, hi].
type Interval [2]float64

// Measurement is a model measured on a split's test part.
type Measurement struct {
	// Test is the ranked curve of the test scores, from which every figure below was read;
	// TestScores are the scores, in the test part's row order.
	Test       *metrics.Curve
	TestScores []float64
	// AUC is the area under the test ROC curve (metrics.AUC).
	AUC float64
	// DeLong is DeLong's estimate of the AUC (AUC, the mean of its structural components, equal
	// to the AUC above up to rounding) with its Variance and its 95% interval CI, AUC ± 1.96·√Var
	// clipped to [0, 1] as pROC clips it; nil with fewer than two test rows of a class.
	DeLong *deLongAUC
	// With Alpha: the partial AUC up to α and the TPR at FPR α, with their 95% stratified
	// percentile bootstrap intervals (nil without Boot).
	PartialAUC, TPR     float64
	PartialAUCCI, TPRCI *Interval
	// With Alpha: the deployed operating point. Threshold is the lowest validation score whose
	// validation FPR is at most α (metrics.ThresholdAtFPR; +Inf when there is none, which flags
	// nothing), ValFPR and ValTPR its validation rates, TestFPR and TestTPR the rates flagging
	// test score ≥ Threshold gives.
	Threshold, ValFPR, ValTPR, TestFPR, TestTPR float64
	// FPRAtTPR is the test FPR at TPR Recall (metrics.FPRAtTPR); nil without Recall.
	FPRAtTPR *float64
}

// deLongAUC is DeLong's AUC and variance with the 95% interval AUC ± 1.96·√Var, clipped to
// [0, 1] as pROC clips it.
type deLongAUC struct {
	AUC, Variance float64
	CI            Interval
}

// scoreData scores ds's features with m: nn.Scores of X, or of X32 for a dataset stored in
// float32, which is never widened whole.
func scoreData(m nn.Model, ds *data.Dataset) ([]float64, error) {
	if ds.Float32() {
		return nn.Scores(m, ds.X32, ds.Rows)
	}
	return nn.Scores(m, ds.X, ds.Rows)
}

// Measure scores the test (and, with Alpha, validation) rows of sp with m and reads every
// figure cfg asks for off one ranked curve of each part: the test scores are validated and
// sorted once, and every bootstrap resample is counted from that curve (metrics.Curve).
func Measure(m nn.Model, sp *Split, cfg MeasureConfig) (*Measurement, error) {
	scores, err := scoreData(m, sp.Test)
	if err != nil {
		return nil, err
	}
	c, err := metrics.NewCurve(scores, sp.Test.Y)
	if err != nil {
		return nil, err
	}
	r := &Measurement{Test: c, TestScores: scores, AUC: c.AUC()}
	switch auc, variance, err := c.DeLong(); {
	case errors.Is(err, metrics.ErrTooFew):
	case err != nil:
		return nil, err
	default:
		lo, hi := metrics.AUCInterval95(auc, variance)
		r.DeLong = &deLongAUC{AUC: auc, Variance: variance, CI: Interval{lo, hi}}
	}
	if cfg.Recall > 0 {
		fpr, err := c.FPRAtTPR(cfg.Recall)
		if err != nil {
			return nil, err
		}
		r.FPRAtTPR = &fpr
	}
	if cfg.Alpha == 0 {
		return r, nil
	}
	if err := r.atAlpha(m, sp, cfg); err != nil {
		return nil, err
	}
	return r, nil
}

// atAlpha reads the figures at false-positive rate cfg.Alpha.
func (r *Measurement) atAlpha(m nn.Model, sp *Split, cfg MeasureConfig) error {
	c, alpha := r.Test, cfg.Alpha
	var err error
	if r.PartialAUC, err = c.PartialAUC(alpha); err != nil {
		return err
	}
	if r.TPR, err = c.TPRAtFPR(alpha); err != nil {
		return err
	}
	if cfg.Boot > 0 {
		pauc := func(c *metrics.Curve) (float64, error) { return c.PartialAUC(alpha) }
		tpr := func(c *metrics.Curve) (float64, error) { return c.TPRAtFPR(alpha) }
		for _, b := range []struct {
			dst  **Interval
			stat func(*metrics.Curve) (float64, error)
		}{{&r.PartialAUCCI, pauc}, {&r.TPRCI, tpr}} {
			lo, hi, err := c.Bootstrap(b.stat, cfg.Boot, 0.95, cfg.Seed)
			if err != nil {
				return err
			}
			*b.dst = &Interval{lo, hi}
		}
	}
	valScores, err := scoreData(m, sp.Val)
	if err != nil {
		return err
	}
	val, err := metrics.NewCurve(valScores, sp.Val.Y)
	if err != nil {
		return err
	}
	if r.Threshold, r.ValFPR, r.ValTPR, err = val.ThresholdAtFPR(alpha); err != nil {
		return err
	}
	r.TestFPR, r.TestTPR = c.RatesAt(r.Threshold)
	return nil
}
