package pairwise_test

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/pairwise"
)

// Three rows of three classes, row i of class i, each scoring 2 for its own class and 0 for
// the others. One-vs-rest, class c's column has one positive at 2 and two negatives at 0:
// margins x = 2, square terms (1 − 2)² = 1, so L = 1; the weight 2(m − x) = −2 of each pair
// pushes the positive by −(−2 − 2)/(1·2) = 2 and each negative by −2/2 = −1, over k = 3
// classes: row 0's gradient is [2/3, −1/3, −1/3]. One-vs-one, each of the 6 ordered pairs has
// one pair at x = 2: L = 1 again, and s_00 gets +2 from the comparisons (0, 1) and (0, 2)
// while s_01 and s_02 get −2 from (1, 0) and (2, 0), over 6: the same gradient.
func ExampleGradient_classes() {
	scores := []float64{
		2, 0, 0,
		0, 2, 0,
		0, 0, 2,
	}
	labels := []float64{0, 1, 2} // class indices
	for _, ovo := range []bool{false, true} {
		cfg := pairwise.Config{Surrogate: pairwise.Square, Task: rocops.Classes(3), OvO: ovo}
		grad, loss, err := pairwise.Gradient(scores, labels, cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("ovo=%v: L = %.4f, row 0: %.4f\n", ovo, loss, grad[:3])
	}
	_, _, err := pairwise.Gradient(scores, []float64{0, 2, 2}, pairwise.Config{Task: rocops.Classes(3)})
	fmt.Println(err)
	// Output:
	// ovo=false: L = 1.0000, row 0: [0.6667 -0.3333 -0.3333]
	// ovo=true: L = 1.0000, row 0: [0.6667 -0.3333 -0.3333]
	// pairwise: batch has only one class: class 1 has no rows among 3
}
