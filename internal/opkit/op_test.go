package opkit

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// weightedSquares is s(f, y) = Σ_i (1 + y_i)·f_i², so ∂s/∂f_i = 2(1 + y_i)·f_i.
type weightedSquares struct{}

func (weightedSquares) Package() string { return "opkit_test" }
func (weightedSquares) String() string  { return "WeightedSquares{}" }
func (weightedSquares) Value(f, y []float64) (float64, error) {
	s := 0.0
	for i := range f {
		s += (1 + y[i]) * f[i] * f[i]
	}
	return s, nil
}
func (weightedSquares) Gradient(f, y []float64) ([]float64, error) {
	g := make([]float64, len(f))
	for i := range f {
		g[i] = 2 * (1 + y[i]) * f[i]
	}
	return g, nil
}

// failing returns an error at run time, as a kernel does for NaN scores.
type failing struct{ weightedSquares }

func (failing) Value([]float64, []float64) (float64, error) {
	return 0, fmt.Errorf("opkit_test: bad batch")
}

// build returns 3·s(f, y) with f and y as given, in dtype dt.
func build(t *testing.T, dt tensor.Dtype, k Kernel, f, y []float64) (g *gorgonia.ExprGraph, fn, cost *gorgonia.Node) {
	t.Helper()
	g = gorgonia.NewGraph()
	fv, err := NewVector(dt, append([]float64(nil), f...))
	require.NoError(t, err)
	yv, err := NewVector(dt, append([]float64(nil), y...))
	require.NoError(t, err)
	fn = gorgonia.NewVector(g, dt, gorgonia.WithShape(len(f)), gorgonia.WithName("f"), gorgonia.WithValue(fv))
	yn := gorgonia.NewVector(g, dt, gorgonia.WithShape(len(y)), gorgonia.WithName("y"), gorgonia.WithValue(yv))
	s, err := Apply(k, fn, yn)
	require.NoError(t, err)
	three, err := NewScalar(dt, 3)
	require.NoError(t, err)
	cost, err = gorgonia.Mul(s, gorgonia.NewConstant(three))
	require.NoError(t, err)
	return g, fn, cost
}

func TestApplyBothMachinesBothDtypes(t *testing.T) {
	f := []float64{0.5, -1.25, 2, 0.75}
	y := []float64{1, 0, 0, 1}
	// Expected by hand: s = 2·0.25 + 1.5625 + 4 + 2·0.5625 = 7.1875; cost = 3s.
	wantCost := 3 * 7.1875
	wantGrad := []float64{3 * 2 * 2 * 0.5, 3 * 2 * -1.25, 3 * 2 * 2, 3 * 2 * 2 * 0.75}
	const tol = 1e-6 // float32 rounding of values of order 10
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, machine := range []string{"tape", "lisp"} {
			t.Run(fmt.Sprintf("%v/%s", dt, machine), func(t *testing.T) {
				g, fn, cost := build(t, dt, weightedSquares{}, f, y)
				runOn(t, machine, g, cost, fn)
				c, err := Scalar(cost.Value())
				require.NoError(t, err)
				require.InDelta(t, wantCost, c, tol*wantCost)
				gv, err := fn.Grad()
				require.NoError(t, err)
				got, err := Floats(gv)
				require.NoError(t, err)
				require.InDeltaSlice(t, wantGrad, got, tol*12)
			})
		}
	}
}

func TestApplyReportsKernelErrors(t *testing.T) {
	g, _, _ := build(t, tensor.Float64, failing{}, []float64{1, 2}, []float64{0, 1})
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	err := vm.RunAll()
	require.Error(t, err)
	require.Contains(t, err.Error(), "opkit_test: bad batch")
}

func TestCheckPair(t *testing.T) {
	g := gorgonia.NewGraph()
	other := gorgonia.NewGraph()
	f64 := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(3), gorgonia.WithName("f64"))
	f32 := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(3), gorgonia.WithName("f32"))
	short := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(2), gorgonia.WithName("short"))
	mat := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(3, 2), gorgonia.WithName("mat"))
	ints := gorgonia.NewVector(g, tensor.Int, gorgonia.WithShape(3), gorgonia.WithName("ints"))
	far := gorgonia.NewVector(other, tensor.Float64, gorgonia.WithShape(3), gorgonia.WithName("far"))
	noShape := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("noshape"))
	cases := []struct {
		name           string
		scores, labels *gorgonia.Node
		sentinel       error
		want           string
	}{
		{"nil", nil, f64, rocops.ErrNode, "must not be nil"},
		{"graphs", f64, far, rocops.ErrNode, "different graphs"},
		{"dtypes", f64, f32, rocops.ErrNode, "labels must use the scores' dtype"},
		{"ints", ints, ints, rocops.ErrNode, "want float32 or float64"},
		{"matrix", mat, mat, rocops.ErrNode, "want a vector of shape (n), or a matrix of shape (n, 1) or (1, n), got shape (3, 2)"},
		// A vector node made without a shape used to panic in the ops (index out of range).
		{"no shape", noShape, f64, rocops.ErrNode, "has no shape"},
		{"no shape labels", f64, noShape, rocops.ErrNode, "labels: the vector has no shape"},
		{"lengths", f64, short, rocops.ErrLength, "3 scores, 2 labels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckPair("pkg", c.scores, c.labels)
			require.ErrorIs(t, err, c.sentinel)
			require.True(t, strings.HasPrefix(err.Error(), "pkg: "), err.Error())
			require.Contains(t, err.Error(), c.want)
		})
	}
	require.NoError(t, CheckPair("pkg", f64, f64))
}

func TestValues(t *testing.T) {
	v, err := NewVector(tensor.Float32, []float64{1.5, -2})
	require.NoError(t, err)
	require.Equal(t, []float32{1.5, -2}, v.Data())
	got, err := Floats(v)
	require.NoError(t, err)
	require.Equal(t, []float64{1.5, -2}, got)
	require.NoError(t, AddScaled(v, []float64{1, 1}, 0.5))
	require.Equal(t, []float32{2, -1.5}, v.Data())
	require.Error(t, AddScaled(v, []float64{1}, 1))
	s, err := NewScalar(tensor.Float32, math.Pi)
	require.NoError(t, err)
	x, err := Scalar(s)
	require.NoError(t, err)
	require.Equal(t, float64(float32(math.Pi)), x)
	_, err = NewScalar(tensor.Int, 1)
	require.Error(t, err)
}

func (k weightedSquares) ValueGrad(f, y []float64) (float64, []float64, error) {
	return valueGrad(k, f, y)
}
func (k failing) ValueGrad(f, y []float64) (float64, []float64, error) { return valueGrad(k, f, y) }
func (k fixed) ValueGrad(f, y []float64) (float64, []float64, error)   { return valueGrad(k, f, y) }

// valueGrad is the fused Kernel method of a test kernel written as a value and a gradient.
func valueGrad(k interface {
	Value(f, y []float64) (float64, error)
	Gradient(f, y []float64) ([]float64, error)
}, f, y []float64) (float64, []float64, error) {
	v, err := k.Value(f, y)
	if err != nil {
		return 0, nil, err
	}
	g, err := k.Gradient(f, y)
	return v, g, err
}

// runOn runs graph g once on the machine named ("tape": gorgonia.Grad of cost with respect to
// wrt, then a TapeMachine; "lisp": a LispMachine, which differentiates as it runs).
func runOn(t *testing.T, machine string, g *gorgonia.ExprGraph, cost, wrt *gorgonia.Node) {
	t.Helper()
	var vm gorgonia.VM
	if machine == "tape" {
		_, err := gorgonia.Grad(cost, wrt)
		require.NoError(t, err)
		vm = gorgonia.NewTapeMachine(g)
	} else {
		vm = gorgonia.NewLispMachine(g)
	}
	defer vm.Close()
	require.NoError(t, vm.RunAll())
}
