package gradcheck

import (
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
)

// elements gives in-place access to the elements of a wrt node's value, in row-major order.
type elements interface {
	Len() int
	// At returns element i as float64.
	At(i int) float64
	// Set stores x rounded to the value's dtype and returns the stored number as float64.
	Set(i int, x float64) float64
}

// dense is the backing array of a tensor.
type dense[T floats.Float] []T

func (d dense[T]) Len() int         { return len(d) }
func (d dense[T]) At(i int) float64 { return float64(d[i]) }
func (d dense[T]) Set(i int, x float64) float64 {
	d[i] = T(x)
	return float64(d[i])
}

// scalar is a *gorgonia.F64 or *gorgonia.F32 value.
type scalar[T floats.Float] struct{ p *T }

func (s scalar[T]) Len() int       { return 1 }
func (s scalar[T]) At(int) float64 { return float64(*s.p) }
func (s scalar[T]) Set(_ int, x float64) float64 {
	*s.p = T(x)
	return float64(*s.p)
}

// elementsOf returns in-place access to v, which must be a float32 or float64 scalar or a
// dense, non-view tensor.
func elementsOf(v gorgonia.Value) (elements, error) {
	switch v := v.(type) {
	case *gorgonia.F64:
		return scalar[float64]{(*float64)(v)}, nil
	case *gorgonia.F32:
		return scalar[float32]{(*float32)(v)}, nil
	case *tensor.Dense:
		if v.IsMaterializable() {
			return nil, fmt.Errorf("value is a view of another tensor; bind a contiguous copy")
		}
		switch v.Dtype() {
		case tensor.Float64:
			return dense[float64](v.Float64s()), nil
		case tensor.Float32:
			return dense[float32](v.Float32s()), nil
		}
	}
	return nil, fmt.Errorf("unsupported value %T of dtype %v", v, v.Dtype())
}

// floatsOf returns a float32 or float64 value (scalar or tensor) as a new []float64.
func floatsOf(v gorgonia.Value) ([]float64, error) {
	if v == nil {
		return nil, fmt.Errorf("no value")
	}
	switch d := v.Data().(type) {
	case []float64:
		return append([]float64(nil), d...), nil
	case []float32:
		return floats.To64(d), nil
	case float64:
		return []float64{d}, nil
	case float32:
		return []float64{float64(d)}, nil
	}
	return nil, fmt.Errorf("want a float32 or float64 value, got %T", v.Data())
}

// zero sets a float gradient value to zero in place; other values are left alone.
func zero(v gorgonia.Value) {
	switch v := v.(type) {
	case *tensor.Dense:
		v.Zero()
	case *gorgonia.F64:
		*v = 0
	case *gorgonia.F32:
		*v = 0
	}
}

// stencil holds the multiples of h at which the cost is evaluated around each element, in
// addition to the unperturbed point.
var stencil = [...]float64{-2, -1, 1, 2}

// derivWeights returns the weights w_0 (for the unperturbed point) and w_1..w_k (for the
// displacements t_1..t_k, all non-zero and distinct) such that
//
//	f′(x) ≈ w_0·f(x) + Σ_j w_j·f(x + t_j)
//
// is the derivative at 0 of the polynomial interpolating f at {0, t_1, …, t_k}. With the Lagrange
// basis L_j(s) = Π_{m≠j} (s − s_m)/(s_j − s_m) on the nodes s_0 = 0, s_j = t_j, it is
//
//	w_0 = −Σ_j 1/t_j,    w_j = Π_{m≠0,j} (−t_m) / Π_{m≠j} (t_j − s_m)   (j ≥ 1).
//
// For t = (−2h, −h, h, 2h) this is the five-point central difference
// (f(x−2h) − 8f(x−h) + 8f(x+h) − f(x+2h))/(12h), whose error is h⁴·f⁽⁵⁾/30 + O(h⁶). Using the
// displacements actually stored (a float32 element cannot hold x ± h exactly) keeps that order.
func derivWeights(t []float64) (w0 float64, w []float64) {
	w = make([]float64, len(t))
	for j, tj := range t {
		w0 -= 1 / tj
		num, den := 1.0, tj
		for m, tm := range t {
			if m != j {
				num *= -tm
				den *= tj - tm
			}
		}
		w[j] = num / den
	}
	return w0, w
}

// numericGrad returns ∂cost/∂x_i for every element of x by the stencil above, with
// h_i = step·max(1, |x_i|). f0 is the cost at the unperturbed x; eval computes the cost at the
// current x. Every element is restored to its exact original value before numericGrad returns,
// also when eval fails.
func numericGrad(x elements, step, f0 float64, eval func() (float64, error)) ([]float64, error) {
	grad := make([]float64, x.Len())
	t := make([]float64, len(stencil))
	f := make([]float64, len(stencil))
	for i := range grad {
		x0 := x.At(i)
		h := step * math.Max(1, math.Abs(x0))
		err := func() error {
			defer x.Set(i, x0)
			for j, k := range stencil {
				t[j] = x.Set(i, x0+k*h) - x0
				if t[j] == 0 || (j > 0 && t[j] == t[j-1]) {
					return check.Errorf("gradcheck", rocops.ErrConfig, "element %d = %g cannot resolve the step %g in its dtype; raise the step", i, x0, h)
				}
				var err error
				if f[j], err = eval(); err != nil {
					return err
				}
			}
			return nil
		}()
		if err != nil {
			return nil, err
		}
		w0, w := derivWeights(t)
		d := w0 * f0
		for j := range f {
			d += w[j] * f[j]
		}
		grad[i] = d
	}
	return grad, nil
}

// tiny keeps the relative error defined when both gradients are exactly zero: the smallest
// normal float64.
const tiny = 0x1p-1022

// compare returns the comparison of a machine's gradient a with the numeric gradient n, or an
// error if their lengths differ. A non-finite element makes both errors +Inf, with Worst
// pointing at it.
func compare(n, a []float64) (Comparison, error) {
	if len(a) != len(n) {
		return Comparison{}, fmt.Errorf("%w: the gradient has %d elements, the node %d", ErrRun, len(a), len(n))
	}
	c := Comparison{Grad: a}
	scale := tiny
	for i := range n {
		if !isFinite(n[i]) || !isFinite(a[i]) {
			c.MaxAbs, c.MaxRel, c.Worst = math.Inf(1), math.Inf(1), i
			return c, nil
		}
		scale = math.Max(scale, math.Max(math.Abs(n[i]), math.Abs(a[i])))
		if e := math.Abs(a[i] - n[i]); e > c.MaxAbs {
			c.MaxAbs, c.Worst = e, i
		}
	}
	c.MaxRel = c.MaxAbs / scale
	return c, nil
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Numeric returns the numerical gradient of fn at x, a function of a float64 slice rather than
// a graph, by the five-point differences Check uses: element i is displaced by ±h_i and ±2h_i
// with h_i = step·max(1, |x_i|), and step 0 means 1e-3, Check's float64 default. It is the module's one
// finite-difference routine, for tests of graph-free gradients such as
// kdequantile.Gradient. fn is called with x itself, perturbed in place, and must not keep or
// modify it; x is restored exactly before Numeric returns, also when fn fails.
func Numeric(fn func(x []float64) (float64, error), x []float64, step float64) ([]float64, error) {
	if step == 0 {
		step = defaultStep64
	}
	if !(step > 0) || math.IsInf(step, 0) {
		return nil, check.Errorf("gradcheck", rocops.ErrConfig, "step %v must be positive and finite", step)
	}
	f0, err := fn(x)
	if err != nil {
		return nil, err
	}
	return numericGrad(dense[float64](x), step, f0, func() (float64, error) { return fn(x) })
}
