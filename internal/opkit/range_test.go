package opkit

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/race"
)

// fixed is a kernel whose value is value and whose gradient is grad in every element,
// whatever the scores: it puts any float64 result in front of the narrowing to the graph.
type fixed struct{ value, grad float64 }

func (fixed) Package() string                         { return "opkit_test" }
func (k fixed) String() string                        { return fmt.Sprintf("Fixed{%v, %v}", k.value, k.grad) }
func (k fixed) Value(f, _ []float64) (float64, error) { return k.value, nil }
func (k fixed) Gradient(f, _ []float64) ([]float64, error) {
	g := make([]float64, len(f))
	for i := range g {
		g[i] = k.grad
	}
	return g, nil
}

// TestApplyRangeChecked: a value or gradient that is finite in float64 but not in the graph's
// dtype, directly or once scaled by the upstream gradient, fails the run with rocops.ErrRange
// prefixed by the kernel's package on both machines; results that fit pass unchanged.
func TestApplyRangeChecked(t *testing.T) {
	cases := []struct {
		name     string
		dt       tensor.Dtype
		k        fixed
		upstream float64
		overflow bool
	}{
		{"float32 value fits", tensor.Float32, fixed{3e38, 1}, 1, false},
		{"float32 value beyond 3.4e38", tensor.Float32, fixed{1e39, 1}, 1, true},
		{"float32 gradient beyond 3.4e38", tensor.Float32, fixed{1, -1e39}, 1, true},
		{"float32 gradient times upstream", tensor.Float32, fixed{1, 1e30}, 1e10, true},
		{"float64 gradient times upstream", tensor.Float64, fixed{1, 1e300}, 1e10, true},
		{"float64 large but finite", tensor.Float64, fixed{1e300, 1e300}, 1, false},
	}
	for _, c := range cases {
		for _, machine := range []string{"tape", "lisp"} {
			t.Run(c.name+"/"+machine, func(t *testing.T) {
				if machine == "lisp" && c.overflow && race.Enabled {
					t.Skip("a failing LispMachine run races inside Gorgonia (package internal/race)")
				}
				g := gorgonia.NewGraph()
				fv, err := NewVector(c.dt, []float64{1, 2})
				require.NoError(t, err)
				f := gorgonia.NewVector(g, c.dt, gorgonia.WithShape(2), gorgonia.WithName("f"), gorgonia.WithValue(fv))
				yv, err := NewVector(c.dt, []float64{0, 1})
				require.NoError(t, err)
				y := gorgonia.NewVector(g, c.dt, gorgonia.WithShape(2), gorgonia.WithName("y"), gorgonia.WithValue(yv))
				s, err := Apply(c.k, f, y)
				require.NoError(t, err)
				up, err := NewScalar(c.dt, c.upstream)
				require.NoError(t, err)
				cost, err := gorgonia.Mul(s, gorgonia.NewConstant(up))
				require.NoError(t, err)
				var vm gorgonia.VM
				if machine == "tape" {
					_, err := gorgonia.Grad(cost, f)
					require.NoError(t, err)
					vm = gorgonia.NewTapeMachine(g)
				} else {
					vm = gorgonia.NewLispMachine(g)
				}
				defer vm.Close()
				err = vm.RunAll()
				if !c.overflow {
					require.NoError(t, err)
					gv, err := f.Grad()
					require.NoError(t, err)
					got, err := Floats(gv)
					require.NoError(t, err)
					want := float64(castTo(c.dt, c.k.grad*c.upstream))
					require.Equal(t, []float64{want, want}, got)
					return
				}
				require.Error(t, err)
				// Gorgonia's wrappers hide the cause from errors.Is; the message keeps it.
				require.Contains(t, err.Error(), "opkit_test: "+rocops.ErrRange.Error()+": Fixed{")
				require.Contains(t, err.Error(), "does not fit in")
			})
		}
	}
}

func castTo(dt tensor.Dtype, x float64) float64 {
	if dt == tensor.Float32 {
		return float64(float32(x))
	}
	return x
}

// TestValuesRange: the value constructors and AddScaled report a finite float64 that does not
// fit in float32 as a *RangeError, and AddScaled leaves its destination unchanged then.
func TestValuesRange(t *testing.T) {
	var re *RangeError
	_, err := NewScalar(tensor.Float32, -4e38)
	require.True(t, errors.As(err, &re), "%v", err)
	require.ErrorIs(t, err, rocops.ErrRange)
	require.Equal(t, RangeError{Index: -1, Value: -4e38, Dtype: tensor.Float32}, *re)
	_, err = NewVector(tensor.Float32, []float64{1, math.MaxFloat32, 1e39})
	require.True(t, errors.As(err, &re), "%v", err)
	require.Equal(t, 2, re.Index)
	// Non-finite values are not range errors: they pass as they are.
	v, err := NewVector(tensor.Float32, []float64{math.Inf(1), math.NaN()})
	require.NoError(t, err)
	require.True(t, math.IsInf(float64(v.Data().([]float32)[0]), 1))

	dst, err := NewVector(tensor.Float32, []float64{1, 3e38})
	require.NoError(t, err)
	err = AddScaled(dst, []float64{1, 1e38}, 1)
	require.True(t, errors.As(err, &re), "%v", err)
	require.Equal(t, 1, re.Index)
	require.Equal(t, []float32{1, 3e38}, dst.Data(), "unchanged after the error")
	// The sum is formed in float64 and rounded once: a term beyond float32 whose sum fits.
	require.NoError(t, AddScaled(dst, []float64{0, -5e38}, 1))
	require.Equal(t, float32(3e38-5e38), dst.Data().([]float32)[1])
}

// TestApplyRangeMessage: a value beyond float32 fails the run with rocops.ErrRange, prefixed by
// the kernel's package and naming the kernel, what overflowed and the value. s = Σ (1 + y_i)·f_i²
// ≈ 3e40 at f = (1e20, 1e20), y = (0, 1) (1e20 rounded to float32 is 1.00000002e20) does not
// fit in float32.
func TestApplyRangeMessage(t *testing.T) {
	g, _, cost := build(t, tensor.Float32, weightedSquares{}, []float64{1e20, 1e20}, []float64{0, 1})
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	err := vm.RunAll()
	require.Error(t, err, "cost %v", cost.Value())
	require.Contains(t, err.Error(), "opkit_test: value out of range: WeightedSquares{} value: 3.0000001")
	require.Contains(t, err.Error(), "e+40 does not fit in float32")
}
