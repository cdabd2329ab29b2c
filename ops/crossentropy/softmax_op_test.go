package crossentropy_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/ops/crossentropy"
)

// TestSoftmaxGradcheck compares Loss's gradient on a Classes task on both machines with
// numerical derivatives, in float64 and float32 at the checker's default tolerances, on (n, k)
// logits.
func TestSoftmaxGradcheck(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, nk := range [][2]int{{1, 2}, {7, 3}, {20, 5}} {
			n, k := nk[0], nk[1]
			t.Run(fmt.Sprintf("%v/n=%d/k=%d", dt, n, k), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(n), uint64(k)))
				z, y := make([]float64, n*k), make([]float64, n)
				for i := range z {
					z[i] = 6*r.Float64() - 3
				}
				for i := range y {
					y[i] = float64(r.IntN(k))
				}
				g := gorgonia.NewGraph()
				f := matrix(t, g, dt, "z", z, n, k)
				cost, err := crossentropy.Loss(f, input(t, g, dt, "y", y), crossentropy.Config{Task: rocops.Classes(k)})
				require.NoError(t, err)
				gradcheck.Assert(t, cost, gorgonia.Nodes{f}, gradcheck.Config{Lisp: gradcheck.LispRequire})
			})
		}
	}
}

// TestSoftmaxLossRuns: the graph's value and gradient are Gradient's on the Classes task, in a
// TapeMachine run with gorgonia.Grad, at logits of ±1e3.
func TestSoftmaxLossRuns(t *testing.T) {
	z := []float64{1000, -1000, 999, -1000, -1000, -1000}
	labels := []float64{2, 0}
	cfg := crossentropy.Config{Task: rocops.Classes(3)}
	want, wantL, err := crossentropy.Gradient(z, labels, cfg)
	require.NoError(t, err)
	g := gorgonia.NewGraph()
	f := matrix(t, g, tensor.Float64, "z", z, 2, 3)
	cost, err := crossentropy.Loss(f, input(t, g, tensor.Float64, "y", labels), cfg)
	require.NoError(t, err)
	_, err = gorgonia.Grad(cost, f)
	require.NoError(t, err)
	m := gorgonia.NewTapeMachine(g)
	defer m.Close()
	require.NoError(t, m.RunAll())
	require.Equal(t, wantL, cost.Value().Data())
	gv, err := f.Grad()
	require.NoError(t, err)
	require.Equal(t, want, gv.Data())
	require.Equal(t, []int{2, 3}, []int(gv.Shape()))
}

func TestSoftmaxLossErrors(t *testing.T) {
	g := gorgonia.NewGraph()
	z := matrix(t, g, tensor.Float64, "z", []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	vec := input(t, g, tensor.Float64, "v", []float64{1, 2, 3, 4, 5, 6})
	cases := []struct {
		name           string
		scores, labels *gorgonia.Node
		want           error
	}{
		{"nil", nil, vec, rocops.ErrNode},
		{"vector logits", vec, vec, rocops.ErrNode},
		{"matrix labels", z, z, rocops.ErrNode},
		{"other k", z, input(t, g, tensor.Float64, "y2", []float64{0, 1}), rocops.ErrNode},
		{"rows", z, input(t, g, tensor.Float64, "y3", []float64{0, 1, 2}), rocops.ErrLength},
		{"dtypes", z, input(t, g, tensor.Float32, "y32", []float64{0, 1}), rocops.ErrNode},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := 3
			if c.name == "other k" {
				k = 4
			}
			_, err := crossentropy.Loss(c.scores, c.labels, crossentropy.Config{Task: rocops.Classes(k)})
			require.ErrorIs(t, err, c.want)
		})
	}
	// A label that is not a class index fails the run.
	for _, bad := range []float64{3, 0.5, -1} {
		g := gorgonia.NewGraph()
		z := matrix(t, g, tensor.Float64, "z", []float64{1, 2, 3, 4, 5, 6}, 2, 3)
		_, err := crossentropy.Loss(z, input(t, g, tensor.Float64, "y", []float64{0, bad}), crossentropy.Config{Task: rocops.Classes(3)})
		require.NoError(t, err)
		m := gorgonia.NewTapeMachine(g)
		err = graph.RunAll(m)
		m.Close()
		require.ErrorIs(t, err, rocops.ErrLabel, "label %v", bad)
	}
}

func matrix(t *testing.T, g *gorgonia.ExprGraph, dt tensor.Dtype, name string, xs []float64, n, k int) *gorgonia.Node {
	t.Helper()
	m, err := graph.Input(g, dt, name, xs, n, k)
	require.NoError(t, err)
	return m
}
