package opkit

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Float is the set of element types the module's graphs use.
type Float interface{ ~float32 | ~float64 }

// Convert returns xs as float64. A []float64 is returned as is (not copied): callers treat it
// as read-only.
func Convert[T Float](xs []T) []float64 {
	if f, ok := any(xs).([]float64); ok {
		return f
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// Floats returns the elements of a float32 or float64 vector value as float64. A float64
// backing array is returned without copying and must not be modified.
func Floats(v gorgonia.Value) ([]float64, error) {
	if v == nil {
		return nil, fmt.Errorf("opkit: no value")
	}
	switch d := v.Data().(type) {
	case []float64:
		return d, nil
	case []float32:
		return Convert(d), nil
	default:
		return nil, fmt.Errorf("opkit: want a float32 or float64 vector, got %T", v.Data())
	}
}

// Scalar returns a float32 or float64 scalar value (or a one-element tensor) as float64.
func Scalar(v gorgonia.Value) (float64, error) {
	if v == nil {
		return 0, fmt.Errorf("opkit: no value")
	}
	switch d := v.Data().(type) {
	case float64:
		return d, nil
	case float32:
		return float64(d), nil
	case []float64:
		if len(d) == 1 {
			return d[0], nil
		}
	case []float32:
		if len(d) == 1 {
			return float64(d[0]), nil
		}
	}
	return 0, fmt.Errorf("opkit: want a float32 or float64 scalar, got %T", v.Data())
}

// NewScalar returns x as a scalar value of dtype dt (tensor.Float32 or tensor.Float64).
func NewScalar(dt tensor.Dtype, x float64) (gorgonia.Value, error) {
	switch dt {
	case tensor.Float64:
		return gorgonia.NewF64(x), nil
	case tensor.Float32:
		return gorgonia.NewF32(float32(x)), nil
	}
	return nil, fmt.Errorf("opkit: unsupported dtype %v", dt)
}

// NewVector returns xs as a vector of dtype dt. A float64 vector takes ownership of xs.
func NewVector(dt tensor.Dtype, xs []float64) (*tensor.Dense, error) {
	switch dt {
	case tensor.Float64:
		return tensor.New(tensor.WithShape(len(xs)), tensor.WithBacking(xs)), nil
	case tensor.Float32:
		b := make([]float32, len(xs))
		for i, x := range xs {
			b[i] = float32(x)
		}
		return tensor.New(tensor.WithShape(len(xs)), tensor.WithBacking(b)), nil
	}
	return nil, fmt.Errorf("opkit: unsupported dtype %v", dt)
}

// AddScaled adds scale·g to the float32 or float64 vector value dst, element by element. It
// is how DoDiff accumulates into an input's gradient.
func AddScaled(dst gorgonia.Value, g []float64, scale float64) error {
	if dst == nil {
		return fmt.Errorf("opkit: no gradient value to accumulate into")
	}
	switch d := dst.Data().(type) {
	case []float64:
		return addScaled(d, g, scale)
	case []float32:
		return addScaled(d, g, scale)
	}
	return fmt.Errorf("opkit: cannot accumulate a gradient into %T", dst.Data())
}

func addScaled[T Float](dst []T, g []float64, scale float64) error {
	if len(dst) != len(g) {
		return fmt.Errorf("opkit: gradient has %d elements, its destination %d", len(g), len(dst))
	}
	for i, x := range g {
		dst[i] += T(scale * x)
	}
	return nil
}
