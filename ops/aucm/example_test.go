package aucm_test

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
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

// The saddle value of scores whose sigmoids are h = ¾, ½ for the positives (z = ln 3, 0) and
// ¼, ½ for the negatives: each class has variance 1/64, the class means are ⅝ and ⅜, so
// Δ = ¼ and the value is 2/64 + (1 − ¼)² = 0.59375. Evaluate reaches it at a = E₊h, b = E₋h
// and α = m − Δ.
func ExampleOptimum() {
	ln3 := math.Log(3)
	scores := []float64{ln3, 0, -ln3, 0}
	labels := []float64{1, 1, 0, 0}
	opt, err := aucm.Optimum(scores, labels, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := aucm.Evaluate(scores, labels, []float64{0.625}, []float64{0.375}, []float64{0.75}, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("saddle value %.5f, f at (a, b, α) = (⅝, ⅜, ¾) %.5f\n", opt, f)
	// Output:
	// saddle value 0.59375, f at (a, b, α) = (⅝, ⅜, ¾) 0.59375
}

// The margin m asks for E₊h − E₋h ≥ m. For the scores of ExampleOptimum, Δ = ¼: with the
// default m = 1 the gap term (1 − ¼)² = 0.5625 dominates; with m = 0.2 the gap is met and only
// the class variances 2/64 = 0.03125 are left. A negative margin is refused.
func ExampleConfig() {
	ln3 := math.Log(3)
	scores := []float64{ln3, 0, -ln3, 0}
	labels := []float64{1, 1, 0, 0}
	for _, m := range []float64{0, 0.2, -1} {
		opt, err := aucm.Optimum(scores, labels, aucm.Config{Margin: m})
		if err != nil {
			fmt.Println(errors.Is(err, rocops.ErrConfig), err)
			continue
		}
		fmt.Printf("margin %v: saddle value %.5f\n", m, opt)
	}
	// Output:
	// margin 0: saddle value 0.59375
	// margin 0.2: saddle value 0.03125
	// true aucm: invalid setting: Margin = -1, want a finite margin ≥ 0 (0 = 1)
}

// The loss as a graph node of the scores and the auxiliary a, b and α, its gradients with
// respect to all four checked against finite differences on both of Gorgonia's machines. For
// the scores of ExampleOptimum (E₊h = ⅝, E₋h = ⅜, each class's variance 1/64) at a = b = α = ½:
// f = (1/64 + (⅛)²) + (1/64 + (⅛)²) + 2·½·(1 − ¼) − ¼ = 0.5625, ∂f/∂a = −2(⅝ − ½) = −0.25,
// ∂f/∂b = −2(⅜ − ½) = 0.25 and ∂f/∂α = 2(1 − ¼) − 2·½ = 0.5.
func ExampleLoss() {
	ln3 := math.Log(3)
	g := gorgonia.NewGraph()
	scalar := []int{} // shape () makes a scalar node
	var nodes [5]*gorgonia.Node
	for i, in := range []struct {
		name   string
		values []float64
		shape  []int
	}{
		{"scores", []float64{ln3, 0, -ln3, 0}, nil},
		{"labels", []float64{1, 1, 0, 0}, nil},
		{"a", []float64{0.5}, scalar},
		{"b", []float64{0.5}, scalar},
		{"alpha", []float64{0.5}, scalar},
	} {
		n, err := graph.Input(g, tensor.Float64, in.name, in.values, in.shape...)
		if err != nil {
			fmt.Println(err)
			return
		}
		nodes[i] = n
	}
	scores, labels, a, b, alpha := nodes[0], nodes[1], nodes[2], nodes[3], nodes[4]
	f, err := aucm.Loss(scores, labels, a, b, alpha, aucm.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := gradcheck.Check(f, gorgonia.Nodes{scores, a, b, alpha}, gradcheck.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("f = %.4f on %v\n", report.Cost, report.Machines)
	for _, n := range report.Nodes[1:] {
		fmt.Printf("∂f/∂%s = %.4f\n", n.Name, n.Tape.Grad[0])
	}
	fmt.Println("within tolerance of finite differences:", report.MaxRel() <= report.Tol)
	// Output:
	// f = 0.5625 on [tape lisp]
	// ∂f/∂a = -0.2500
	// ∂f/∂b = 0.2500
	// ∂f/∂alpha = 0.5000
	// within tolerance of finite differences: true
}
