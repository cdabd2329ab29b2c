package opkit

import (
	"errors"
	"sync/atomic"
	"testing"

	pkgerrors "github.com/pkg/errors"
	"github.com/rocops/rocops/graph"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestReusedLispMachineIsAnError: a LispMachine run again after Reset recomputes only the
// graph's last node and, when that is the loss, calls its DoDiff again, which added the
// gradient a second time (2×, then 3×: Gorgonia accumulates until a solver step clears it)
// computed from whatever the un-recomputed nodes still hold. The op recognises the machine
// and fails with graph.ErrMachineReused instead, leaving the gradient as the first run left it; a
// new LispMachine per run works.
func TestReusedLispMachineIsAnError(t *testing.T) {
	f, y := []float64{0.5, -1.25, 2, 0.75}, []float64{1, 0, 0, 1}
	g := gorgonia.NewGraph()
	fv, err := NewVector(tensor.Float64, append([]float64(nil), f...))
	require.NoError(t, err)
	yv, err := NewVector(tensor.Float64, append([]float64(nil), y...))
	require.NoError(t, err)
	fn := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(4), gorgonia.WithName("f"), gorgonia.WithValue(fv))
	yn := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(4), gorgonia.WithName("y"), gorgonia.WithValue(yv))
	_, err = Apply(counting{calls: new(atomic.Int64)}, fn, yn) // the loss is the last node
	require.NoError(t, err)

	vm := gorgonia.NewLispMachine(g)
	require.NoError(t, vm.RunAll())
	once := gradOf(t, fn)
	require.Equal(t, sGrad(f, y), once)
	vm.Reset()
	err = vm.RunAll()
	require.Error(t, err, "a reused LispMachine must fail")
	require.True(t, errors.Is(causeOf(err), graph.ErrMachineReused), "%v", err)
	require.Contains(t, err.Error(), "opkit_test: ")
	require.Equal(t, once, gradOf(t, fn), "the failed run must not add to the gradient")
	vm.Close()

	clearGrad(t, fn)
	for range 2 {
		vm := gorgonia.NewLispMachine(g)
		require.NoError(t, vm.RunAll(), "a new LispMachine per run")
		vm.Close()
		require.Equal(t, sGrad(f, y), gradOf(t, fn))
		clearGrad(t, fn)
	}
}

// causeOf returns the op's error inside a Gorgonia machine's error, as graph.Cause does
// (package graph imports opkit, so its tests cannot use it): the machine's context, then the
// github.com/pkg/errors layers.
func causeOf(err error) error {
	var ctx interface{ Err() error }
	if errors.As(err, &ctx) {
		err = ctx.Err()
	}
	return pkgerrors.Cause(err)
}
