package metrics_test

import (
	"fmt"

	"github.com/rocops/rocops/train/metrics"
)

// The example of scikit-learn's roc_auc_score and roc_curve documentation.
func ExampleAUC() {
	labels := []float64{0, 0, 1, 1}
	scores := []float64{0.1, 0.4, 0.35, 0.8}
	auc, err := metrics.AUC(scores, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("AUC %.2f\n", auc)
	// Output: AUC 0.75
}

func ExampleTPRAtFPR() {
	labels := []float64{0, 0, 1, 1}
	scores := []float64{0.1, 0.4, 0.35, 0.8}
	for _, fpr := range []float64{0, 0.25, 0.5} {
		tpr, err := metrics.TPRAtFPR(scores, labels, fpr)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("TPR at FPR %.2f: %.2f\n", fpr, tpr)
	}
	// Output:
	// TPR at FPR 0.00: 0.50
	// TPR at FPR 0.25: 0.50
	// TPR at FPR 0.50: 1.00
}

func ExamplePartialAUC() {
	labels := []float64{0, 0, 1, 1}
	scores := []float64{0.1, 0.4, 0.35, 0.8}
	pauc, err := metrics.PartialAUC(scores, labels, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("partial AUC up to FPR 0.5: %.4f\n", pauc)
	// Output: partial AUC up to FPR 0.5: 0.6667
}

func ExampleROC() {
	labels := []float64{0, 0, 1, 1}
	scores := []float64{0.1, 0.4, 0.35, 0.8}
	fpr, tpr, thresholds, err := metrics.ROC(scores, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k := range fpr {
		fmt.Printf("score ≥ %v: FPR %.1f, TPR %.1f\n", thresholds[k], fpr[k], tpr[k])
	}
	// Output:
	// score ≥ +Inf: FPR 0.0, TPR 0.0
	// score ≥ 0.8: FPR 0.0, TPR 0.5
	// score ≥ 0.4: FPR 0.5, TPR 0.5
	// score ≥ 0.35: FPR 0.5, TPR 1.0
	// score ≥ 0.1: FPR 1.0, TPR 1.0
}

func ExampleAUC_errors() {
	_, err := metrics.AUC([]float64{0.3, 0.9}, []float64{1, 1})
	fmt.Println(err)
	// Output: metrics: batch has no negatives: all 2 labels are 1
}
