package graph_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/opkit"
)

var errFailing = errors.New("graph_test: bad batch")

// failing is a kernel whose forward pass returns errFailing, wrapped, as a loss does for a
// batch with one class.
type failing struct{}

func (failing) Package() string { return "graph_test" }
func (failing) String() string  { return "Failing{}" }
func (failing) Value([]float64, []float64) (float64, error) {
	return 0, fmt.Errorf("%w: no positives", errFailing)
}
func (k failing) ValueGrad(f, y []float64) (float64, []float64, error) {
	v, err := k.Value(f, y)
	return v, make([]float64, len(f)), err
}

// Gorgonia's own error hides the op's error from errors.Is; RunAll and Cause expose it, on
// both machines, and keep its message without the machine's context.
func TestRunAllExposesTheOpError(t *testing.T) {
	for _, machine := range []string{"tape", "lisp"} {
		t.Run(machine, func(t *testing.T) {
			g := gorgonia.NewGraph()
			f, err := graph.Input(g, tensor.Float64, "f", []float64{1, 2})
			require.NoError(t, err)
			y, err := graph.Input(g, tensor.Float64, "y", []float64{0, 0})
			require.NoError(t, err)
			_, err = opkit.Apply(failing{}, f, y)
			require.NoError(t, err)
			var vm gorgonia.VM = gorgonia.NewTapeMachine(g)
			if machine == "lisp" {
				vm = gorgonia.NewLispMachine(g, gorgonia.ExecuteFwdOnly())
			}
			defer vm.Close()

			raw := vm.RunAll()
			require.Error(t, raw)
			if machine == "tape" {
				require.NotErrorIs(t, raw, errFailing, "if Gorgonia starts unwrapping, Cause is no longer needed")
			}
			vm.Reset()

			err = graph.RunAll(vm)
			require.ErrorIs(t, err, errFailing)
			var re *graph.RunError
			require.ErrorAs(t, err, &re)
			require.Equal(t, "graph_test: bad batch: no positives", re.Err.Error())
		})
	}
	require.NoError(t, graph.Cause(nil))
	plain := errors.New("plain")
	require.Equal(t, plain, graph.Cause(plain))
}
