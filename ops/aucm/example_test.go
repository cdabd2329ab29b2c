package aucm_test

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/aucm"
)

// Raw scores 0 for both classes give h = σ(0) = ½ everywhere. At LibAUC's start a = b = α = 0
// the loss is E₊[(½)²] + E₋[(½)²] = 0.5. At the saddle point a = b = ½ the variances vanish,
// E₊h − E₋h = 0 and α = m = 1, so the saddle value is (1 − 0)² = 1.
func ExampleEvaluate() {
	scores := []float64{0, 0, 0, 0}
	labels := []float64{1, 0, 1, 0}
	zero := []float64{0} // a, b and α of the one column of binary data
	f, err := aucm.Evaluate(scores, labels, zero, zero, zero, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	opt, err := aucm.Optimum(scores, labels, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	half := []float64{0.5}
	atSaddle, err := aucm.Evaluate(scores, labels, half, half, []float64{1}, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("f at a=b=α=0: %.3f\nsaddle value: %.3f\nf at the saddle: %.3f\n", f, opt, atSaddle)
	// Output:
	// f at a=b=α=0: 0.500
	// saddle value: 1.000
	// f at the saddle: 1.000
}

// The derivatives at the start: ∂f/∂a = −2(E₊h − a) = −1 and ∂f/∂b = −1 pull a and b up
// towards the class means, and ∂f/∂α = 2(m + E₋h − E₊h) − 2α = 2 pushes α up; each score
// gets (2/|B_c|)(h − a ∓ α)·σ′(0) = (2/2)(½)(¼) = 0.125.
func ExampleGradient() {
	zero := []float64{0}
	dz, da, db, dalpha, _, err := aucm.Gradient([]float64{0, 0, 0, 0}, []float64{1, 0, 1, 0}, zero, zero, zero, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dz, da, db, dalpha)
	// Output:
	// [0.125 0.125 0.125 0.125] [-1] [-1] [2]
}

// Three rows of three classes, every raw score 0 (h = ½), at a = b = α = 0 per class: each
// column has one positive and two negatives, so f_c = (½)² + (½)² = 0.5 and F, their mean, is
// 0.5. Every derivative is its column's binary one times 1/3: ∂F/∂a_c = ∂F/∂b_c =
// (1/3)(−2·½) = −1/3 and ∂F/∂α_c = (1/3)·2(1 + ½ − ½) = 2/3; a positive's score gets
// (1/3)(2/1)(½)(¼) = 1/12 and a negative's (1/3)(2/2)(½)(¼) = 1/24.
func ExampleGradient_classes() {
	scores := make([]float64, 9) // row-major 3×3
	labels := []float64{0, 1, 2} // class indices
	zero := []float64{0, 0, 0}   // a, b and α of each column
	cfg := aucm.Config{Task: rocops.Classes(3)}
	dz, da, db, dalpha, f, err := aucm.Gradient(scores, labels, zero, zero, zero, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("F = %.3f\nrow 0: %.4f\nda %.4f\ndb %.4f\ndα %.4f\n", f, dz[:3], da, db, dalpha)
	// Output:
	// F = 0.500
	// row 0: [0.0833 0.0417 0.0417]
	// da [-0.3333 -0.3333 -0.3333]
	// db [-0.3333 -0.3333 -0.3333]
	// dα [0.6667 0.6667 0.6667]
}
