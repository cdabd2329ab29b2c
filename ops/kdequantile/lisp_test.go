package kdequantile

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
	scores, labels := batch(5, 40, 0.3, 1)
	g := gorgonia.NewGraph()
	f, err := graph.Input(g, tensor.Float64, "f", scores)
	if err != nil {
		t.Fatal(err)
	}
	y, err := graph.Input(g, tensor.Float64, "y", labels)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Loss(f, y, Config{Alpha: 0.1}); err != nil {
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
