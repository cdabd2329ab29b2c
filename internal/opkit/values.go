package opkit

import (
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/floats"
)

// RangeError is returned by [NewScalar], [NewVector] and [AddScaled] when a finite float64
// value becomes ±Inf in the destination dtype: a magnitude beyond float32's largest finite
// value, about 3.4e38 (or, when accumulating, a sum beyond the dtype's range). Narrowing
// never turns a finite result into an infinite one silently.
type RangeError struct {
	Index int          // the element of a vector; −1 for a scalar
	Value float64      // the value in float64 (for AddScaled, the sum)
	Dtype tensor.Dtype // the dtype it does not fit in
}

func (e *RangeError) Error() string { return "opkit: " + e.Detail() }

// Is makes a RangeError match [rocops.ErrRange].
func (e *RangeError) Is(target error) bool { return target == rocops.ErrRange }

// Detail describes the value without the package prefix, for callers that report it with their
// own package's prefix.
func (e *RangeError) Detail() string {
	if e.Index < 0 {
		return fmt.Sprintf("%g does not fit in %v", e.Value, e.Dtype)
	}
	return fmt.Sprintf("element %d, %g, does not fit in %v", e.Index, e.Value, e.Dtype)
}

// Floats returns the elements of a float32 or float64 vector value as float64. A float64
// backing array is returned without copying and must not be modified.
func Floats(v gorgonia.Value) ([]float64, error) {
	if v == nil {
		return nil, fmt.Errorf("opkit: no value")
	}
	if d, ok := v.(*tensor.Dense); ok && d != nil && d.Dtype() == tensor.Float64 {
		return d.Float64s(), nil // without the allocation of Data
	}
	switch d := v.Data().(type) {
	case []float64:
		return d, nil
	case []float32:
		return floats.To64(d), nil
	default:
		return nil, fmt.Errorf("opkit: want a float32 or float64 vector, got %T", v.Data())
	}
}

// Scalar returns a float32 or float64 scalar value (or a one-element tensor) as float64.
func Scalar(v gorgonia.Value) (float64, error) {
	if v == nil {
		return 0, fmt.Errorf("opkit: no value")
	}
	switch d := v.(type) { // without the allocation of Data
	case *gorgonia.F64:
		return float64(*d), nil
	case *gorgonia.F32:
		return float64(*d), nil
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
		if !floats.Fits[float32](x) {
			return nil, &RangeError{Index: -1, Value: x, Dtype: dt}
		}
		return gorgonia.NewF32(float32(x)), nil
	}
	return nil, fmt.Errorf("opkit: unsupported dtype %v", dt)
}

// NewVector returns xs as a vector of dtype dt. A float64 vector takes ownership of xs. A
// finite element beyond float32's range gives a [*RangeError], naming the element.
func NewVector(dt tensor.Dtype, xs []float64) (*tensor.Dense, error) {
	switch dt {
	case tensor.Float64:
		return tensor.New(tensor.WithShape(len(xs)), tensor.WithBacking(xs)), nil
	case tensor.Float32:
		b := make([]float32, len(xs))
		for i, x := range xs {
			if !floats.Fits[float32](x) {
				return nil, &RangeError{Index: i, Value: x, Dtype: dt}
			}
			b[i] = float32(x)
		}
		return tensor.New(tensor.WithShape(len(xs)), tensor.WithBacking(b)), nil
	}
	return nil, fmt.Errorf("opkit: unsupported dtype %v", dt)
}

// AddScaled adds scale·g to the float32 or float64 vector value dst, element by element. It
// is how DoDiff accumulates into an input's gradient. When a finite element of dst would
// become ±Inf (the term or the sum beyond the dtype's range) it returns a [*RangeError] and
// leaves dst unchanged. The sum is rounded once, from float64.
func AddScaled(dst gorgonia.Value, g []float64, scale float64) error {
	if dst == nil {
		return fmt.Errorf("opkit: no gradient value to accumulate into")
	}
	switch d := dst.Data().(type) {
	case []float64:
		return addScaled(d, g, scale, tensor.Float64)
	case []float32:
		return addScaled(d, g, scale, tensor.Float32)
	}
	return fmt.Errorf("opkit: cannot accumulate a gradient into %T", dst.Data())
}

func addScaled[T floats.Float](dst []T, g []float64, scale float64, dt tensor.Dtype) error {
	if len(dst) != len(g) {
		return fmt.Errorf("opkit: gradient has %d elements, its destination %d", len(g), len(dst))
	}
	for i, x := range g {
		d, sum := float64(dst[i]), float64(dst[i])+scale*x
		if finite(d) && finite(scale) && finite(x) && !finite(float64(T(sum))) {
			return &RangeError{Index: i, Value: sum, Dtype: dt}
		}
	}
	for i, x := range g {
		dst[i] = T(float64(dst[i]) + scale*x)
	}
	return nil
}

func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
