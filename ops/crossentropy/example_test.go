package crossentropy_test

import (
	"fmt"

	"github.com/rocops/rocops/ops/crossentropy"
)

// Two logits: 0 for a positive (log 2 ≈ 0.6931) and 2 for a negative (softplus(2) ≈ 2.1269),
// so L ≈ 1.4100; the gradients are (σ(0) − 1)/2 = −0.25 and σ(2)/2 ≈ 0.4404.
func ExampleGradient() {
	g, loss, err := crossentropy.Gradient([]float64{0, 2}, []float64{1, 0})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("L = %.4f, ∂L/∂z = [%.4f %.4f]\n", loss, g[0], g[1])
	// Output: L = 1.4100, ∂L/∂z = [-0.2500 0.4404]
}
