package metrics_test

import (
	"errors"
	"fmt"

	"github.com/rocops/rocops/metrics"
)

// A threshold whose false-positive rate stays at or below α = 0.1 with probability 0.95 over
// fresh negatives: 100 validation negatives scored 0, 1, …, 99 (and one positive) put it above
// the 96th smallest negative (4 flagged), where the plain rule (ThresholdAtFPR) flags 10; with 20
// negatives no threshold keeps the promise.
func ExampleThresholdNP() {
	scores := make([]float64, 101)
	labels := make([]float64, 101)
	for i := range 100 {
		scores[i] = float64(i)
	}
	scores[100], labels[100] = 120, 1

	k, _ := metrics.NPOrder(100, 0.1, 0.05)
	t, _ := metrics.ThresholdNP(scores, labels, 0.1, 0.05)
	plain, _, _, _ := metrics.ThresholdAtFPR(scores, labels, 0.1)
	fmt.Printf("k* = %d: flag score > %v (t = %.6f); the plain rule flags score ≥ %v\n", k, scores[k-1], t, plain)

	_, err := metrics.ThresholdNP(scores[80:], labels[80:], 0.1, 0.05)
	fmt.Println(errors.Is(err, metrics.ErrTooFewNegatives), err)
	// Output:
	// k* = 96: flag score > 95 (t = 95.000000); the plain rule flags score ≥ 90
	// true metrics: too few negatives for the guarantee: 20 negatives, the guarantee at alpha = 0.1 with delta = 0.05 needs at least 29
}

// The exact 95% interval of a deployed rule's false-positive rate, 3 false positives among 100
// test negatives.
func ExampleClopperPearson() {
	lo, hi, _ := metrics.ClopperPearson(3, 100, 0.95)
	fmt.Printf("FPR 0.03 [%.4f, %.4f]\n", lo, hi)
	// Output:
	// FPR 0.03 [0.0062, 0.0852]
}
