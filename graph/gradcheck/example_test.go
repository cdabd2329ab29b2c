package gradcheck_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A user checks the gradient of a small regression model, cost = mean((tanh(X·w) − y)²), with
// respect to its weights before training it. (By hand: X·w = (0.35, 0.4, −0.625), so the cost is
// ((0.3364−0.1)² + (0.3799−0.4)² + (−0.5546+0.3)²)/3 = 0.0404.)
func ExampleCheck() {
	g := gorgonia.NewGraph()
	X, err := graph.Input(g, tensor.Float64, "X", []float64{0.5, -1, 1.5, 0.25, -0.75, 2}, 3, 2)
	if err != nil {
		panic(err)
	}
	w, err := graph.Input(g, tensor.Float64, "w", []float64{0.3, -0.2})
	if err != nil {
		panic(err)
	}
	y, err := graph.Input(g, tensor.Float64, "y", []float64{0.1, 0.4, -0.3})
	if err != nil {
		panic(err)
	}
	pred := gorgonia.Must(gorgonia.Tanh(gorgonia.Must(gorgonia.Mul(X, w))))
	cost := gorgonia.Must(gorgonia.Mean(gorgonia.Must(gorgonia.Square(gorgonia.Must(gorgonia.Sub(pred, y))))))

	report, err := gradcheck.Check(cost, gorgonia.Nodes{w}, gradcheck.Config{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("cost %.4f, machines %v\n", report.Cost, report.Machines)
	for _, n := range report.Nodes {
		fmt.Printf("%s: tape error below 1e-8: %t, lisp error below 1e-8: %t\n",
			n.Name, n.Tape.MaxRel < 1e-8, n.Lisp.MaxRel < 1e-8)
	}
	fmt.Println("passes the default tolerance:", report.MaxRel() <= report.Tol)
	// Output:
	// cost 0.0404, machines [tape lisp]
	// w: tape error below 1e-8: true, lisp error below 1e-8: true
	// passes the default tolerance: true
}

// tanhCost is the cost of ExampleCheck, mean((tanh(X·w) − y)²), in a graph of dtype dt.
func tanhCost(dt tensor.Dtype) (cost, w *gorgonia.Node, err error) {
	g := gorgonia.NewGraph()
	X, err := graph.Input(g, dt, "X", []float64{0.5, -1, 1.5, 0.25, -0.75, 2}, 3, 2)
	if err != nil {
		return nil, nil, err
	}
	w, err = graph.Input(g, dt, "w", []float64{0.3, -0.2})
	if err != nil {
		return nil, nil, err
	}
	y, err := graph.Input(g, dt, "y", []float64{0.1, 0.4, -0.3})
	if err != nil {
		return nil, nil, err
	}
	xw, err := gorgonia.Mul(X, w)
	if err != nil {
		return nil, nil, err
	}
	pred, err := gorgonia.Tanh(xw)
	if err != nil {
		return nil, nil, err
	}
	diff, err := gorgonia.Sub(pred, y)
	if err != nil {
		return nil, nil, err
	}
	sq, err := gorgonia.Square(diff)
	if err != nil {
		return nil, nil, err
	}
	cost, err = gorgonia.Mean(sq)
	return cost, w, err
}

// The zero Config chooses the step and the tolerance by the cost's dtype; a Tol of one's own
// replaces the default.
func ExampleConfig() {
	for _, c := range []struct {
		dt  tensor.Dtype
		cfg gradcheck.Config
	}{
		{tensor.Float64, gradcheck.Config{}},
		{tensor.Float32, gradcheck.Config{}},
		{tensor.Float32, gradcheck.Config{Tol: 1e-2, Lisp: gradcheck.LispOff}},
	} {
		cost, w, err := tanhCost(c.dt)
		if err != nil {
			fmt.Println(err)
			return
		}
		r, err := gradcheck.Check(cost, gorgonia.Nodes{w}, c.cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v: step %g, tol %g, machines %v, passes: %v\n", r.Dtype, r.Step, r.Tol, r.Machines, r.MaxRel() <= r.Tol)
	}
	// Output:
	// float64: step 0.001, tol 1e-06, machines [tape lisp], passes: true
	// float32: step 0.01, tol 0.001, machines [tape lisp], passes: true
	// float32: step 0.01, tol 0.01, machines [tape], passes: true
}

// LispMode chooses whether the LispMachine's gradient is checked too. The cost Σ x_i² + max(x)
// goes through gorgonia.Max, which has a SymDiff but no DoDiff: LispAuto checks the tape alone
// and says why, LispRequire refuses, LispOff does not ask. The tape's gradient, 2x + e_argmax,
// is (1, −2.5, 5, 1.5) by hand.
func ExampleLispMode() {
	for _, mode := range []gradcheck.LispMode{gradcheck.LispAuto, gradcheck.LispRequire, gradcheck.LispOff} {
		g := gorgonia.NewGraph()
		x, err := graph.Input(g, tensor.Float64, "x", []float64{0.5, -1.25, 2, 0.75})
		if err != nil {
			fmt.Println(err)
			return
		}
		cost := gorgonia.Must(gorgonia.Add(gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Square(x)))), gorgonia.Must(gorgonia.Max(x))))
		r, err := gradcheck.Check(cost, gorgonia.Nodes{x}, gradcheck.Config{Lisp: mode})
		if err != nil {
			fmt.Printf("%-11v %v\n", mode, errors.Is(err, gradcheck.ErrLispUnsupported))
			continue
		}
		fmt.Printf("%-11v %v %.4f, lisp skipped: %v\n", mode, r.Machines, r.Nodes[0].Tape.Grad, r.LispSkipped != "")
	}
	// Output:
	// LispAuto    [tape] [1.0000 -2.5000 5.0000 1.5000], lisp skipped: true
	// LispRequire true
	// LispOff     [tape] [1.0000 -2.5000 5.0000 1.5000], lisp skipped: true
}

// A NodeReport holds the numeric gradient next to each machine's Comparison. By hand, with
// p = tanh(X·w) = (0.3364, 0.3799, −0.5546) and r = p − y, ∂cost/∂w = (2/3)·Xᵀ(r ⊙ (1 − p²)).
func ExampleNodeReport() {
	cost, w, err := tanhCost(tensor.Float64)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := gradcheck.Check(cost, gorgonia.Nodes{w}, gradcheck.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	X := []float64{0.5, -1, 1.5, 0.25, -0.75, 2}
	y := []float64{0.1, 0.4, -0.3}
	byHand := make([]float64, 2)
	for i := range 3 {
		p := math.Tanh(X[2*i]*0.3 - X[2*i+1]*0.2)
		for j := range 2 {
			byHand[j] += 2.0 / 3 * X[2*i+j] * (p - y[i]) * (1 - p*p)
		}
	}
	n := r.Nodes[0]
	fmt.Printf("%s %v\nby hand %.6f\nnumeric %.6f\n", n.Name, n.Shape, byHand, n.Numeric)
	for _, m := range []struct {
		machine gradcheck.Machine
		cmp     gradcheck.Comparison
	}{{gradcheck.Tape, n.Tape}, {gradcheck.Lisp, n.Lisp}} {
		fmt.Printf("%-7s %.6f, relative error below 1e-9: %v\n", m.machine, m.cmp.Grad, m.cmp.MaxRel < 1e-9)
	}
	// Output:
	// w (2)
	// by hand [0.140865 -0.377666]
	// numeric [0.140865 -0.377666]
	// tape    [0.140865 -0.377666], relative error below 1e-9: true
	// lisp    [0.140865 -0.377666], relative error below 1e-9: true
}

// Numeric differentiates a function of a slice: here f(x) = x₀²·x₁ + sin x₁, whose gradient
// (2x₀x₁, x₀² + cos x₁) at (1.5, 2) is (6, 2.25 + cos 2 ≈ 1.8339).
func ExampleNumeric() {
	f := func(x []float64) (float64, error) { return x[0]*x[0]*x[1] + math.Sin(x[1]), nil }
	x := []float64{1.5, 2}
	g, err := gradcheck.Numeric(f, x, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("numeric  %.6f\nanalytic %.6f\nx unchanged: %v\n", g, []float64{2 * x[0] * x[1], x[0]*x[0] + math.Cos(x[1])}, x[0] == 1.5 && x[1] == 2)
	// Output:
	// numeric  [6.000000 1.833853]
	// analytic [6.000000 1.833853]
	// x unchanged: true
}
