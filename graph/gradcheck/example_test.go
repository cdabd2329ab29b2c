package gradcheck_test

import (
	"fmt"

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
