package aucm_test

import (
	"fmt"

	"github.com/rocops/rocops/ops/aucm"
)

// Raw scores 0 for both classes give h = σ(0) = ½ everywhere. At LibAUC's start a = b = α = 0
// the loss is E₊[(½)²] + E₋[(½)²] = 0.5. At the saddle point a = b = ½ the variances vanish,
// E₊h − E₋h = 0 and α = m = 1, so the saddle value is (1 − 0)² = 1.
func ExampleEvaluate() {
	scores := []float64{0, 0, 0, 0}
	labels := []float64{1, 0, 1, 0}
	f, err := aucm.Evaluate(scores, labels, 0, 0, 0, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	opt, err := aucm.Optimum(scores, labels, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	atSaddle, err := aucm.Evaluate(scores, labels, 0.5, 0.5, 1, aucm.Config{})
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
	dz, da, db, dalpha, _, err := aucm.Gradient([]float64{0, 0, 0, 0}, []float64{1, 0, 1, 0}, 0, 0, 0, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dz, da, db, dalpha)
	// Output:
	// [0.125 0.125 0.125 0.125] -1 -1 2
}
