package experiment

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/check"
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
	// Confidence is 1 − δ of the Neyman–Pearson deployed threshold, in (0, 1): with it the
	// deployed threshold is the umbrella threshold of the validation scores,
	// metrics.Curve.ThresholdNP(Alpha, δ), whose false-positive rate on fresh negatives stays at
	// or below α with probability at least Confidence (with Recall,
	// metrics.Curve.ThresholdNPRecall(Recall, δ): a true-positive rate of at least Recall with
	// that probability), and the deployed test rates get their 95% Clopper–Pearson intervals;
	// δ is 1 − Confidence to 15 significant digits (0.05 for 0.95, not the float difference
	// 0.050000000000000044). 0 = the plain rule, the lowest validation threshold whose
	// validation FPR is at most α, without intervals.
	Confidence float64
}

// delta is δ = 1 − c to 15 significant digits: the δ a user means by the confidence c, free of
// the rounding of the float subtraction.
func delta(c float64) float64 {
	d, _ := strconv.ParseFloat(strconv.FormatFloat(1-c, 'g', 15, 64), 64)
	return d
}

// checkConfidence returns an rocops.ErrConfig error unless Confidence is 0 or in (0, 1).
func (cfg MeasureConfig) checkConfidence() error {
	if c := cfg.Confidence; c != 0 && !(c > 0 && c < 1) {
		return check.Errorf("experiment", rocops.ErrConfig, "Confidence = %v, want it in (0, 1), or 0 for the plain rule", c)
	}
	return nil
}

// deployed returns the threshold cfg deploys, chosen on the validation curve val, with its
// validation rates: the umbrella threshold with Confidence, else metrics.Curve.ThresholdAtFPR at
// Alpha (+Inf, which flags nothing, when no threshold keeps it). recall is the recall of the
// mirror, 0 for none.
func (cfg MeasureConfig) deployed(val *metrics.Curve, recall float64) (t, valFPR, valTPR float64, err error) {
	switch {
	case cfg.Confidence == 0:
		return val.ThresholdAtFPR(cfg.Alpha)
	case recall > 0:
		t, err = val.ThresholdNPRecall(recall, delta(cfg.Confidence))
	default:
		t, err = val.ThresholdNP(cfg.Alpha, delta(cfg.Confidence))
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("experiment: the validation part: %w", err)
	}
	valFPR, valTPR = val.RatesAt(t)
	return t, valFPR, valTPR, nil
}

// admits checks, before any training, that the validation part of sp has rows enough for
// cfg's guarantee: negatives (with Recall, positives) enough for the umbrella threshold, in
// every class one-vs-rest for multi-class and multi-label data. The guarantee depends on the
// numbers of rows of each class only, so the labels with any scores tell, and the error is the
// one Measure would meet after training: metrics.ErrTooFewNegatives (ErrTooFewPositives),
// naming how many there are and how many it needs. nil without Confidence.
func (cfg MeasureConfig) admits(sp *Split) error {
	if cfg.Confidence == 0 {
		return nil
	}
	if err := cfg.checkConfidence(); err != nil {
		return err
	}
	val, d := sp.Val, delta(cfg.Confidence)
	zeros := make([]float64, val.Rows)
	if val.Classes == nil && val.Labels == nil {
		var err error
		if cfg.Recall > 0 {
			_, err = metrics.ThresholdNPRecall(zeros, val.Y, cfg.Recall, d)
		} else {
			_, err = metrics.ThresholdNP(zeros, val.Y, cfg.Alpha, d)
		}
		if err != nil {
			return fmt.Errorf("experiment: the validation part of seed %d: %w", sp.Seed, err)
		}
		return nil
	}
	names := val.Classes
	if val.Labels != nil {
		names = val.Labels
	}
	for c, name := range names {
		if _, err := metrics.ThresholdNP(zeros, indicator(val, c), cfg.Alpha, d); err != nil {
			return fmt.Errorf("experiment: class %q, the validation part of seed %d: %w", name, sp.Seed, err)
		}
	}
	return nil
}

// rateIntervals are the 95% Clopper–Pearson intervals of the false- and true-positive rates of
// flagging score ≥ t: the negatives and positives of scores (labels 0/1) it flags, of all.
func rateIntervals(scores, labels []float64, t float64) (fpr, tpr *Interval, err error) {
	var fp, neg, tp, pos int
	for i, y := range labels {
		flagged := 0
		if scores[i] >= t {
			flagged = 1
		}
		if y == 1 {
			tp, pos = tp+flagged, pos+1
		} else {
			fp, neg = fp+flagged, neg+1
		}
	}
	var out [2]*Interval
	for k, c := range [][2]int{{fp, neg}, {tp, pos}} {
		lo, hi, err := metrics.ClopperPearson(c[0], c[1], 0.95)
		if err != nil {
			return nil, nil, err
		}
		out[k] = &Interval{lo, hi}
	}
	return out[0], out[1], nil
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
	// nothing), or with Confidence the umbrella threshold of the validation scores; ValFPR and
	// ValTPR are its validation rates, TestFPR and TestTPR the rates flagging test score ≥
	// Threshold gives, and with Confidence TestFPRCI and TestTPRCI their 95% Clopper–Pearson
	// intervals (nil without).
	Threshold, ValFPR, ValTPR, TestFPR, TestTPR float64
	TestFPRCI, TestTPRCI                        *Interval
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
	if err := cfg.checkConfidence(); err != nil {
		return nil, err
	}
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
	if r.Threshold, r.ValFPR, r.ValTPR, err = cfg.deployed(val, cfg.Recall); err != nil {
		return err
	}
	r.TestFPR, r.TestTPR = c.RatesAt(r.Threshold)
	if cfg.Confidence > 0 {
		r.TestFPRCI, r.TestTPRCI, err = rateIntervals(r.TestScores, sp.Test.Y, r.Threshold)
	}
	return err
}
