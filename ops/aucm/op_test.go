package aucm

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/internal/testbatch"
)

type lossGraph struct {
	g                           *gorgonia.ExprGraph
	scores, labels, a, b, alpha *gorgonia.Node
	cost                        *gorgonia.Node
}

func newLossGraph(t *testing.T, dt tensor.Dtype, z, y []float64, a, b, alpha float64, cfg Config) lossGraph {
	t.Helper()
	var l lossGraph
	l.g = gorgonia.NewGraph()
	var err error
	l.scores, err = graph.Input(l.g, dt, "scores", z)
	require.NoError(t, err)
	l.labels, err = graph.Input(l.g, dt, "labels", y)
	require.NoError(t, err)
	l.a, err = graph.Input(l.g, dt, "a", []float64{a}, []int{}...)
	require.NoError(t, err)
	l.b, err = graph.Input(l.g, dt, "b", []float64{b}, []int{}...)
	require.NoError(t, err)
	l.alpha, err = graph.Input(l.g, dt, "alpha", []float64{alpha}, []int{}...)
	require.NoError(t, err)
	l.cost, err = Loss(l.scores, l.labels, l.a, l.b, l.alpha, cfg)
	require.NoError(t, err)
	return l
}

// TestLossGradcheck: the op's gradients with respect to the scores, a, b and α by both
// machines against finite differences, in float64 and float32.
func TestLossGradcheck(t *testing.T) {
	z, y := testbatch.Shifted(8, 3, 12, 0.4, 1)
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, c := range []struct {
			a, b, alpha float64
			cfg         Config
		}{{0, 0, 0, Config{}}, {0.8, 0.1, 0.5, Config{Margin: 0.6}}} {
			t.Run(fmt.Sprintf("%v/a=%v", dt, c.a), func(t *testing.T) {
				l := newLossGraph(t, dt, z, y, c.a, c.b, c.alpha, c.cfg)
				r := gradcheck.Assert(t, l.cost, gorgonia.Nodes{l.scores, l.a, l.b, l.alpha}, gradcheck.Config{Lisp: gradcheck.LispRequire})
				require.Equal(t, []gradcheck.Machine{gradcheck.Tape, gradcheck.Lisp}, r.Machines)
			})
		}
	}
}

// TestLossMatchesGradient: the node's value and its four gradients, by both machines, equal
// Gradient on the same (dtype-rounded) inputs.
func TestLossMatchesGradient(t *testing.T) {
	tol := map[tensor.Dtype]float64{tensor.Float64: 1e-15, tensor.Float32: 1e-6}
	z, y := testbatch.Shifted(9, 3, 40, 0.3, 0.5)
	for dt, tl := range tol {
		for _, machine := range []string{"tape", "lisp"} {
			t.Run(fmt.Sprintf("%v/%s", dt, machine), func(t *testing.T) {
				l := newLossGraph(t, dt, z, y, 0.6, 0.2, 0.3, Config{})
				var vm gorgonia.VM
				if machine == "tape" {
					_, err := gorgonia.Grad(l.cost, l.scores, l.a, l.b, l.alpha)
					require.NoError(t, err)
					vm = gorgonia.NewTapeMachine(l.g)
				} else {
					vm = gorgonia.NewLispMachine(l.g)
				}
				defer vm.Close()
				require.NoError(t, vm.RunAll())
				rz, err := opkit.Floats(l.scores.Value())
				require.NoError(t, err)
				var p [3]float64
				for k, n := range []*gorgonia.Node{l.a, l.b, l.alpha} {
					p[k], err = opkit.Scalar(n.Value())
					require.NoError(t, err)
				}
				dz, da, db, dalpha, f, err := gradient1(rz, y, p[0], p[1], p[2], Config{})
				require.NoError(t, err)
				got, err := opkit.Scalar(l.cost.Value())
				require.NoError(t, err)
				require.InDelta(t, f, got, tl*math.Abs(f))
				for k, want := range []float64{da, db, dalpha} {
					gv, err := []*gorgonia.Node{l.a, l.b, l.alpha}[k].Grad()
					require.NoError(t, err)
					g, err := opkit.Scalar(gv)
					require.NoError(t, err)
					require.InDelta(t, want, g, tl*math.Max(math.Abs(want), 1e-3), "aux %d", k)
				}
				gv, err := l.scores.Grad()
				require.NoError(t, err)
				g, err := opkit.Floats(gv)
				require.NoError(t, err)
				for k := range dz {
					require.InDelta(t, dz[k], g[k], tl*math.Max(math.Abs(dz[k]), 1e-3), "dz[%d]", k)
				}
			})
		}
	}
}

func TestLossErrors(t *testing.T) {
	g := gorgonia.NewGraph()
	scores, err := graph.Input(g, tensor.Float64, "scores", []float64{1, 2, 3})
	require.NoError(t, err)
	labels, err := graph.Input(g, tensor.Float64, "labels", []float64{1, 0, 0})
	require.NoError(t, err)
	a, err := graph.Input(g, tensor.Float64, "a", []float64{0}, []int{}...)
	require.NoError(t, err)
	vec, err := graph.Input(g, tensor.Float64, "vec", []float64{0, 1})
	require.NoError(t, err)
	f32, err := graph.Input(g, tensor.Float32, "f32", []float64{0}, []int{}...)
	require.NoError(t, err)
	other, err := graph.Input(gorgonia.NewGraph(), tensor.Float64, "other", []float64{0}, []int{}...)
	require.NoError(t, err)

	_, err = Loss(scores, labels, a, a, a, Config{Margin: -1})
	require.ErrorIs(t, err, rocops.ErrConfig)
	for name, n := range map[string]*gorgonia.Node{"nil": nil, "vector": vec, "float32": f32, "other graph": other} {
		_, err = Loss(scores, labels, a, n, a, Config{})
		require.ErrorIs(t, err, rocops.ErrNode, name)
		require.ErrorContains(t, err, "aucm: ", name)
	}
	_, err = Loss(scores, vec, a, a, a, Config{})
	require.ErrorIs(t, err, rocops.ErrLength)

	// One class is seen when the graph runs.
	one, err := graph.Input(g, tensor.Float64, "one", []float64{0, 0, 0})
	require.NoError(t, err)
	cost, err := Loss(scores, one, a, a, a, Config{})
	require.NoError(t, err)
	_, err = gorgonia.Grad(cost, scores)
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	require.ErrorIs(t, graph.RunAll(vm), rocops.ErrOneClass)
}

// TestLossColumnScores: scores of shape (n, 1), as gorgonia.Mul(x, W) returns them, feed the
// op as a vector does, and their gradient has their shape (checked by gradcheck, which
// compares it element by element, on both machines).
func TestLossColumnScores(t *testing.T) {
	z, y := testbatch.Shifted(10, 3, 9, 0.4, 1)
	g := gorgonia.NewGraph()
	scores, err := graph.Input(g, tensor.Float64, "scores", z, len(z), 1)
	require.NoError(t, err)
	labels, err := graph.Input(g, tensor.Float64, "labels", y)
	require.NoError(t, err)
	var aux [3]*gorgonia.Node
	for k, v := range []float64{0.5, 0.1, 0.2} {
		aux[k], err = graph.Input(g, tensor.Float64, fmt.Sprint("aux", k), []float64{v}, []int{}...)
		require.NoError(t, err)
	}
	cost, err := Loss(scores, labels, aux[0], aux[1], aux[2], Config{})
	require.NoError(t, err)
	want, err := evaluate1(z, y, 0.5, 0.1, 0.2, Config{})
	require.NoError(t, err)
	r := gradcheck.Assert(t, cost, gorgonia.Nodes{scores, aux[0]}, gradcheck.Config{Lisp: gradcheck.LispRequire})
	require.InDelta(t, want, r.Cost, 1e-15)
}

// TestLossOneColumnVectors: on binary data a, b and α may be (1) vectors, as a one-column task
// of labels feeds them, with the value of scalar ones and gradients of their shape, on both
// machines and dtypes; mixing a scalar with vectors, or vectors of another length, is refused.
func TestLossOneColumnVectors(t *testing.T) {
	z, y := testbatch.Shifted(11, 3, 10, 0.4, 1)
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		g := gorgonia.NewGraph()
		scores, err := graph.Input(g, dt, "scores", z, len(z), 1)
		require.NoError(t, err)
		labels, err := graph.Input(g, dt, "labels", y, len(y), 1)
		require.NoError(t, err)
		var aux [3]*gorgonia.Node
		for k, v := range []float64{0.4, 0.2, 0.3} {
			aux[k], err = graph.Input(g, dt, fmt.Sprint("aux", k), []float64{v})
			require.NoError(t, err)
		}
		cost, err := Loss(scores, labels, aux[0], aux[1], aux[2], Config{})
		require.NoError(t, err)
		r := gradcheck.Assert(t, cost, gorgonia.Nodes{scores, aux[0], aux[1], aux[2]}, gradcheck.Config{Lisp: gradcheck.LispRequire})
		require.Equal(t, []gradcheck.Machine{gradcheck.Tape, gradcheck.Lisp}, r.Machines)
		want, err := evaluate1(z, y, 0.4, 0.2, 0.3, Config{})
		require.NoError(t, err)
		require.InDelta(t, want, r.Cost, map[tensor.Dtype]float64{tensor.Float64: 1e-15, tensor.Float32: 1e-6}[dt])
	}
	g := gorgonia.NewGraph()
	in := func(name string, v []float64, shape ...int) *gorgonia.Node {
		n, err := graph.Input(g, tensor.Float64, name, v, shape...)
		require.NoError(t, err)
		return n
	}
	scores, labels := in("s", z), in("y", y)
	vec, scalar, two := in("v", []float64{0}), in("x", []float64{0}, []int{}...), in("two", []float64{0, 0})
	_, err := Loss(scores, labels, scalar, vec, scalar, Config{})
	require.ErrorIs(t, err, rocops.ErrNode)
	_, err = Loss(scores, labels, vec, scalar, vec, Config{})
	require.ErrorIs(t, err, rocops.ErrNode)
	_, err = Loss(scores, labels, two, two, two, Config{})
	require.ErrorIs(t, err, rocops.ErrLength)
}
