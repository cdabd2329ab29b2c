package crossentropy_test

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
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

// The probabilities of two rows of three classes' logits: e^z of (0, ln 2, ln 3) is (1, 2, 3),
// so p = (1/6, 1/3, 1/2); the second row, the same but for the third, shifted by 1000 (whose
// e^z overflows float64), has e^{z − max} = (½, ½, 1) and p = (¼, ¼, ½).
func ExampleSoftmax() {
	ln2, ln3 := math.Log(2), math.Log(3)
	p, err := crossentropy.Softmax([]float64{
		0, ln2, ln3,
		1000, 1000, 1000 + ln2,
	}, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f\n%.4f\n", p[:3], p[3:])
	// Output:
	// [0.1667 0.3333 0.5000]
	// [0.2500 0.2500 0.5000]
}

// One set of four logits z = (0, ln 3, ln 3, 0) read by the three tasks. As two rows of two
// classes, with classes (1, 0), each row puts p = 3/4 on its class: L = −log ¾ ≈ 0.2877. As
// two rows of two labels, labels (0, 1, 1, 0), the cells cost softplus(0) = log 2 twice and
// softplus(ln 3) − ln 3 = log(4/3) twice: L ≈ (2·0.6931 + 2·0.2877)/4 = 0.4904, the binary
// loss of the four cells.
func ExampleConfig() {
	ln3 := math.Log(3)
	logits := []float64{0, ln3, ln3, 0}
	for _, c := range []struct {
		cfg    crossentropy.Config
		labels []float64
	}{
		{crossentropy.Config{Task: rocops.Classes(2)}, []float64{1, 0}},
		{crossentropy.Config{Task: rocops.Labels(2)}, []float64{0, 1, 1, 0}},
		{crossentropy.Config{}, []float64{0, 1, 1, 0}},
	} {
		loss, err := crossentropy.Evaluate(logits, c.labels, c.cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-9v L = %.4f\n", c.cfg.Task, loss)
	}
	// Output:
	// 2 classes L = 0.2877
	// 2 labels  L = 0.4904
	// binary    L = 0.4904
}

// Evaluate is the loss alone. Two logits 0 of a positive and a negative cost log 2 each; a
// label that is neither 0 nor 1 is refused.
func ExampleEvaluate() {
	loss, err := crossentropy.Evaluate([]float64{0, 0}, []float64{1, 0}, crossentropy.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("L = %.4f (log 2 = %.4f)\n", loss, math.Ln2)
	_, err = crossentropy.Evaluate([]float64{0, 0}, []float64{1, 2}, crossentropy.Config{})
	fmt.Println(errors.Is(err, rocops.ErrLabel))
	// Output:
	// L = 0.6931 (log 2 = 0.6931)
	// true
}

// GradientInto writes into one buffer reused from batch to batch. The first batch is that of
// ExampleGradient; in the second, logits ±ln 3 of a positive and a negative, both terms are
// log(4/3) ≈ 0.2877 and the gradients (σ(ln 3) − 1)/2 = −0.125 and σ(−ln 3)/2 = 0.125.
func ExampleGradientInto() {
	ln3 := math.Log(3)
	grad := make([]float64, 2)
	for _, batch := range [][]float64{{0, 2}, {ln3, -ln3}} {
		loss, err := crossentropy.GradientInto(grad, batch, []float64{1, 0}, crossentropy.Config{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("L = %.4f, ∂L/∂z = %.4f\n", loss, grad)
	}
	// Output:
	// L = 1.4100, ∂L/∂z = [-0.2500 0.4404]
	// L = 0.2877, ∂L/∂z = [-0.1250 0.1250]
}

// The softmax cross-entropy as a graph node, its gradient checked against finite differences
// on both of Gorgonia's machines. One row of logits (0, ln 2, ln 3) of class 2 has p = (1/6,
// 1/3, 1/2) (ExampleSoftmax): L = −log ½ ≈ 0.6931 and ∂L/∂z = p − e₂ = (1/6, 1/3, −1/2).
func ExampleLoss() {
	g := gorgonia.NewGraph()
	logits, err := graph.Input(g, tensor.Float64, "logits", []float64{0, math.Log(2), math.Log(3)}, 1, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	labels, err := graph.Input(g, tensor.Float64, "labels", []float64{2})
	if err != nil {
		fmt.Println(err)
		return
	}
	loss, err := crossentropy.Loss(logits, labels, crossentropy.Config{Task: rocops.Classes(3)})
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := gradcheck.Check(loss, gorgonia.Nodes{logits}, gradcheck.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("L = %.4f, ∂L/∂z = %.4f on %v\n", report.Cost, report.Nodes[0].Tape.Grad, report.Machines)
	fmt.Println("within tolerance of finite differences:", report.MaxRel() <= report.Tol)
	// Output:
	// L = 0.6931, ∂L/∂z = [0.1667 0.3333 -0.5000] on [tape lisp]
	// within tolerance of finite differences: true
}
