package kdequantile_test

import (
	"fmt"
	"math"

	"github.com/rocops/rocops/ops/kdequantile"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The loss of a score vector in a graph, differentiated by gorgonia.Grad like any other cost.
func ExampleLoss() {
	g := gorgonia.NewGraph()
	scores := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("scores"),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{2.1, 0.3, -0.4, 1.2, -1.5, 0.8, -0.2, 0.5}))))
	labels := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("labels"),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{1, 0, 0, 1, 0, 0, 0, 1}))))

	loss, err := kdequantile.Loss(scores, labels, kdequantile.Config{Alpha: 0.25})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := gorgonia.Grad(loss, scores); err != nil {
		fmt.Println(err)
		return
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		fmt.Println(err)
		return
	}
	grad, err := scores.Grad()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("L = %.4f\n", loss.Value().Data())
	fmt.Printf("∂L/∂f = %.4f\n", grad.Data())
	// Output:
	// L = 0.2206
	// ∂L/∂f = [-0.0127 0.1244 0.0380 -0.1058 0.0022 0.1163 0.0590 -0.2214]
}

// Evaluate and Gradient work on slices, without a graph.
func ExampleGradient() {
	scores := []float64{2.1, 0.3, -0.4, 1.2, -1.5, 0.8, -0.2, 0.5}
	labels := []float64{1, 0, 0, 1, 0, 0, 0, 1}
	grad, r, err := kdequantile.Gradient(scores, labels, kdequantile.Config{Alpha: 0.25, V0: 4, V1: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("τ = %.4f, L = %.4f\n", r.Tau, r.Loss)
	fmt.Printf("∂L/∂f = %.4f\n", grad)

	// Gradient balance (docs/kde-quantile.md): the classes' gradients cancel.
	var negatives, positives float64
	for i, g := range grad {
		if labels[i] == 1 {
			positives += g
		} else {
			negatives += g
		}
	}
	fmt.Printf("Σ over negatives %.4f, over positives %.4f\n", negatives, positives)
	// Output:
	// τ = 0.4543, L = 0.1680
	// ∂L/∂f = [-0.0018 0.1857 0.0251 -0.0612 0.0003 0.1308 0.0517 -0.3306]
	// Σ over negatives 0.3936, over positives -0.3936
}

// The mirrored loss fixes the true-positive rate: at τ the smoothed recall is 0.9 and the loss
// is the smoothed false-positive rate there (both checked by hand from the definitions).
func ExampleEvaluate_recall() {
	scores := []float64{2.1, 0.3, -0.4, 1.2, -1.5, 0.8, -0.2, 0.5}
	labels := []float64{1, 0, 0, 1, 0, 0, 0, 1}
	r, err := kdequantile.Evaluate(scores, labels, kdequantile.Config{Recall: 0.9, V0: 4, V1: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	tpr := 0.0
	for i, f := range scores {
		if labels[i] == 1 {
			tpr += 1 / (1 + math.Exp(-r.V1*(f-r.Tau))) / 3
		}
	}
	fmt.Printf("τ = %.4f, smoothed TPR = %.4f, smoothed FPR = %.4f\n", r.Tau, tpr, r.Loss)
	// Output:
	// τ = 0.2597, smoothed TPR = 0.9000, smoothed FPR = 0.3283
}
