package train

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/ops/crossentropy"
)

// Metric scores a model on validation data; larger is better. The zero value is AUC, which on
// multi-class and multi-label data is MacroAUC(metrics.OvR).
//
// A multi-class model is scored on the scores its loss defines. After an epoch of the softmax
// cross-entropy ([Softmax]: also a nil Config.Loss on multi-class data, and every warm-up and
// intervention epoch there) the model's k outputs z_i1…z_ik are logits, and the metric ranks
// their softmax probabilities p_ic = e^{z_ic}/Σ_d e^{z_id} (crossentropy.Softmax), as
// scikit-learn's roc_auc_score ranks predict_proba's columns. The loss fixes the logits only up
// to one constant per row (adding it leaves p unchanged), so logits of different rows share no
// scale: z_ic can be larger in one row than in another while p_ic is smaller, and ranking the
// logits understates the model's AUC. After an epoch of any other loss (a pairwise one, a
// multi-label or a binary loss) the metric ranks the raw outputs: the per-label and binary
// sigmoid are monotone in each score, so their probabilities rank as the outputs do.
// History.Probabilities records which scores the kept weights are measured on.
type Metric struct {
	kind   metricKind
	at     float64
	method metrics.Method
}

type metricKind int

const (
	aucMetric metricKind = iota
	pAUCMetric
	tprMetric
	tnrMetric
	macroMetric
)

// AUC is the area under the ROC curve.
func AUC() Metric { return Metric{} }

// PartialAUC is the McClish-standardised area under the ROC curve for false-positive rates
// up to maxFPR (metrics.PartialAUC).
func PartialAUC(maxFPR float64) Metric { return Metric{kind: pAUCMetric, at: maxFPR} }

// TPRAtFPR is the true-positive rate at false-positive rate fpr (metrics.TPRAtFPR).
func TPRAtFPR(fpr float64) Metric { return Metric{kind: tprMetric, at: fpr} }

// TNRAtTPR is the true-negative rate 1 − FPR at true-positive rate tpr, where FPR is
// metrics.FPRAtTPR: the metric of the mirrored operating point (kdequantile.Config.Recall),
// turned into one where larger is better.
func TNRAtTPR(tpr float64) Metric { return Metric{kind: tnrMetric, at: tpr} }

// MacroAUC is the macro-averaged multi-class AUC of method m, metrics.TaskAUC with
// metrics.Macro: the mean over classes of each class's one-vs-rest AUC (metrics.OvR), or
// Hand and Till's mean over pairs of classes (metrics.OvO), of the model's softmax
// probabilities after a softmax cross-entropy epoch and of its raw outputs after any other
// (see [Metric]). On multi-label data MacroAUC(OvR) is the mean over label columns of each
// column's AUC of the raw outputs (metrics.TaskAUC of the Labels task); OvO is ErrTask there. On binary data
// MacroAUC is ErrTask too: binary data takes the binary metrics ([AUC] and the others).
func MacroAUC(m metrics.Method) Metric { return Metric{kind: macroMetric, method: m} }

func (m Metric) String() string {
	switch m.kind {
	case macroMetric:
		return fmt.Sprintf("macro AUC (%v)", m.method)
	case pAUCMetric:
		return fmt.Sprintf("pAUC@%g", m.at)
	case tprMetric:
		return fmt.Sprintf("TPR@FPR=%g", m.at)
	case tnrMetric:
		return fmt.Sprintf("TNR@TPR=%g", m.at)
	}
	return "AUC"
}

func (m Metric) eval(scores, labels []float64) (float64, error) {
	switch m.kind {
	case pAUCMetric:
		return metrics.PartialAUC(scores, labels, m.at)
	case tprMetric:
		return metrics.TPRAtFPR(scores, labels, m.at)
	case tnrMetric:
		fpr, err := metrics.FPRAtTPR(scores, labels, m.at)
		return 1 - fpr, err
	}
	return metrics.AUC(scores, labels)
}

// evalData returns the metric of the outputs of a model on ds's rows (ds.Task().K() per row).
// With probs set, the outputs of multi-class data are logits, ranked by their softmax
// probabilities (see [Metric]); probs does not apply to other data.
func (m Metric) evalData(scores []float64, ds *data.Dataset, probs bool) (float64, error) {
	t := ds.Task()
	switch t.Kind() {
	case rocops.Binary:
		return m.eval(scores, ds.Y)
	case rocops.Multiclass:
		if probs {
			var err error
			if scores, err = crossentropy.Softmax(scores, t.K()); err != nil {
				return 0, err
			}
		}
	}
	return metrics.TaskAUC(scores, ds.Y, t, m.method, metrics.Macro)
}

// checkTask reports, as ErrTask, a metric that does not apply to data of task t.
func (m Metric) checkTask(t rocops.Task) error {
	switch k := t.Kind(); {
	case k == rocops.Binary && m.kind == macroMetric:
		return fmt.Errorf("%w: %v needs multi-class or multi-label data", ErrTask, m)
	case k != rocops.Binary && m.kind != aucMetric && m.kind != macroMetric:
		return fmt.Errorf("%w: %v is a binary metric; %v data takes MacroAUC", ErrTask, m, k)
	case k == rocops.Multilabel && m.method == metrics.OvO:
		return fmt.Errorf("%w: %v: multi-label data has no one-vs-one AUC", ErrTask, m)
	}
	return nil
}

// check reports a rate outside the metric's range or an unknown method.
func (m Metric) check() error {
	switch m.kind {
	case macroMetric:
		if m.method != metrics.OvR && m.method != metrics.OvO {
			return configError("MacroAUC needs metrics.OvR or metrics.OvO, got %d", int(m.method))
		}
	case pAUCMetric:
		if !(m.at > 0 && m.at <= 1) {
			return configError("partial AUC needs 0 < maxFPR ≤ 1, got %v", m.at)
		}
	case tprMetric:
		if !(m.at >= 0 && m.at <= 1) {
			return configError("TPR at FPR needs 0 ≤ fpr ≤ 1, got %v", m.at)
		}
	case tnrMetric:
		if !(m.at >= 0 && m.at <= 1) {
			return configError("TNR at TPR needs 0 ≤ tpr ≤ 1, got %v", m.at)
		}
	}
	return nil
}

// MetricFor is the validation metric of recipes trained on data of task t: metric itself on
// binary data, else MacroAUC, one-vs-one when a recipe trains the one-vs-one pairwise loss and
// one-vs-rest (label-wise on k labels) otherwise.
func MetricFor(recipes []Recipe, t rocops.Task, metric Metric) Metric {
	if t.Kind() == rocops.Binary {
		return metric
	}
	for _, r := range recipes {
		for _, p := range r {
			if l, ok := p.Loss.(Pairwise); ok && l.Config.OvO {
				return MacroAUC(metrics.OvO)
			}
		}
	}
	return MacroAUC(metrics.OvR)
}
