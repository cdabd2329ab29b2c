package graph_test

import (
	"errors"
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/ops/pairwise"
)

// Input makes a vector, a matrix or a scalar node holding a copy of the values; data that do
// not fill the shape are refused.
func ExampleInput() {
	g := gorgonia.NewGraph()
	v, err := graph.Input(g, tensor.Float64, "v", []float64{1, 2, 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := graph.Input(g, tensor.Float32, "m", []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := graph.Input(g, tensor.Float64, "s", []float64{0.5}, []int{}...)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range []*gorgonia.Node{v, m, s} {
		fmt.Println(n.Name(), n.Shape(), n.Dtype(), n.Value().Data())
	}
	_, err = graph.Input(g, tensor.Float64, "bad", []float64{1, 2, 3}, 2, 2)
	fmt.Println(errors.Is(err, rocops.ErrNode))
	// Output:
	// v (3) float64 [1 2 3]
	// m (2, 3) float32 [1 2 3 4 5 6]
	// s () float64 0.5
	// true
}

// lossOfOneClass returns a TapeMachine of the pairwise loss of a batch without negatives,
// which fails when it runs.
func lossOfOneClass() (gorgonia.VM, error) {
	g := gorgonia.NewGraph()
	scores, err := graph.Input(g, tensor.Float64, "scores", []float64{0.3, 1.2})
	if err != nil {
		return nil, err
	}
	labels, err := graph.Input(g, tensor.Float64, "labels", []float64{1, 1})
	if err != nil {
		return nil, err
	}
	if _, err := pairwise.Loss(scores, labels, pairwise.Config{}); err != nil {
		return nil, err
	}
	return gorgonia.NewTapeMachine(g), nil
}

// RunAll runs a machine and hands back the op's own error, which errors.Is reaches; the
// machine's own RunAll wraps it in a type that hides it.
func ExampleRunAll() {
	vm, err := lossOfOneClass()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer vm.Close()
	err = vm.RunAll()
	fmt.Println("the machine's error is ErrNoNegatives:", errors.Is(err, rocops.ErrNoNegatives))
	vm.Reset()
	err = graph.RunAll(vm)
	fmt.Println("RunAll's error is ErrNoNegatives:", errors.Is(err, rocops.ErrNoNegatives))
	// Output:
	// the machine's error is ErrNoNegatives: false
	// RunAll's error is ErrNoNegatives: true
}

// Cause reduces an error a machine already returned to the op's own; nil stays nil and an
// error from outside a machine is returned as is.
func ExampleCause() {
	vm, err := lossOfOneClass()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer vm.Close()
	err = graph.Cause(vm.RunAll())
	fmt.Println(errors.Is(err, rocops.ErrOneClass))
	plain := errors.New("not from a machine")
	fmt.Println(graph.Cause(plain) == plain, graph.Cause(nil))
	// Output:
	// true
	// true <nil>
}

// errors.As finds the RunError behind RunAll's error: the failing node's name and the op's
// error. (ErrNoNegatives matches ErrOneClass under errors.Is.)
func ExampleRunError() {
	vm, err := lossOfOneClass()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer vm.Close()
	var run *graph.RunError
	if errors.As(graph.RunAll(vm), &run) {
		fmt.Println("node named:", run.Node != "")
		fmt.Println(run.Err, errors.Is(run.Err, rocops.ErrOneClass))
	}
	// Output:
	// node named: true
	// pairwise: batch has no negatives: all 2 labels are 1 true
}
