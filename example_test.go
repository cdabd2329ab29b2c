package rocops_test

import (
	"fmt"
	"log"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/ops/kdequantile"
)

// A linear scorer s = X·W trained by gradient descent on the KDE-quantile loss at α = 0.25:
// the smoothed false-negative rate at the threshold where the smoothed false-positive rate is
// 25%. The loss node sits in an ordinary Gorgonia graph and gorgonia.Grad differentiates it.
func Example() {
	g := gorgonia.NewGraph()
	// Eight examples with two features; the first feature separates the classes.
	x := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(8, 2), gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(8, 2), tensor.WithBacking([]float64{
			2.0, 0.3, 1.5, -0.4, 1.1, 0.9, 0.2, 0.1, // positives
			-0.3, 0.8, -1.2, -0.5, 0.4, 1.2, -0.9, 0.2, // negatives
		}))))
	y := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(8), gorgonia.WithName("y"),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{1, 1, 1, 1, 0, 0, 0, 0}))))
	w := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 1), gorgonia.WithName("w"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(2, 1), tensor.WithBacking([]float64{-0.5, 1}))))

	scores, err := gorgonia.Mul(x, w) // shape (8, 1): the ops take it as the vector of 8 scores
	if err != nil {
		log.Fatal(err)
	}
	loss, err := kdequantile.Loss(scores, y, kdequantile.Config{Alpha: 0.25, V0: 4, V1: 4})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := gorgonia.Grad(loss, w); err != nil {
		log.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(w))
	defer vm.Close()
	solver := gorgonia.NewVanillaSolver(gorgonia.WithLearnRate(0.5))
	for step := 0; step <= 200; step++ {
		vm.Reset()
		if err := vm.RunAll(); err != nil {
			log.Fatal(err)
		}
		if step%100 == 0 {
			fmt.Printf("step %3d: smoothed FNR at FPR 0.25 = %.3f\n", step, loss.Value().Data())
		}
		if err := solver.Step(gorgonia.NodesToValueGrads(gorgonia.Nodes{w})); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// step   0: smoothed FNR at FPR 0.25 = 0.983
	// step 100: smoothed FNR at FPR 0.25 = 0.003
	// step 200: smoothed FNR at FPR 0.25 = 0.001
}
