package pairwise

import (
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/race"
	"github.com/stretchr/testify/require"
)

// TestFloat32Overflow: a float32 graph whose loss or gradient is finite in float64 but beyond
// float32 (about 3.4e38) fails with rocops.ErrRange on both machines, as a float64 overflow does,
// instead of returning ±Inf.
func TestFloat32Overflow(t *testing.T) {
	// The pair (positive −100, negative 100) has margin −200: e^200 ≈ 7.2e86, so the loss
	// ≈ 1.8e86 and the gradients ≈ ±1.8e86 fit in float64 but not in float32.
	f := []float64{100, -100, 0, 0}
	y := []float64{0, 1, 0, 1}
	_, err := Evaluate(f, y, Config{Surrogate: Exponential})
	require.NoError(t, err, "float64 Evaluate: %v (the batch must be valid in float64)", err)
	for _, machine := range []string{"tape", "lisp"} {
		t.Run(machine, func(t *testing.T) {
			if machine == "lisp" && race.Enabled {
				t.Skip("a failing LispMachine run races inside Gorgonia (package internal/race)")
			}
			g, scores, labels := newGraph(t, tensor.Float32, f, y)
			cost, err := Loss(scores, labels, Config{Surrogate: Exponential})
			require.NoError(t, err)
			var vm gorgonia.VM
			if machine == "tape" {
				_, err := gorgonia.Grad(cost, scores)
				require.NoError(t, err)
				vm = gorgonia.NewTapeMachine(g)
			} else {
				vm = gorgonia.NewLispMachine(g)
			}
			defer vm.Close()
			err = graph.RunAll(vm)
			require.ErrorIs(t, err, rocops.ErrRange, "RunAll: %v (loss %v), want rocops.ErrRange", err, cost.Value())
		})
	}
}
