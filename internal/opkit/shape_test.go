package opkit

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestApplyTakesColumnsAndRows: scores and labels of shape (n, 1) or (1, n), as
// gorgonia.Mul(x, W) returns for a (d, 1) W, give the loss and gradient of the (n) vectors on
// both machines and in both dtypes, and the scores' gradient keeps the scores' shape.
func TestApplyTakesColumnsAndRows(t *testing.T) {
	f := []float64{0.5, -1.25, 2, 0.75}
	y := []float64{1, 0, 0, 1}
	// As in TestApplyBothMachinesBothDtypes: s = 7.1875 by hand, ∂s/∂f_i = 2(1 + y_i)·f_i.
	wantValue := 7.1875
	wantGrad := []float64{2 * 2 * 0.5, 2 * -1.25, 2 * 2, 2 * 2 * 0.75}
	const tol = 1e-6 // float32 rounding of values of order 10
	n := len(f)
	shapes := []struct {
		name           string
		scores, labels tensor.Shape
	}{
		{"column scores, vector labels", tensor.Shape{n, 1}, tensor.Shape{n}},
		{"column scores and labels", tensor.Shape{n, 1}, tensor.Shape{n, 1}},
		{"row scores, vector labels", tensor.Shape{1, n}, tensor.Shape{n}},
		{"vector scores, row labels", tensor.Shape{n}, tensor.Shape{1, n}},
	}
	for _, sh := range shapes {
		for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
			for _, machine := range []string{"tape", "lisp"} {
				t.Run(fmt.Sprintf("%s/%v/%s", sh.name, dt, machine), func(t *testing.T) {
					g := gorgonia.NewGraph()
					fn := shaped(t, g, dt, "f", f, sh.scores)
					yn := shaped(t, g, dt, "y", y, sh.labels)
					s, err := Apply(weightedSquares{}, fn, yn)
					require.NoError(t, err)
					runOn(t, machine, g, s, fn)
					v, err := Scalar(s.Value())
					require.NoError(t, err)
					require.InDelta(t, wantValue, v, tol*wantValue)
					gv, err := fn.Grad()
					require.NoError(t, err)
					require.Equal(t, sh.scores, gv.Shape(), "the gradient has the scores' shape")
					got, err := Floats(gv)
					require.NoError(t, err)
					require.InDeltaSlice(t, wantGrad, got, tol*4)
				})
			}
		}
	}
}

// TestApplyRejectsOtherMatrices: a matrix with more than one row and column is not a vector.
func TestApplyRejectsOtherMatrices(t *testing.T) {
	g := gorgonia.NewGraph()
	f := shaped(t, g, tensor.Float64, "f", make([]float64, 6), tensor.Shape{3, 2})
	y := shaped(t, g, tensor.Float64, "y", make([]float64, 6), tensor.Shape{6})
	_, err := Apply(weightedSquares{}, f, y)
	require.ErrorContains(t, err, "want a vector of shape (n), or a matrix of shape (n, 1) or (1, n), got shape (3, 2)")
}

// shaped returns a node of the given shape holding xs.
func shaped(t *testing.T, g *gorgonia.ExprGraph, dt tensor.Dtype, name string, xs []float64, shape tensor.Shape) *gorgonia.Node {
	t.Helper()
	v, err := NewVector(dt, append([]float64(nil), xs...))
	require.NoError(t, err)
	require.NoError(t, v.Reshape(shape...))
	return gorgonia.NewTensor(g, dt, len(shape), gorgonia.WithShape(shape...), gorgonia.WithName(name), gorgonia.WithValue(v))
}
