package metrics_test

import (
	"errors"
	"fmt"
	"math"
	"sort"

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

	t, _ := metrics.ThresholdNP(scores, labels, 0.1, 0.05)
	k := sort.SearchFloat64s(scores[:100], t) // k*: the negatives below t
	plain, _, _, _ := metrics.ThresholdAtFPR(scores, labels, 0.1)
	fmt.Printf("k* = %d: flag score > %v (t = %.6f); the plain rule flags score ≥ %v\n", k, scores[k-1], t, plain)

	_, err := metrics.ThresholdNP(scores[80:], labels[80:], 0.1, 0.05)
	fmt.Println(errors.Is(err, metrics.ErrTooFewNegatives), err)
	// Output:
	// k* = 96: flag score > 95 (t = 95.000000); the plain rule flags score ≥ 90
	// true metrics: too few negatives for the guarantee: 20 negatives, the guarantee at alpha = 0.1 with delta = 0.05 needs at least 29
}

// The umbrella threshold of a sharded evaluation, read off the merged counts per distinct score:
// the negatives of ExampleThresholdNP, scored 0, 1, …, 99, counted in two shards (the even
// scores and the odd ones), give the same threshold as the rows themselves.
func ExampleCurve_ThresholdNP() {
	var counts []metrics.ScoreCount
	for shard := range 2 {
		for i := shard; i < 100; i += 2 {
			counts = append(counts, metrics.ScoreCount{Score: float64(i), Neg: 1})
		}
	}
	counts = append(counts, metrics.ScoreCount{Score: 120, Pos: 1})
	c, _ := metrics.NewCurveFromCounts(counts)
	t, _ := c.ThresholdNP(0.1, 0.05)
	fpr, _ := c.RatesAt(t)
	fmt.Printf("flag score ≥ %.6f (above 95): FPR %.2f on these negatives\n", t, fpr)
	// Output:
	// flag score ≥ 95.000000 (above 95): FPR 0.04 on these negatives
}

// The exact 95% interval of a deployed rule's false-positive rate, 3 false positives among 100
// test negatives.
func ExampleClopperPearson() {
	lo, hi, _ := metrics.ClopperPearson(3, 100, 0.95)
	fmt.Printf("FPR 0.03 [%.4f, %.4f]\n", lo, hi)
	// Output:
	// FPR 0.03 [0.0062, 0.0852]
}

// The price of the guarantee at confidence 1 − δ = 0.95, by the number n of validation
// negatives: the smallest α any threshold can promise (1 − δ^(1/n)), and for three targets α
// the false-positive rate the threshold gives on the validation negatives themselves, (n −
// k*)/n, against α: the share of negatives the rule leaves unflagged beyond the plain one,
// which it pays for in true-positive rate. The negatives are scored 0, 1, …, n−1, as counts
// per distinct score, with one positive above them. "–" where no threshold keeps the promise.
func ExampleCurve_ThresholdNP_price() {
	const delta = 0.05
	fmt.Println("n (negatives)  smallest α  α=0.01  α=0.05   α=0.1")
	for _, n := range []int{20, 59, 100, 300, 1000, 3000, 10000, 100000} {
		counts := make([]metrics.ScoreCount, n+1)
		for i := range n {
			counts[i] = metrics.ScoreCount{Score: float64(i), Neg: 1}
		}
		counts[n] = metrics.ScoreCount{Score: float64(n), Pos: 1}
		c, _ := metrics.NewCurveFromCounts(counts)
		fmt.Printf("%13d  %10.2g", n, 1-math.Pow(delta, 1/float64(n)))
		for _, alpha := range []float64{0.01, 0.05, 0.1} {
			t, err := c.ThresholdNP(alpha, delta)
			if err != nil {
				fmt.Printf("  %6s", "–")
				continue
			}
			fpr, _ := c.RatesAt(t)
			fmt.Printf("  %6.4f", fpr)
		}
		fmt.Println()
	}
	// Output:
	// n (negatives)  smallest α  α=0.01  α=0.05   α=0.1
	//            20        0.14       –       –       –
	//            59        0.05       –  0.0000  0.0169
	//           100        0.03       –  0.0100  0.0400
	//           300      0.0099  0.0000  0.0267  0.0700
	//          1000       0.003  0.0040  0.0380  0.0840
	//          3000       0.001  0.0067  0.0433  0.0907
	//         10000      0.0003  0.0083  0.0463  0.0950
	//        100000       3e-05  0.0095  0.0489  0.0984
}
