package metrics_test

import (
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/metrics"
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

// DeLong's variance gives an approximate 95% interval for the AUC. On the four rows of
// scikit-learn's example both sets of structural components are {½, 1}, with sample variance
// ⅛ each, so Var = ⅛/2 + ⅛/2 = ⅛.
func ExampleDeLong() {
	labels := []float64{0, 0, 1, 1}
	scores := []float64{0.1, 0.4, 0.35, 0.8}
	auc, variance, err := metrics.DeLong(scores, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("AUC %.2f, variance %.3f, 95%% interval %.2f ± %.2f\n", auc, variance, auc, 1.96*math.Sqrt(variance))
	// Output: AUC 0.75, variance 0.125, 95% interval 0.75 ± 0.69
}

// The threshold to deploy at a false-positive rate of at most ¼: flagging score ≥ 0.7 keeps
// every negative unflagged and catches two positives of three; lowering it to 0.6 would flag
// one negative in four.
func ExampleThresholdAtFPR() {
	labels := []float64{0, 0, 0, 0, 1, 1, 1}
	scores := []float64{0.1, 0.2, 0.3, 0.6, 0.5, 0.7, 0.9}
	t, fpr, tpr, err := metrics.ThresholdAtFPR(scores, labels, 0.2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("flag score ≥ %v: FPR %.2f, TPR %.2f\n", t, fpr, tpr)
	// Output: flag score ≥ 0.7: FPR 0.00, TPR 0.67
}

// A bootstrap interval for the TPR at FPR 0.1, on simulated data.
func ExampleCurve_Bootstrap() {
	var scores, labels []float64
	for i := range 200 {
		y := float64(i % 4 / 3) // one row in four is positive
		scores = append(scores, y+math.Sin(float64(i*i)))
		labels = append(labels, y)
	}
	c, err := metrics.NewCurve(scores, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	tprAt := func(c *metrics.Curve) (float64, error) { return c.TPRAtFPR(0.1) }
	tpr, _ := tprAt(c)
	lo, hi, err := c.Bootstrap(tprAt, 1000, 0.95, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("TPR@FPR=0.1 %.2f, 95%% interval [%.2f, %.2f]\n", tpr, lo, hi)
	// Output: TPR@FPR=0.1 0.50, 95% interval [0.38, 0.64]
}

// The one-vs-one case of scikit-learn's test_multiclass_ovo_roc_auc_toydata: four rows of three
// classes' scores, row-major, and each row's class as a float.
func ExampleTaskAUC() {
	scores := []float64{
		0.1, 0.8, 0.1,
		0.3, 0.4, 0.3,
		0.35, 0.5, 0.15,
		0, 0.2, 0.8,
	}
	labels := []float64{0, 1, 0, 2}
	task := rocops.Classes(3)
	for _, m := range []metrics.Method{metrics.OvO, metrics.OvR} {
		for _, avg := range []metrics.Average{metrics.Macro, metrics.Weighted} {
			auc, err := metrics.TaskAUC(scores, labels, task, m, avg)
			if err != nil {
				fmt.Println(err)
				return
			}
			fmt.Printf("%v %v: %.4f\n", m, avg, auc)
		}
	}
	_, err := metrics.TaskAUC(scores, labels, task, metrics.OvO, metrics.Micro)
	fmt.Println(err)
	aucs, _ := metrics.ClassAUCs(scores, labels, task)
	fmt.Printf("per class: %.4f\n", aucs)
	// Output:
	// ovo macro: 0.7500
	// ovo weighted: 0.7188
	// ovr macro: 0.6944
	// ovr weighted: 0.7083
	// metrics: invalid setting: average micro with ovo; want macro or weighted for ovo, or micro for ovr
	// per class: [0.7500 0.3333 1.0000]
}

// Two labels per row, the task Labels(2).
func ExampleTaskAUC_labels() {
	// Label 0: positives .9, .2 against negatives .4, .6, AUC 2/4; label 1:
	// positives .8, .7 above negatives .1, .3, AUC 1. Raveled, the positives .9, .8, .7 beat all
	// four negatives and .2 beats .1: 13/16.
	scores := []float64{
		0.9, 0.8,
		0.4, 0.1,
		0.6, 0.7,
		0.2, 0.3,
	}
	labels := []float64{
		1, 1,
		0, 0,
		0, 1,
		1, 0,
	}
	for _, avg := range []metrics.Average{metrics.Macro, metrics.Weighted, metrics.Micro} {
		auc, err := metrics.TaskAUC(scores, labels, rocops.Labels(2), metrics.OvR, avg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v: %.4f\n", avg, auc)
	}
	// Output:
	// macro: 0.7500
	// weighted: 0.7500
	// micro: 0.8125
}

// Rank the scores once and read several figures off the curve (the example of
// scikit-learn's roc_auc_score documentation, as for AUC).
func ExampleNewCurve() {
	labels := []float64{0, 0, 1, 1}
	scores := []float64{0.1, 0.4, 0.35, 0.8}
	c, err := metrics.NewCurve(scores, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	tpr, err := c.TPRAtFPR(0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fpr, tprAt := c.RatesAt(0.35) // flag the rows scoring at least 0.35
	fmt.Printf("AUC %.2f, TPR at FPR 0.5 %.2f; at 0.35: FPR %.2f, TPR %.2f\n", c.AUC(), tpr, fpr, tprAt)
	// Output: AUC 0.75, TPR at FPR 0.5 1.00; at 0.35: FPR 0.50, TPR 1.00
}

// A curve of nine points thinned to at most six: δ = 2/(6 − 2) = 0.5, so between the ends a
// point is kept when its Δfpr + Δtpr from the last point kept is at least 0.5.
func ExampleThinROC() {
	fpr := []float64{0, 0, 0, 0.25, 0.25, 0.5, 0.75, 1, 1}
	tpr := []float64{0, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1, 1}
	f, t, err := metrics.ThinROC(fpr, tpr, 6)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f)
	fmt.Println(t)
	// Output:
	// [0 0 0.25 0.75 1]
	// [0 0.5 0.75 1 1]
}
