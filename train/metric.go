package train

import (
	"fmt"

	"github.com/rocops/rocops/metrics"
)

// Metric scores a model on validation data; larger is better. The zero value is AUC.
type Metric struct {
	kind metricKind
	at   float64
}

type metricKind int

const (
	aucMetric metricKind = iota
	pAUCMetric
	tprMetric
	tnrMetric
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

func (m Metric) String() string {
	switch m.kind {
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

// check reports a rate outside the metric's range.
func (m Metric) check() error {
	switch m.kind {
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
