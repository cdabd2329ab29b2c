package opkit

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/check"
)

// TestApplyRows: a (2, 3) score matrix on both machines and dtypes, with (2, 3) matrix labels
// (weightedSquares) and with (2) row labels (rowSquares, which ignores them); the gradient
// comes back in the scores' shape.
func TestApplyRows(t *testing.T) {
	f := []float64{0.5, -1.25, 2, 0.75, 1, -2}
	y := []float64{1, 0, 0, 1, 1, 0}
	// By hand: s = Σ (1 + y)f² = 2·.25 + 1.5625 + 4 + 2·.5625 + 2·1 + 4 = 13.1875; cost 3s.
	wantCost := 3 * 13.1875
	wantGrad := make([]float64, len(f))
	for i := range f {
		wantGrad[i] = 3 * 2 * (1 + y[i]) * f[i]
	}
	const tol = 1e-6 // float32 rounding of values of order 10
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, machine := range []string{"tape", "lisp"} {
			for _, labelDims := range []int{1, 2} {
				t.Run(fmt.Sprintf("%v/%s/labels%dd", dt, machine, labelDims), func(t *testing.T) {
					g := gorgonia.NewGraph()
					fv, err := NewVector(dt, append([]float64(nil), f...))
					require.NoError(t, err)
					require.NoError(t, fv.Reshape(2, 3))
					fn := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(2, 3), gorgonia.WithName("f"), gorgonia.WithValue(fv))
					var yn *gorgonia.Node
					var k Kernel = weightedSquares{}
					want, grad := wantCost, wantGrad
					if labelDims == 2 {
						yv, err := NewVector(dt, append([]float64(nil), y...))
						require.NoError(t, err)
						require.NoError(t, yv.Reshape(2, 3))
						yn = gorgonia.NewMatrix(g, dt, gorgonia.WithShape(2, 3), gorgonia.WithName("y"), gorgonia.WithValue(yv))
					} else {
						// Row labels: s = Σ f², whatever they are.
						yv, err := NewVector(dt, []float64{1, 0})
						require.NoError(t, err)
						yn = gorgonia.NewVector(g, dt, gorgonia.WithShape(2), gorgonia.WithName("y"), gorgonia.WithValue(yv))
						k = rowSquares{}
						want = 3 * (0.25 + 1.5625 + 4 + 0.5625 + 1 + 4)
						grad = make([]float64, len(f))
						for i := range f {
							grad[i] = 3 * 2 * f[i]
						}
					}
					s, err := ApplyRows(k, fn, yn)
					require.NoError(t, err)
					three, err := NewScalar(dt, 3)
					require.NoError(t, err)
					cost, err := gorgonia.Mul(s, gorgonia.NewConstant(three))
					require.NoError(t, err)
					var vm gorgonia.VM
					if machine == "tape" {
						_, err := gorgonia.Grad(cost, fn)
						require.NoError(t, err)
						vm = gorgonia.NewTapeMachine(g)
					} else {
						vm = gorgonia.NewLispMachine(g)
					}
					defer vm.Close()
					require.NoError(t, vm.RunAll())
					c, err := Scalar(cost.Value())
					require.NoError(t, err)
					require.InDelta(t, want, c, tol*want)
					gv, err := fn.Grad()
					require.NoError(t, err)
					require.Equal(t, tensor.Shape{2, 3}, gv.Shape())
					got, err := Floats(gv)
					require.NoError(t, err)
					require.InDeltaSlice(t, grad, got, tol*24)
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
	m := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(4, 3), gorgonia.WithName("m"))
	v := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(4), gorgonia.WithName("v"))
	cases := []struct {
		name           string
		scores, labels *gorgonia.Node
		want           error
		dims           int
	}{
		{"vector labels", m, v, nil, 1},
		{"matrix labels", m, gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(4, 3), gorgonia.WithName("m2")), nil, 2},
		{"nil", nil, v, check.ErrNode, 0},
		{"two graphs", m, gorgonia.NewVector(other, tensor.Float64, gorgonia.WithShape(4), gorgonia.WithName("o")), check.ErrNode, 0},
		{"vector scores", v, v, check.ErrNode, 0},
		{"float32 labels", m, gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(4), gorgonia.WithName("v32")), check.ErrNode, 0},
		{"short labels", m, gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(3), gorgonia.WithName("v3")), check.ErrLength, 0},
		{"label columns", m, gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(4, 2), gorgonia.WithName("m42")), check.ErrLength, 0},
		{"no shape", m, gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("ns")), check.ErrNode, 0},
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
