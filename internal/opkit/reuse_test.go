package opkit

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// counting is weightedSquares counting its ValueGrad calls.
type counting struct {
	weightedSquares
	calls *atomic.Int64
}

func (k counting) ValueGrad(f, y []float64) (float64, []float64, error) {
	k.calls.Add(1)
	return k.weightedSquares.ValueGrad(f, y)
}

// sGrad is ∂s/∂f of weightedSquares, 2(1 + y_i)·f_i, and wantGrad that of build's cost 3·s.
func sGrad(f, y []float64) []float64 {
	g := make([]float64, len(f))
	for i := range f {
		g[i] = 2 * (1 + y[i]) * f[i]
	}
	return g
}

func wantGrad(f, y []float64) []float64 {
	g := sGrad(f, y)
	for i := range g {
		g[i] *= 3
	}
	return g
}

func gradOf(t *testing.T, n *gorgonia.Node) []float64 {
	t.Helper()
	gv, err := n.Grad()
	require.NoError(t, err)
	g, err := Floats(gv)
	require.NoError(t, err)
	return append([]float64(nil), g...)
}

// setValues writes xs into the backing array of n's value, as a training step loads a batch.
func setValues(t *testing.T, n *gorgonia.Node, xs []float64) {
	t.Helper()
	switch d := n.Value().Data().(type) {
	case []float64:
		copy(d, xs)
	case []float32:
		for i, x := range xs {
			d[i] = float32(x)
		}
	}
}

// TestGradientReusedAndNeverStale: on a TapeMachine run again and again on one graph, with
// new scores written into the same input tensor and Reset between runs, every run costs one
// kernel call (the backward takes the forward's gradient) and gives the gradient of that
// run's scores; a LispMachine on the same graph does the same.
func TestGradientReusedAndNeverStale(t *testing.T) {
	const tol = 1e-5 // float32 rounding of values of order 10
	y := []float64{1, 0, 0, 1}
	batches := [][]float64{{0.5, -1.25, 2, 0.75}, {1, 2, 3, 4}, {-0.5, 0.25, 0, 8}}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		t.Run(fmt.Sprintf("%v/tape", dt), func(t *testing.T) {
			calls := new(atomic.Int64)
			g, fn, cost := build(t, dt, counting{calls: calls}, batches[0], y)
			_, err := gorgonia.Grad(cost, fn)
			require.NoError(t, err)
			vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(fn))
			defer vm.Close()
			for run, f := range batches {
				setValues(t, fn, f)
				vm.Reset()
				require.NoError(t, vm.RunAll())
				require.InDeltaSlice(t, wantGrad(f, y), gradOf(t, fn), tol*10, "run %d", run)
				require.Equal(t, int64(run+1), calls.Load(), "kernel calls after run %d", run)
				clearGrad(t, fn)
			}
		})
		t.Run(fmt.Sprintf("%v/lisp", dt), func(t *testing.T) {
			calls := new(atomic.Int64)
			g, fn, _ := build(t, dt, counting{calls: calls}, batches[0], y)
			for run, f := range batches {
				setValues(t, fn, f)
				vm := gorgonia.NewLispMachine(g)
				require.NoError(t, vm.RunAll())
				vm.Close()
				require.InDeltaSlice(t, wantGrad(f, y), gradOf(t, fn), tol*10, "run %d", run)
				require.Equal(t, int64(run+1), calls.Load(), "kernel calls after run %d", run)
				clearGrad(t, fn)
			}
		})
	}
}

// clearGrad zeroes n's gradient: both machines add to it until it is cleared, as a solver
// step does.
func clearGrad(t *testing.T, n *gorgonia.Node) {
	t.Helper()
	gv, err := n.Grad()
	require.NoError(t, err)
	gv.(*tensor.Dense).Zero()
}

// TestBackwardRecomputesForOtherInputs: a backward pass whose inputs are not bit for bit the
// forward's — other scores, other labels, −0 for +0 — computes its own gradient, and a kept
// gradient serves at most one backward pass.
func TestBackwardRecomputesForOtherInputs(t *testing.T) {
	calls := new(atomic.Int64)
	fwd := &forwardOp{k: counting{calls: calls}}
	bwd := &backwardOp{fwd: fwd}
	vec := func(xs ...float64) gorgonia.Value {
		v, err := NewVector(tensor.Float64, xs)
		require.NoError(t, err)
		return v
	}
	one := gorgonia.NewF64(1)
	f, y := []float64{0, 1.5, -2}, []float64{1, 0, 1}
	backward := func(f, y []float64) []float64 {
		out, err := bwd.Do(vec(f...), vec(y...), gorgonia.NewF64(0), one)
		require.NoError(t, err)
		g, err := Floats(out)
		require.NoError(t, err)
		return g
	}
	forward := func() {
		_, err := fwd.Do(vec(f...), vec(y...))
		require.NoError(t, err)
	}
	negZero := []float64{math.Copysign(0, -1), 1.5, -2}

	cases := []struct {
		name      string
		f, y      []float64
		wantCalls int64 // kernel calls by the backward pass
	}{
		{"same inputs", f, y, 0},
		{"other scores", []float64{0, 1.5, -2.5}, y, 1},
		{"other labels", f, []float64{0, 0, 1}, 1},
		{"-0 for +0", negZero, y, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forward()
			before := calls.Load()
			require.Equal(t, sGrad(c.f, c.y), backward(c.f, c.y))
			require.Equal(t, c.wantCalls, calls.Load()-before)
		})
	}
	t.Run("taken once", func(t *testing.T) {
		forward()
		before := calls.Load()
		backward(f, y)
		backward(f, y)
		require.Equal(t, int64(1), calls.Load()-before, "the second backward recomputes")
	})
}

// into is weightedSquares as an IntoKernel, counting its calls of each form.
type into struct {
	weightedSquares
	grads, intos *atomic.Int64
}

func (k into) ValueGrad(f, y []float64) (float64, []float64, error) {
	k.grads.Add(1)
	return k.weightedSquares.ValueGrad(f, y)
}

func (k into) ValueGradInto(grad, f, y []float64) (float64, error) {
	k.intos.Add(1)
	v, g, err := k.weightedSquares.ValueGrad(f, y)
	copy(grad, g)
	return v, err
}

// TestIntoKernelReusesValues: with an IntoKernel, a TapeMachine run again and again on new
// scores calls ValueGradInto once a run and never ValueGrad, gives every run's value and
// gradient, and returns the same value tensors (the forward's scalar, the backward's
// gradient) at every run, which a LispMachine's runs give as well.
func TestIntoKernelReusesValues(t *testing.T) {
	const tol = 1e-5 // float32 rounding of values of order 10
	y := []float64{1, 0, 0, 1}
	batches := [][]float64{{0.5, -1.25, 2, 0.75}, {1, 2, 3, 4}, {-0.5, 0.25, 0, 8}}
	value := func(f []float64) float64 {
		v, err := weightedSquares{}.Value(f, y)
		require.NoError(t, err)
		return 3 * v
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, machine := range []string{"tape", "lisp"} {
			t.Run(fmt.Sprintf("%v/%s", dt, machine), func(t *testing.T) {
				k := into{grads: new(atomic.Int64), intos: new(atomic.Int64)}
				g, fn, cost := build(t, dt, k, batches[0], y)
				var vm gorgonia.VM
				if machine == "tape" {
					_, err := gorgonia.Grad(cost, fn)
					require.NoError(t, err)
					vm = gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(fn))
					defer vm.Close()
				}
				var s, d gorgonia.Value // the loss node's and the backward node's values
				for run, f := range batches {
					setValues(t, fn, f)
					if machine == "tape" {
						vm.Reset()
						require.NoError(t, vm.RunAll())
					} else {
						lisp := gorgonia.NewLispMachine(g)
						require.NoError(t, lisp.RunAll())
						lisp.Close()
					}
					require.InDeltaSlice(t, wantGrad(f, y), gradOf(t, fn), tol*10, "run %d", run)
					c, err := Scalar(cost.Value())
					require.NoError(t, err)
					require.InDelta(t, value(f), c, tol*10, "run %d", run)
					require.Equal(t, int64(run+1), k.intos.Load(), "ValueGradInto calls after run %d", run)
					require.Zero(t, k.grads.Load(), "ValueGrad calls after run %d", run)
					loss := opNode[*forwardOp](t, g)
					if machine == "tape" {
						if run > 0 {
							require.Same(t, s, loss.Value(), "run %d: the loss value", run)
							require.Same(t, d, fn.Deriv().Value(), "run %d: the gradient value", run)
						}
						s, d = loss.Value(), fn.Deriv().Value()
					}
					clearGrad(t, fn)
				}
			})
		}
	}
}

// opNode returns the node of g whose op is of type O.
func opNode[O gorgonia.Op](t *testing.T, g *gorgonia.ExprGraph) *gorgonia.Node {
	t.Helper()
	for _, n := range g.AllNodes() {
		if _, ok := n.Op().(O); ok {
			return n
		}
	}
	t.Fatalf("no %T node", *new(O))
	return nil
}
