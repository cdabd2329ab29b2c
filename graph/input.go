package graph

import (
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
)

// Input returns an input node of g named name, of dtype dt (tensor.Float32 or tensor.Float64),
// holding a copy of xs in row-major order. With no shape it is a vector of len(xs); shape
// () (an empty, non-nil slice such as []int{}) makes a scalar of the single element of xs;
// otherwise the product of shape must be len(xs). The node can be checked by gradcheck and
// differentiated by gorgonia.Grad.
//
// A node that cannot be built — a nil graph, a dtype other than float32 or float64, no data, or a
// shape that does not match the data — is [rocops.ErrNode]; for a float32 input, a finite value
// beyond float32's range (about 3.4e38), which would become ±Inf, is [rocops.ErrRange].
func Input(g *gorgonia.ExprGraph, dt tensor.Dtype, name string, xs []float64, shape ...int) (*gorgonia.Node, error) {
	if g == nil {
		return nil, check.Errorf("graph", rocops.ErrNode, "%q: nil graph", name)
	}
	if dt != tensor.Float64 && dt != tensor.Float32 {
		return nil, check.Errorf("graph", rocops.ErrNode, "%q: dtype %v; want float32 or float64", name, dt)
	}
	if len(xs) == 0 {
		return nil, check.Errorf("graph", rocops.ErrNode, "%q: no data", name)
	}
	if shape == nil {
		shape = []int{len(xs)}
	}
	size := 1
	for _, d := range shape {
		if d <= 0 {
			return nil, check.Errorf("graph", rocops.ErrNode, "%q: shape %v has a dimension ≤ 0", name, shape)
		}
		size *= d
	}
	if size != len(xs) {
		return nil, check.Errorf("graph", rocops.ErrNode, "%q: shape %v holds %d elements, got %d", name, shape, size, len(xs))
	}
	if dt == tensor.Float32 {
		for i, x := range xs {
			if !floats.Fits[float32](x) {
				return nil, check.Errorf("graph", rocops.ErrRange, "%q: element %d, %g, is beyond float32's range", name, i, x)
			}
		}
	}
	var v gorgonia.Value
	switch {
	case len(shape) == 0 && dt == tensor.Float64:
		v = gorgonia.NewF64(xs[0])
	case len(shape) == 0:
		v = gorgonia.NewF32(float32(xs[0]))
	case dt == tensor.Float64:
		v = tensor.New(tensor.WithShape(shape...), tensor.WithBacking(floats.From64[float64](xs)))
	default:
		v = tensor.New(tensor.WithShape(shape...), tensor.WithBacking(floats.From64[float32](xs)))
	}
	return gorgonia.NewTensor(g, dt, len(shape), gorgonia.WithShape(shape...), gorgonia.WithName(name), gorgonia.WithValue(v)), nil
}
