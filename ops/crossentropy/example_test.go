package crossentropy_test

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/crossentropy"
)

// Two logits: 0 for a positive (log 2 ≈ 0.6931) and 2 for a negative (softplus(2) ≈ 2.1269),
// so L ≈ 1.4100; the gradients are (σ(0) − 1)/2 = −0.25 and σ(2)/2 ≈ 0.4404.
func ExampleGradient() {
	g, loss, err := crossentropy.Gradient([]float64{0, 2}, []float64{1, 0}, crossentropy.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("L = %.4f, ∂L/∂z = [%.4f %.4f]\n", loss, g[0], g[1])
	// Output: L = 1.4100, ∂L/∂z = [-0.2500 0.4404]
}

// Two rows of three classes' logits at ±1e3, where e^{1000} overflows float64: the loss of the
// first row is 1 + log(1 + e^{−1}) ≈ 1.313262 (label 2, one below the top logit), of the second
// log 3 ≈ 1.098612, and L is their mean.
func ExampleGradient_classes() {
	logits := []float64{
		1000, -1000, 999,
		-1000, -1000, -1000,
	}
	labels := []float64{2, 0} // class indices
	grad, loss, err := crossentropy.Gradient(logits, labels, crossentropy.Config{Task: rocops.Classes(3)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("loss %.6f\n", loss)
	fmt.Printf("grad %.4f\n", grad)
	// Output:
	// loss 1.205937
	// grad [0.3655 0.0000 -0.3655 -0.3333 0.1667 0.1667]
}
