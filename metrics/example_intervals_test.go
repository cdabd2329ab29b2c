package metrics_test

import (
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/metrics"
)

// An AUC of 0.95 with variance 0.0025 (standard error 0.05): 0.95 ± 1.96·0.05 = [0.852, 1.048],
// clipped to [0.852, 1].
func ExampleAUCInterval95() {
	lo, hi := metrics.AUCInterval95(0.95, 0.0025)
	fmt.Printf("[%.4f, %.4f]\n", lo, hi)
	// Output: [0.8520, 1.0000]
}

// The example of scikit-learn's roc_curve documentation. The ROC polyline runs (0, 0) → (0,
// 0.5) → (0.5, 0.5) → (0.5, 1) → (1, 1): half the positives are caught at FPR 0, the other half
// only once the curve reaches FPR 0.5, so every TPR above 0.5 costs FPR 0.5.
func ExampleFPRAtTPR() {
	labels := []float64{0, 0, 1, 1}
	scores := []float64{0.1, 0.4, 0.35, 0.8}
	for _, tpr := range []float64{0.5, 0.75, 1} {
		fpr, err := metrics.FPRAtTPR(scores, labels, tpr)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("FPR at TPR %.2f: %.2f\n", tpr, fpr)
	}
	// Output:
	// FPR at TPR 0.50: 0.00
	// FPR at TPR 0.75: 0.50
	// FPR at TPR 1.00: 0.50
}

// A screening threshold that keeps recall ≥ 0.9 with probability 0.95 over fresh positives:
// with 100 validation positives scored 0, 1, …, 99 (and one negative) the order is that of
// ThresholdNP at n = 100 and α = 0.1, k* = 96, so t = p(100 + 1 − 96) = p(5) = 4 and the rule
// misses the 4 positives below it: recall 0.96 on these positives.
func ExampleThresholdNPRecall() {
	scores := make([]float64, 101)
	labels := make([]float64, 101)
	for i := range 100 {
		scores[i], labels[i] = float64(i), 1
	}
	scores[100] = -10
	t, err := metrics.ThresholdNPRecall(scores, labels, 0.9, 0.05)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := metrics.NewCurve(scores, labels)
	_, tpr := c.RatesAt(t)
	fmt.Printf("flag score ≥ %v: recall %.2f\n", t, tpr)
	// Output: flag score ≥ 4: recall 0.96
}

// The AUC of each label column of the task Labels(2) (the data of ExampleTaskAUC_labels): label
// 0's positives .9, .2 against its negatives .4, .6 win 2 of 4 pairs; label 1's positives .8, .7
// sit above its negatives .1, .3.
func ExampleClassAUCs() {
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
	aucs, err := metrics.ClassAUCs(scores, labels, rocops.Labels(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f\n", aucs)
	// Output: [0.50 1.00]
}

// Two scorers of the same 200 simulated rows, b carrying twice a's noise: the paired interval
// of the difference in TPR at FPR 0.1 lies above 0, and a scorer against itself differs by
// exactly 0 in every resample.
func ExampleBootstrapPaired() {
	var a, b, labels []float64
	for i := range 200 {
		y := float64(i % 4 / 3) // one row in four is positive
		noise := math.Sin(float64(i * i))
		a = append(a, y+noise)
		b = append(b, y+2*noise)
		labels = append(labels, y)
	}
	tprAt := func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, 0.1) }
	d, lo, hi, err := metrics.BootstrapPaired(a, b, labels, tprAt, 1000, 0.95, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("a − b: %.2f [%.2f, %.2f]\n", d, lo, hi)
	d, lo, hi, _ = metrics.BootstrapPaired(a, a, labels, tprAt, 1000, 0.95, 1)
	fmt.Printf("a − a: %.2f [%.2f, %.2f]\n", d, lo, hi)
	// Output:
	// a − b: 0.22 [0.12, 0.34]
	// a − a: 0.00 [0.00, 0.00]
}

// A bootstrap interval for the accuracy of a three-class rule on 30 rows, ten of each class
// (row i of class i mod 3), stratified by class: the rule is right on every row except the six
// with i mod 5 = 0, so its accuracy on the rows themselves is 24/30 = 0.8; the normal
// approximation 0.8 ± 1.96·√(0.8·0.2/30) gives [0.66, 0.94].
func ExampleBootstrapRows() {
	const n = 30
	strata := make([]int, n)
	right := make([]bool, n)
	for i := range n {
		strata[i] = i % 3
		right[i] = i%5 != 0
	}
	accuracy := func(rows []int) (float64, error) {
		hits := 0
		for _, r := range rows {
			if right[r] {
				hits++
			}
		}
		return float64(hits) / float64(len(rows)), nil
	}
	v, lo, hi, err := metrics.BootstrapRows(strata, accuracy, 1000, 0.95, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("accuracy %.2f, 95%% interval [%.2f, %.2f]\n", v, lo, hi)
	// Output:
	// accuracy 0.80, 95% interval [0.63, 0.93]
}
