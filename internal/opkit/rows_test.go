package opkit

import (
	"fmt"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestApplyRows: a (2, 3) score matrix on both machines and dtypes, with (2, 3) matrix labels
// (weightedSquares) and with (2) row labels (rowSquares, which ignores them); the gradient
// comes back in the scores' shape.
func TestApplyRows(t *testing.T) {
	f := []float64{0.5, -1.25, 2, 0.75, 1, -2}
	y := []float64{1, 0, 0, 1, 1, 0}
	cases := []struct {
		name   string
		k      Kernel
		labels []float64
		shape  tensor.Shape
		weight func(i int) float64 // s = Σ weight(i)·f_i²
	}{
		{"matrix labels", weightedSquares{}, y, tensor.Shape{2, 3}, func(i int) float64 { return 1 + y[i] }},
		{"row labels", rowSquares{}, []float64{1, 0}, tensor.Shape{2}, func(int) float64 { return 1 }},
	}
	const tol = 1e-6 // float32 rounding of values of order 10
	for _, c := range cases {
		// By hand for the matrix labels: s = 2·.25 + 1.5625 + 4 + 2·.5625 + 2·1 + 4 = 13.1875.
		var want float64
		wantGrad := make([]float64, len(f))
		for i, x := range f {
			want += c.weight(i) * x * x
			wantGrad[i] = 2 * c.weight(i) * x
		}
		for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
			for _, machine := range []string{"tape", "lisp"} {
				t.Run(fmt.Sprintf("%s/%v/%s", c.name, dt, machine), func(t *testing.T) {
					g := gorgonia.NewGraph()
					fn := shaped(t, g, dt, "f", f, tensor.Shape{2, 3})
					s, err := ApplyRows(c.k, fn, shaped(t, g, dt, "y", c.labels, c.shape))
					require.NoError(t, err)
					runOn(t, machine, g, s, fn)
					v, err := Scalar(s.Value())
					require.NoError(t, err)
					require.InDelta(t, want, v, tol*want)
					gv, err := fn.Grad()
					require.NoError(t, err)
					require.Equal(t, tensor.Shape{2, 3}, gv.Shape())
					got, err := Floats(gv)
					require.NoError(t, err)
					require.InDeltaSlice(t, wantGrad, got, tol*8)
				})
			}
		}
	}
}

// rowSquares is s(f, y) = Σ f², for row labels of another length than the scores.
type rowSquares struct{}

func (rowSquares) Package() string { return "opkit_test" }
func (rowSquares) String() string  { return "RowSquares{}" }
func (rowSquares) ValueGrad(f, _ []float64) (float64, []float64, error) {
	var s float64
	g := make([]float64, len(f))
	for i, x := range f {
		s += x * x
		g[i] = 2 * x
	}
	return s, g, nil
}

func TestCheckRows(t *testing.T) {
	g, other := gorgonia.NewGraph(), gorgonia.NewGraph()
	node := func(g *gorgonia.ExprGraph, dt tensor.Dtype, name string, shape ...int) *gorgonia.Node {
		return gorgonia.NewTensor(g, dt, len(shape), gorgonia.WithShape(shape...), gorgonia.WithName(name))
	}
	f64 := tensor.Float64
	m, v := node(g, f64, "m", 4, 3), node(g, f64, "v", 4)
	cases := []struct {
		name           string
		scores, labels *gorgonia.Node
		want           error
		dims           int
	}{
		{"vector labels", m, v, nil, 1},
		{"matrix labels", m, node(g, f64, "m2", 4, 3), nil, 2},
		{"nil", nil, v, rocops.ErrNode, 0},
		{"two graphs", m, node(other, f64, "o", 4), rocops.ErrNode, 0},
		{"vector scores", v, v, rocops.ErrNode, 0},
		{"float32 labels", m, node(g, tensor.Float32, "v32", 4), rocops.ErrNode, 0},
		{"short labels", m, node(g, f64, "v3", 3), rocops.ErrLength, 0},
		{"label columns", m, node(g, f64, "m42", 4, 2), rocops.ErrLength, 0},
		{"no shape", m, gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("ns")), rocops.ErrNode, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, k, dims, err := CheckRows("opkit_test", c.scores, c.labels)
			if c.want == nil {
				require.NoError(t, err)
				require.Equal(t, [3]int{4, 3, c.dims}, [3]int{n, k, dims})
				return
			}
			require.ErrorIs(t, err, c.want)
		})
	}
}

// TestCheckTask: the task decides the shapes: binary (n) vectors (or one-column matrices), (n, k)
// scores with (n) class indices for Classes(k) and (n, k) labels for Labels(k); anything else is
// ErrNode (or ErrLength for labels of another number of rows).
func TestCheckTask(t *testing.T) {
	g := gorgonia.NewGraph()
	node := func(name string, shape ...int) *gorgonia.Node {
		return gorgonia.NewTensor(g, tensor.Float64, len(shape), gorgonia.WithShape(shape...), gorgonia.WithName(name))
	}
	m, m2, v, col, short := node("m", 4, 3), node("m2", 4, 3), node("v", 4), node("col", 4, 1), node("short", 3)
	cases := []struct {
		name           string
		task           rocops.Task
		scores, labels *gorgonia.Node
		want           error
	}{
		{"binary vectors", rocops.Task{}, v, v, nil},
		{"binary column", rocops.Task{}, col, v, nil},
		{"binary matrix", rocops.Task{}, m, v, rocops.ErrNode},
		{"classes", rocops.Classes(3), m, v, nil},
		{"labels", rocops.Labels(3), m, m2, nil},
		{"classes, matrix labels", rocops.Classes(3), m, m2, rocops.ErrNode},
		{"labels, vector labels", rocops.Labels(3), m, v, rocops.ErrNode},
		{"classes of other k", rocops.Classes(4), m, v, rocops.ErrNode},
		{"labels of other k", rocops.Labels(2), m, m2, rocops.ErrNode},
		{"classes, vector scores", rocops.Classes(3), v, v, rocops.ErrNode},
		{"classes, short labels", rocops.Classes(3), m, short, rocops.ErrLength},
	}
	for _, c := range cases {
		err := CheckTask("opkit_test", c.task, c.scores, c.labels)
		if c.want == nil {
			require.NoError(t, err, c.name)
			continue
		}
		require.ErrorIs(t, err, c.want, c.name)
		require.ErrorContains(t, err, "opkit_test: ", c.name)
	}
}
