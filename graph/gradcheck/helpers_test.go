package gradcheck

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/logistic"
)

// meanCE is the mean cross-entropy on logits (Bishop, Pattern Recognition and Machine
// Learning, §4.3.2) written as an opkit.Kernel,
//
//	s(f, y) = (1/n) Σ_i softplus(f_i) − y_i·f_i,   ∂s/∂f_i = (σ(f_i) − y_i)/n,
//
// with the gradient multiplied by Scale: Scale = 1 is correct, anything else is a deliberately
// wrong backward pass.
type meanCE struct{ Scale float64 }

func (meanCE) Package() string  { return "gradcheck_test" }
func (k meanCE) String() string { return fmt.Sprintf("MeanCE{scale=%g}", k.Scale) }

func (meanCE) Value(f, y []float64) (float64, error) {
	s := 0.0
	for i := range f {
		s += logistic.Softplus(f[i]) - y[i]*f[i]
	}
	return s / float64(len(f)), nil
}

func (k meanCE) Gradient(f, y []float64) ([]float64, error) {
	g := make([]float64, len(f))
	for i := range f {
		g[i] = k.Scale * (logistic.Sigmoid(f[i]) - y[i]) / float64(len(f))
	}
	return g, nil
}

// errTooLarge is returned by capped for a score above its limit.
var errTooLarge = errors.New("gradcheck_test: score above limit")

// capped is Σ_i f_i², failing at run time when a score exceeds Limit, as an op does on bad input.
type capped struct{ Limit float64 }

func (capped) Package() string  { return "gradcheck_test" }
func (k capped) String() string { return fmt.Sprintf("Capped{limit=%g}", k.Limit) }

func (k capped) Value(f, _ []float64) (float64, error) {
	s := 0.0
	for _, x := range f {
		if x > k.Limit {
			return 0, errTooLarge
		}
		s += x * x
	}
	return s, nil
}

func (capped) Gradient(f, _ []float64) ([]float64, error) {
	g := make([]float64, len(f))
	for i, x := range f {
		g[i] = 2 * x
	}
	return g, nil
}

// input builds an input node holding xs (see graph.Input), failing the test on error.
func input(t testing.TB, g *gorgonia.ExprGraph, dt tensor.Dtype, name string, xs []float64, shape ...int) *gorgonia.Node {
	t.Helper()
	n, err := graph.Input(g, dt, name, xs, shape...)
	require.NoError(t, err)
	return n
}

// uniform returns n numbers drawn uniformly from [lo, hi).
func uniform(rng *rand.Rand, n int, lo, hi float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = lo + (hi-lo)*rng.Float64()
	}
	return xs
}

// labels returns n labels in {0, 1}, both present.
func labels(rng *rand.Rand, n int) []float64 {
	ys := make([]float64, n)
	for i := range ys {
		if i < 2 {
			ys[i] = float64(i)
		} else if rng.IntN(2) == 1 {
			ys[i] = 1
		}
	}
	return ys
}

// normRelErr returns max_i |a_i − b_i| / max(‖a‖∞, ‖b‖∞), the error measure Check uses,
// computed independently of it.
func normRelErr(t testing.TB, a, b []float64) float64 {
	t.Helper()
	require.Len(t, a, len(b))
	num, den := 0.0, 0.0
	for i := range a {
		num = math.Max(num, math.Abs(a[i]-b[i]))
		den = math.Max(den, math.Max(math.Abs(a[i]), math.Abs(b[i])))
	}
	if den == 0 {
		return num
	}
	return num / den
}

// recorder is a testing.TB that records Errorf and Fatalf instead of failing the test.
type recorder struct {
	testing.TB
	errors, fatals []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
}

func (k meanCE) ValueGrad(f, y []float64) (float64, []float64, error) { return valueGrad(k, f, y) }
func (k capped) ValueGrad(f, y []float64) (float64, []float64, error) { return valueGrad(k, f, y) }

// valueGrad is the fused opkit.Kernel method of a kernel written as a value and a gradient.
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
