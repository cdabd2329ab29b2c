package rocbeam

import (
	"errors"
	"math"

	"github.com/rocops/rocops/metrics"
)

// MaxROCPoints bounds the points of the ROC curve in metrics.json.
const MaxROCPoints = 10_000

// Report is metrics.json: the figures of all the rows evaluated, each equal to what package
// metrics computes in process on the same scores and labels.
type Report struct {
	N         int `json:"n"`         // rows
	Positives int `json:"positives"` // rows labelled 1
	// AUC is metrics.AUC, ties counting ½; AUCVariance DeLong's variance of it (metrics.DeLong)
	// and AUCCI95 the interval AUC ± Φ⁻¹(0.975)·√Var clipped to [0, 1] (metrics.AUCInterval95), as pROC clips it; both null
	// with fewer than two rows of a class.
	AUC         float64     `json:"auc"`
	AUCVariance *float64    `json:"auc_variance"`
	AUCCI95     *[2]float64 `json:"auc_ci95"`
	// Alpha is the false-positive rate α of the next two figures: TPRAtFPR is
	// metrics.TPRAtFPR(α), the ROC curve interpolated at α, and PAUC metrics.PartialAUC(α), the
	// McClish-standardised partial area up to α (scikit-learn's roc_auc_score(max_fpr=α)).
	Alpha    float64 `json:"alpha"`
	TPRAtFPR float64 `json:"tpr_at_fpr"`
	PAUC     float64 `json:"pauc"`
	// The deployed operating point, with a model: its sidecar's threshold t, and the false- and
	// true-positive rates of flagging score ≥ t measured on these rows (metrics.Curve.RatesAt).
	// DeployedThreshold is null when t is +Inf (the model flags nothing; both rates 0). All
	// three are null without a model, unless a confidence chose the threshold on these rows.
	DeployedThreshold *float64 `json:"deployed_threshold"`
	DeployedFPR       *float64 `json:"deployed_fpr"`
	DeployedTPR       *float64 `json:"deployed_tpr"`
	// DeployedConfidence, with Config.Confidence, is that confidence: the deployed threshold is
	// then the Neyman–Pearson umbrella threshold of these rows at α (metrics.ThresholdNP), the
	// rates those of flagging score ≥ it here. Left out without a confidence.
	DeployedConfidence float64 `json:"deployed_confidence,omitempty"`
	// ROC is the curve of metrics.ROC thinned to at most MaxROCPoints points by
	// metrics.ThinROC, its first (0, 0) and last (1, 1) points exact.
	ROC Curve `json:"roc"`

	// For a multi-class model (SummarizeClasses): AUCOvO is Hand and Till's macro one-vs-one
	// AUC, and Classes are each class's one-vs-rest figures, whose macro means AUC, TPRAtFPR,
	// PAUC and the deployed rates above are; both left out for a binary model.
	AUCOvO  *float64      `json:"auc_ovo,omitempty"`
	Classes []ClassReport `json:"classes,omitempty"`
}

// Curve is a ROC curve for plotting: points (FPR[k], TPR[k]).
type Curve struct {
	FPR []float64 `json:"fpr"`
	TPR []float64 `json:"tpr"`
}

// Summarize computes the Report of counts at false-positive rate alpha ∈ (0, 1], with the
// deployed threshold when threshold is not nil.
func Summarize(c *metrics.Curve, alpha float64, threshold *float64) (Report, error) {
	r := Report{N: c.N(), Positives: c.Positives(), AUC: c.AUC(), Alpha: alpha}
	var err error
	if r.PAUC, err = c.PartialAUC(alpha); err != nil {
		return Report{}, err
	}
	if r.TPRAtFPR, err = c.TPRAtFPR(alpha); err != nil {
		return Report{}, err
	}
	switch auc, v, err := c.DeLong(); {
	case errors.Is(err, metrics.ErrTooFew):
	case err != nil:
		return Report{}, err
	default:
		lo, hi := metrics.AUCInterval95(auc, v)
		r.AUCVariance = &v
		r.AUCCI95 = &[2]float64{lo, hi}
	}
	if threshold != nil {
		fpr, tpr := c.RatesAt(*threshold)
		r.DeployedFPR, r.DeployedTPR = &fpr, &tpr
		if !math.IsInf(*threshold, 1) {
			t := *threshold
			r.DeployedThreshold = &t
		}
	}
	fpr, tpr, _ := c.ROC()
	if r.ROC.FPR, r.ROC.TPR, err = metrics.ThinROC(fpr, tpr, MaxROCPoints); err != nil {
		return Report{}, err
	}
	return r, nil
}
