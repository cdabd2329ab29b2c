package experiment

import (
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
)

// classMeasurement is a model of k outputs measured on the test part of a multi-class or
// multi-label split (the data's Classes or Labels set): every figure is read one-vs-rest, class
// c's column of scores against the indicator of class c (multi-label: label column c), and
// averaged over the classes (macro).
type classMeasurement struct {
	// Names are the k classes (multi-class) or label columns (multi-label), in output order;
	// Multilabel says which.
	Names      []string
	Multilabel bool
	// Probabilities says the scores are the softmax probabilities of the model's outputs
	// (crossentropy.Softmax), as for a model trained by the softmax cross-entropy; otherwise the
	// outputs are the scores. TestScores are the test scores, row-major n×k.
	Probabilities bool
	TestScores    []float64
	// OvR is the macro one-vs-rest test AUC, metrics.TaskAUC(OvR, Macro) (multi-label: the
	// macro label-wise AUC), and OvO Hand and Till's macro one-vs-one AUC,
	// metrics.TaskAUC(OvO, Macro), nil for multi-label data.
	OvR float64
	OvO *float64
	// OvRCI and OvOCI are their 95% percentile bootstrap intervals (MeasureConfig.Boot
	// resamples of the test rows, drawn within each class; multi-label, within each set of
	// labels); nil without resamples (OvOCI also for multi-label data).
	OvRCI, OvOCI *Interval
	// Class holds each class's one-vs-rest figures, in class order.
	Class []classFigures
}

// classFigures are one class's one-vs-rest figures: the class the positives, every other row
// (multi-label: the rows where the label is 0) the negatives.
type classFigures struct {
	// AUC is the test AUC; PartialAUC (up to α) and TPR (at FPR α) are read at MeasureConfig's
	// Alpha (0 without it).
	AUC, PartialAUC, TPR float64
	// Threshold is the lowest validation score of the class's column whose one-vs-rest
	// validation FPR is at most α (metrics.ThresholdAtFPR; +Inf when there is none, which
	// flags nothing), or with MeasureConfig's Confidence the umbrella threshold of the class's
	// validation negatives (metrics.Curve.ThresholdNP); ValFPR and ValTPR are its validation
	// rates, and TestFPR and TestTPR the rates flagging test score ≥ Threshold gives, with
	// Confidence TestFPRCI and TestTPRCI their 95% Clopper–Pearson intervals; with Alpha only.
	Threshold, ValFPR, ValTPR, TestFPR, TestTPR float64
	TestFPRCI, TestTPRCI                        *Interval
	// ROCFPR and ROCTPR are the test ROC curve, and Positives the class's test rows.
	ROCFPR, ROCTPR []float64
	Positives      int
}

// measureClasses scores the test and (with cfg.Alpha) validation rows of the multi-class or
// multi-label split sp with the k-output model m (nn.Scores), applies crossentropy.Softmax to
// every row of scores when probabilities is set, and reads the figures of classMeasurement:
// the macro AUCs and, per class, the AUC, the partial AUC and TPR at FPR cfg.Alpha and the
// threshold chosen on validation at α (with cfg.Confidence, the umbrella threshold at α and the
// Clopper–Pearson intervals of its test rates), and with cfg.Boot the intervals of the macro
// AUCs. cfg.Recall is not used: an FPR at a recall is not read, and the guarantee is on the
// false-positive rate.
func measureClasses(m nn.Model, sp *Split, cfg MeasureConfig, probabilities bool) (*classMeasurement, error) {
	if err := cfg.checkConfidence(); err != nil {
		return nil, err
	}
	te := sp.Test
	k := te.Task().K()
	if te.Classes == nil && te.Labels == nil {
		return nil, fmt.Errorf("experiment: a per-class measurement needs multi-class or multi-label data; %q is binary", te.LabelName)
	}
	scores, err := classScores(m, te, probabilities)
	if err != nil {
		return nil, err
	}
	r := &classMeasurement{Names: te.Classes, Multilabel: te.Labels != nil, Probabilities: probabilities,
		TestScores: scores, Class: make([]classFigures, k)}
	task := classTask(k, r.Multilabel)
	if r.Multilabel {
		r.Names = te.Labels
	}
	var valScores []float64
	if cfg.Alpha > 0 {
		if valScores, err = classScores(m, sp.Val, probabilities); err != nil {
			return nil, err
		}
	}
	for c := range k {
		f := &r.Class[c]
		testScores, testLabels := column(scores, k, c), indicator(te, c)
		test, err := metrics.NewCurve(testScores, testLabels)
		if err != nil {
			return nil, fmt.Errorf("experiment: class %q: %w", r.Names[c], err)
		}
		f.AUC = test.AUC()
		f.ROCFPR, f.ROCTPR, _ = test.ROC()
		f.Positives = test.Positives()
		if cfg.Alpha == 0 {
			continue
		}
		if f.PartialAUC, err = test.PartialAUC(cfg.Alpha); err != nil {
			return nil, err
		}
		if f.TPR, err = test.TPRAtFPR(cfg.Alpha); err != nil {
			return nil, err
		}
		val, err := metrics.NewCurve(column(valScores, k, c), indicator(sp.Val, c))
		if err != nil {
			return nil, fmt.Errorf("experiment: class %q, validation: %w", r.Names[c], err)
		}
		if f.Threshold, f.ValFPR, f.ValTPR, err = cfg.deployed(val, 0); err != nil {
			if cfg.Confidence > 0 {
				err = fmt.Errorf("experiment: class %q: %w", r.Names[c], err)
			}
			return nil, err
		}
		f.TestFPR, f.TestTPR = test.RatesAt(f.Threshold)
		if cfg.Confidence > 0 {
			if f.TestFPRCI, f.TestTPRCI, err = rateIntervals(testScores, testLabels, f.Threshold); err != nil {
				return nil, err
			}
		}
	}
	if err := r.macroAUCs(te.Y, task); err != nil {
		return nil, err
	}
	if cfg.Boot > 0 {
		if err := r.aucIntervals(te.Y, cfg.Boot, cfg.Seed); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// macroAUCs sets the macro one-vs-rest AUC of r, the mean of its classes' AUCs (the same sum
// as metrics.TaskAUC(OvR, Macro)), and for multi-class data the macro one-vs-one AUC. labels
// are the test labels, of the task.
func (r *classMeasurement) macroAUCs(labels []float64, task rocops.Task) error {
	r.OvR = r.mean(func(f *classFigures) float64 { return f.AUC })
	if r.Multilabel {
		return nil
	}
	ovo, err := metrics.TaskAUC(r.TestScores, labels, task, metrics.OvO, metrics.Macro)
	if err != nil {
		return err
	}
	r.OvO = &ovo
	return nil
}

// classScores are m's scores of ds's rows, row-major n×k, their softmax probabilities when
// probabilities is set.
func classScores(m nn.Model, ds *data.Dataset, probabilities bool) ([]float64, error) {
	s, err := scoreData(m, ds)
	if err != nil || !probabilities {
		return s, err
	}
	return crossentropy.Softmax(s, ds.Task().K())
}

// classTask is the task of k classes, or of k label columns.
func classTask(k int, multilabel bool) rocops.Task {
	if multilabel {
		return rocops.Labels(k)
	}
	return rocops.Classes(k)
}

// column returns column c of the row-major n×k scores.
func column(scores []float64, k, c int) []float64 {
	out := make([]float64, len(scores)/k)
	for i := range out {
		out[i] = scores[i*k+c]
	}
	return out
}

// indicator returns the 0/1 labels of class c one-vs-rest: 1 for the rows of class c of a
// multi-class ds, label column c of a multi-label one.
func indicator(ds *data.Dataset, c int) []float64 {
	out := make([]float64, ds.Rows)
	k := ds.Task().LabelsPerRow()
	for i := range out {
		switch {
		case ds.Labels != nil:
			out[i] = ds.Y[i*k+c]
		case int(ds.Y[i]) == c:
			out[i] = 1
		}
	}
	return out
}

// mean is the mean of f over the classes of m.
func (m *classMeasurement) mean(f func(*classFigures) float64) float64 {
	var s float64
	for c := range m.Class {
		s += f(&m.Class[c])
	}
	return s / float64(len(m.Class))
}

// perClass lists f over the classes of m.
func (m *classMeasurement) perClass(f func(*classFigures) float64) []float64 {
	out := make([]float64, len(m.Class))
	for c := range m.Class {
		out[c] = f(&m.Class[c])
	}
	return out
}

// newClassResult is the result of the candidate best measured by the class measurement m,
// as newResult is for binary data: test_auc and test_auc_ovr are the macro one-vs-rest AUC,
// test_auc_ovo the macro one-vs-one AUC (multi-class), test_class_auc the per-class AUCs,
// test_pauc, test_tpr_at_fpr and the deployed rates the macro means of the per-class
// one-vs-rest figures; the single-split intervals and the binary deployed threshold are left
// null, and so are the comparisons with the first run, which compareWithFirst sets.
func newClassResult(best *Best, m *classMeasurement) Result {
	r := Result{
		Figures: Figures{TestAUC: m.OvR, TestAUCOvR: ptr(m.OvR), TestAUCOvO: m.OvO, TestAUCCI: m.OvRCI, TestAUCOvOCI: m.OvOCI,
			TestClassAUC:    m.perClass(func(f *classFigures) float64 { return f.AUC }),
			TestClassTPR:    m.perClass(func(f *classFigures) float64 { return f.TPR }),
			TestPAUC:        m.mean(func(f *classFigures) float64 { return f.PartialAUC }),
			TestTPR:         m.mean(func(f *classFigures) float64 { return f.TPR }),
			DeployedTestFPR: m.mean(func(f *classFigures) float64 { return f.TestFPR }),
			DeployedTestTPR: m.mean(func(f *classFigures) float64 { return f.TestTPR }),
			LearningRate:    best.LearningRate},
		BestEpoch: best.Epoch(), Diagnostics: diagnosesOf(best.History),
		TestScores: m.TestScores, ScoresHash: hashScores(m.TestScores), Classes: m,
	}
	r.Phases, r.KeptPhases = phasesOf(best.History)
	r.ValFPR = m.mean(func(f *classFigures) float64 { return f.ValFPR })
	r.ValTPR = m.mean(func(f *classFigures) float64 { return f.ValTPR })
	if len(m.Class) > 0 && m.Class[0].TestFPRCI != nil { // with a confidence
		r.DeployedClassTestFPR = m.perClass(func(f *classFigures) float64 { return f.TestFPR })
		r.DeployedClassTestTPR = m.perClass(func(f *classFigures) float64 { return f.TestTPR })
		for c := range m.Class {
			f := &m.Class[c]
			r.DeployedClassTestFPRCI = append(r.DeployedClassTestFPRCI, *f.TestFPRCI)
			r.DeployedClassTestTPRCI = append(r.DeployedClassTestTPRCI, *f.TestTPRCI)
		}
	}
	thresholds := m.perClass(func(f *classFigures) float64 { return f.Threshold })
	r.DeployedThresholds = make([]*float64, len(thresholds))
	for c, t := range thresholds {
		if !math.IsInf(t, 1) {
			r.DeployedThresholds[c] = &thresholds[c]
		}
	}
	return r
}

// usesProbabilities reports whether best's model is measured and deployed on the softmax
// probabilities of its outputs: a multi-class model whose kept weights the softmax
// cross-entropy trained (train.History.Probabilities), whose outputs are logits defined up to
// a shift per row.
func usesProbabilities(best *Best, sp *Split) bool {
	return sp.Train.Classes != nil && best.History != nil && best.History.Probabilities
}
