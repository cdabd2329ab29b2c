package kdequantile_test

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
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

// GradientInto overwrites one buffer reused from step to step; it is Gradient without the
// allocation, to the bit.
func ExampleGradientInto() {
	scores := []float64{2.1, 0.3, -0.4, 1.2, -1.5, 0.8, -0.2, 0.5}
	labels := []float64{1, 0, 0, 1, 0, 0, 0, 1}
	cfg := kdequantile.Config{Alpha: 0.25, V0: 4, V1: 4}
	grad := make([]float64, len(scores))
	for range 2 { // a step's buffer, reused
		if _, err := kdequantile.GradientInto(grad, scores, labels, cfg); err != nil {
			fmt.Println(err)
			return
		}
	}
	want, _, err := kdequantile.Gradient(scores, labels, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("∂L/∂f = %.4f\n", grad)
	fmt.Println("same as Gradient:", slices.Equal(grad, want))
	// Output:
	// ∂L/∂f = [-0.0018 0.1857 0.0251 -0.0612 0.0003 0.1308 0.0517 -0.3306]
	// same as Gradient: true
}

// The threshold τ alone as a graph node. At τ the smoothed false-positive rate of the five
// negatives is α = 0.25, and ∂τ/∂f are the softmax weights: positive on the negatives, zero on
// the positives, summing to 1 with fixed bandwidths (moving every score by t moves τ by t).
func ExampleThreshold() {
	scores := []float64{2.1, 0.3, -0.4, 1.2, -1.5, 0.8, -0.2, 0.5}
	labels := []float64{1, 0, 0, 1, 0, 0, 0, 1}
	g := gorgonia.NewGraph()
	f, err := graph.Input(g, tensor.Float64, "scores", scores)
	if err != nil {
		fmt.Println(err)
		return
	}
	y, err := graph.Input(g, tensor.Float64, "labels", labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	tau, err := kdequantile.Threshold(f, y, kdequantile.Config{Alpha: 0.25, V0: 4, V1: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := gradcheck.Check(tau, gorgonia.Nodes{f}, gradcheck.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fpr, sum := 0.0, 0.0
	for i, s := range scores {
		if labels[i] == 0 {
			fpr += 1 / (1 + math.Exp(-4*(s-report.Cost))) / 5
		}
		sum += report.Nodes[0].Tape.Grad[i]
	}
	fmt.Printf("τ = %.4f, smoothed FPR at τ = %.4f\n", report.Cost, fpr)
	fmt.Printf("∂τ/∂f = %.4f, sum %.4f\n", report.Nodes[0].Tape.Grad, sum)
	fmt.Println("within tolerance of finite differences:", report.MaxRel() <= report.Tol)
	// Output:
	// τ = 0.4543, smoothed FPR at τ = 0.2500
	// ∂τ/∂f = [0.0000 0.4717 0.0637 0.0000 0.0008 0.3323 0.1314 0.0000], sum 1.0000
	// within tolerance of finite differences: true
}

// Config.Tail for a positive far below the threshold. A positive at −6 adds nearly 1 to the
// smoothed false-negative count but, its kernel flat there, gets next to no gradient; with Tail its
// term is the tangent at τ, 1/2 + v1·(τ − f)/4, whose gradient is −v1/(4|B1|) = −4/(4·3).
func ExampleConfig() {
	scores := []float64{2.1, 0.3, -0.4, -6, -1.5, 0.8, -0.2, 0.5}
	labels := []float64{1, 0, 0, 1, 0, 0, 0, 1}
	for _, tail := range []bool{false, true} {
		grad, r, err := kdequantile.Gradient(scores, labels, kdequantile.Config{Alpha: 0.25, V0: 4, V1: 4, Tail: tail})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("Tail %-5v L = %.4f, ∂L/∂f of the positive at −6: %.4f\n", tail, r.Loss, grad[3])
	}
	_, err := kdequantile.Evaluate(scores, labels, kdequantile.Config{})
	fmt.Println(errors.Is(err, rocops.ErrConfig))
	// Output:
	// Tail false L = 0.4853, ∂L/∂f of the positive at −6: -0.0000
	// Tail true  L = 2.4701, ∂L/∂f of the positive at −6: -0.3333
	// true
}
