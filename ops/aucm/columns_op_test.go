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
)

// columnsGraph builds Loss on an n×k batch of k classes (ind nil) or k labels.
func columnsGraph(t *testing.T, dt tensor.Dtype, z []float64, k int, y []int, ind, a, b, alpha []float64) (
	g *gorgonia.ExprGraph, nodes gorgonia.Nodes, cost *gorgonia.Node) {
	t.Helper()
	g = gorgonia.NewGraph()
	n := len(z) / k
	scores, err := graph.Input(g, dt, "scores", z, n, k)
	require.NoError(t, err)
	var labels *gorgonia.Node
	if ind == nil {
		yf := make([]float64, n)
		for i, c := range y {
			yf[i] = float64(c)
		}
		labels, err = graph.Input(g, dt, "labels", yf)
	} else {
		labels, err = graph.Input(g, dt, "labels", ind, n, k)
	}
	require.NoError(t, err)
	nodes = gorgonia.Nodes{scores}
	for i, v := range [][]float64{a, b, alpha} {
		x, err := graph.Input(g, dt, fmt.Sprint("aux", i), v)
		require.NoError(t, err)
		nodes = append(nodes, x)
	}
	cfg := Config{Task: rocops.Classes(k)}
	if ind != nil {
		cfg.Task = rocops.Labels(k)
	}
	cost, err = Loss(scores, labels, nodes[1], nodes[2], nodes[3], cfg)
	require.NoError(t, err)
	return g, nodes, cost
}

// TestColumnsLossGradcheck: Loss's gradients on Classes and Labels tasks with respect to the
// scores and the (k) vectors a, b and α by both machines against finite differences, float64
// and float32.
func TestColumnsLossGradcheck(t *testing.T) {
	z, y, onehot, a, b, alpha := kColumns(7, 10, 3)
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, ml := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/multilabel=%v", dt, ml), func(t *testing.T) {
				var ind []float64
				if ml {
					ind = onehot
				}
				_, nodes, cost := columnsGraph(t, dt, z, 3, y, ind, a, b, alpha)
				r := gradcheck.Assert(t, cost, nodes, gradcheck.Config{Lisp: gradcheck.LispRequire})
				require.Equal(t, []gradcheck.Machine{gradcheck.Tape, gradcheck.Lisp}, r.Machines)
			})
		}
	}
}

// TestColumnsLossMatchesGradient: the node's value and gradients on a Classes task by a
// TapeMachine equal Gradient's on the same inputs.
func TestColumnsLossMatchesGradient(t *testing.T) {
	z, y, _, a, b, alpha := kColumns(8, 30, 4)
	g, nodes, cost := columnsGraph(t, tensor.Float64, z, 4, y, nil, a, b, alpha)
	_, err := gorgonia.Grad(cost, nodes...)
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	require.NoError(t, graph.RunAll(vm))
	dz, da, db, dal, v, err := multiclassGradient(z, 4, y, a, b, alpha, Config{})
	require.NoError(t, err)
	got, err := opkit.Scalar(cost.Value())
	require.NoError(t, err)
	require.InDelta(t, v, got, 1e-15*math.Abs(v))
	for i, want := range [][]float64{dz, da, db, dal} {
		gv, err := nodes[i].Grad()
		require.NoError(t, err)
		g, err := opkit.Floats(gv)
		require.NoError(t, err)
		require.Equal(t, want, g, "input %d", i)
	}
}

// TestColumnsLossErrors: nodes that cannot feed Loss on a task of k columns, and a class without
// rows seen when the graph runs.
func TestColumnsLossErrors(t *testing.T) {
	g := gorgonia.NewGraph()
	in := func(name string, v []float64, shape ...int) *gorgonia.Node {
		n, err := graph.Input(g, tensor.Float64, name, v, shape...)
		require.NoError(t, err)
		return n
	}
	scores := in("scores", []float64{1, 2, 3, 4, 5, 6}, 3, 2)
	labels := in("labels", []float64{0, 1, 0})
	ind := in("ind", []float64{0, 1, 1, 0, 0, 1}, 3, 2)
	k2 := in("k2", []float64{0, 0})
	k3 := in("k3", []float64{0, 0, 0})
	scalar := in("s", []float64{0}, []int{}...)
	vector := in("v", []float64{1, 2, 3})

	classes, labels2 := Config{Task: rocops.Classes(2)}, Config{Task: rocops.Labels(2)}
	_, err := Loss(scores, labels, k2, k3, k2, classes)
	require.ErrorIs(t, err, rocops.ErrLength)
	_, err = Loss(scores, labels, k2, scalar, k2, classes)
	require.ErrorIs(t, err, rocops.ErrNode)
	_, err = Loss(scores, labels, k2, nil, k2, classes)
	require.ErrorIs(t, err, rocops.ErrNode)
	_, err = Loss(scores, ind, k2, k2, k2, classes)
	require.ErrorIs(t, err, rocops.ErrNode) // labels must be a vector
	_, err = Loss(scores, labels, k2, k2, k2, labels2)
	require.ErrorIs(t, err, rocops.ErrNode) // labels must be a matrix
	_, err = Loss(vector, labels, k2, k2, k2, classes)
	require.ErrorIs(t, err, rocops.ErrNode) // scores must be a matrix
	_, err = Loss(scores, labels, k3, k3, k3, Config{Task: rocops.Classes(3)})
	require.ErrorIs(t, err, rocops.ErrNode) // scores of 2 columns for 3 classes
	_, err = Loss(scores, labels, k2, k2, k2, Config{})
	require.ErrorIs(t, err, rocops.ErrNode) // a matrix of scores for binary data
	_, err = Loss(scores, labels, k2, k2, k2, Config{Task: rocops.Classes(2), Margin: math.NaN()})
	require.ErrorIs(t, err, rocops.ErrConfig)

	one := in("one", []float64{0, 0, 0})
	cost, err := Loss(scores, one, k2, k2, k2, classes)
	require.NoError(t, err)
	_, err = gorgonia.Grad(cost, scores)
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	require.ErrorIs(t, graph.RunAll(vm), rocops.ErrOneClass)
}
