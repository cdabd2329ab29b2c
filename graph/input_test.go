package graph

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestInput(t *testing.T) {
	xs := []float64{1.5, -2, 0.25, 4, 8, -0.5}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		t.Run(dt.String(), func(t *testing.T) {
			g := gorgonia.NewGraph()
			cases := []struct {
				name  string
				xs    []float64
				shape []int
				want  tensor.Shape
			}{
				{"vector", xs, nil, tensor.Shape{6}},
				{"matrix", xs, []int{2, 3}, tensor.Shape{2, 3}},
				{"scalar", xs[:1], []int{}, tensor.ScalarShape()},
			}
			for _, c := range cases {
				n, err := Input(g, dt, c.name, c.xs, c.shape...)
				require.NoError(t, err)
				require.Equal(t, c.name, n.Name())
				require.True(t, c.want.Eq(n.Shape()), "shape %v, want %v", n.Shape(), c.want)
				require.Equal(t, dt, n.Value().Dtype())
				require.True(t, n.IsVar())
				require.Equal(t, len(c.want) == 0, n.IsScalar())
				// The values are exactly representable in float32, so both dtypes hold xs.
				var got []float64
				switch d := n.Value().Data().(type) {
				case []float64:
					got = d
				case []float32:
					for _, x := range d {
						got = append(got, float64(x))
					}
				case float64:
					got = []float64{d}
				case float32:
					got = []float64{float64(d)}
				}
				require.Equal(t, c.xs, got)
			}
		})
	}
	// The node holds a copy: changing xs afterwards does not change it.
	g := gorgonia.NewGraph()
	data := []float64{1, 2}
	n, err := Input(g, tensor.Float64, "copy", data)
	require.NoError(t, err)
	data[0] = 9
	require.Equal(t, []float64{1, 2}, n.Value().Data())
}

func TestInputErrors(t *testing.T) {
	g := gorgonia.NewGraph()
	cases := []struct {
		name  string
		g     *gorgonia.ExprGraph
		dt    tensor.Dtype
		xs    []float64
		shape []int
	}{
		{"nil graph", nil, tensor.Float64, []float64{1}, nil},
		{"int dtype", g, tensor.Int, []float64{1}, nil},
		{"no data", g, tensor.Float64, nil, nil},
		{"size mismatch", g, tensor.Float64, []float64{1, 2, 3}, []int{2, 2}},
		{"zero dimension", g, tensor.Float64, []float64{1}, []int{0, 1}},
		{"scalar of two", g, tensor.Float32, []float64{1, 2}, []int{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Input(c.g, c.dt, c.name, c.xs, c.shape...)
			require.Error(t, err)
			require.True(t, errors.Is(err, rocops.ErrNode), "%v", err)
			require.True(t, strings.HasPrefix(err.Error(), "graph: "), "%v", err)
		})
	}
}

// TestInputFloat32Range: a finite value beyond float32's range (about 3.4e38) is an error
// for a float32 input, not a node holding ±Inf; ±Inf and NaN themselves pass as given.
func TestInputFloat32Range(t *testing.T) {
	g := gorgonia.NewGraph()
	for _, shape := range [][]int{nil, {}} {
		xs := []float64{-1e39}
		if shape == nil {
			xs = []float64{1, 2, 1e39}
		}
		_, err := Input(g, tensor.Float32, "x", xs, shape...)
		require.ErrorIs(t, err, rocops.ErrRange, "float32 input %v (shape %v): %v, want rocops.ErrRange", xs, shape, err)
		_, err = Input(g, tensor.Float64, "x64", xs, shape...)
		require.NoError(t, err, "float64 input %v: %v", xs, err)
	}
	_, err := Input(g, tensor.Float32, "inf", []float64{math.Inf(1), math.NaN(), math.MaxFloat32})
	require.NoError(t, err, "±Inf, NaN and MaxFloat32 are representable: %v", err)
}
