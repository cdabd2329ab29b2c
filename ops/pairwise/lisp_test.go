package pairwise

import (
	"errors"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/graph"
)

// TestReusedLispMachine: running a LispMachine again after Reset, which would add the loss's
// gradient a second time, fails with ErrMachineReused; a new machine per run does not.
func TestReusedLispMachine(t *testing.T) {
	g, scores, labels := newGraph(t, tensor.Float64, opScores, opLabels)
	if _, err := Loss(scores, labels, Config{Surrogate: SquaredHinge}); err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewLispMachine(g)
	defer vm.Close()
	if err := graph.RunAll(vm); err != nil {
		t.Fatal(err)
	}
	vm.Reset()
	if err := graph.RunAll(vm); !errors.Is(err, ErrMachineReused) {
		t.Fatalf("second run of one LispMachine: %v, want ErrMachineReused", err)
	}
	fresh := gorgonia.NewLispMachine(g)
	defer fresh.Close()
	if err := graph.RunAll(fresh); err != nil {
		t.Fatalf("a new LispMachine: %v", err)
	}
}
