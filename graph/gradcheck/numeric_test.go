package gradcheck

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestDerivWeightsSymmetric(t *testing.T) {
	// The textbook five-point stencil: (f(−2h) − 8f(−h) + 8f(h) − f(2h)) / (12h).
	const h = 0.125 // a power of two, so every weight below is exact
	w0, w := derivWeights([]float64{-2 * h, -h, h, 2 * h})
	require.Equal(t, 0.0, w0)
	require.Equal(t, []float64{1 / (12 * h), -8 / (12 * h), 8 / (12 * h), -1 / (12 * h)}, w)
}

func TestDerivWeightsExactOnQuartics(t *testing.T) {
	// Interpolation at 5 points reproduces a quartic, so the weights give its derivative at 0,
	// the coefficient c1, for any distinct displacements.
	const tol = 1e-9 // rounding in weights of order 1/h with h ~ 1e-2
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 50; trial++ {
		h := 1e-2 * (0.5 + rng.Float64())
		t4 := []float64{-2 * h, -h, h, 2 * h}
		for j := range t4 {
			t4[j] *= 1 + 0.1*(rng.Float64()-0.5) // asymmetric, as float32 rounding makes them
		}
		var c [5]float64
		for k := range c {
			c[k] = rng.NormFloat64()
		}
		p := func(x float64) float64 { return c[0] + x*(c[1]+x*(c[2]+x*(c[3]+x*c[4]))) }
		w0, w := derivWeights(t4)
		got := w0 * p(0)
		for j := range t4 {
			got += w[j] * p(t4[j])
		}
		require.InDelta(t, c[1], got, tol*(1+math.Abs(c[1])), "trial %d", trial)
	}
}

// expSum is f(x) = Σ_i exp(k·x_i), f′_i = k·exp(k·x_i), whose third derivative k³·exp(k·x_i)
// is 100 times its first for k = 10.
func expSum(k float64, x elements) float64 {
	s := 0.0
	for i := 0; i < x.Len(); i++ {
		s += math.Exp(k * x.At(i))
	}
	return s
}

func TestNumericGradLargeThirdDerivative(t *testing.T) {
	const k = 10
	xs := dense[float64]{0.3, -0.2, 0.05, 0.41}
	eval := func() (float64, error) { return expSum(k, xs), nil }
	want := make([]float64, len(xs))
	for i, x := range xs {
		want[i] = k * math.Exp(k*x)
	}
	got, err := numericGrad(xs, defaultStep64, expSum(k, xs), eval)
	require.NoError(t, err)
	// Five-point truncation h⁴k⁴/30 ≈ 3e-10 relative at h = 1e-3.
	require.Less(t, normRelErr(t, got, want), 1e-9)

	// The two-point central difference at the same step misses 1e-6: its error h²k²/6 ≈ 1.7e-5.
	central := make([]float64, len(xs))
	for i, x := range xs {
		h := defaultStep64
		central[i] = (math.Exp(k*(x+h)) - math.Exp(k*(x-h))) / (2 * h)
	}
	require.Greater(t, normRelErr(t, central, want), 1e-6)
}

func TestNumericGradFloat32Displacements(t *testing.T) {
	// float32 elements cannot hold x ± h exactly. f is evaluated in float64 on the stored
	// values, so the only error left is truncation, h⁴·f⁽⁵⁾/30 ≤ 3e-8 for f = Σ exp(x_i) with
	// h = 1e-2·max(1, |x|) ≤ 0.031; assuming exact displacements ±h, ±2h would add the rounding
	// of x ± h, about ulp(x)/h ≈ 1e-5 relative.
	xs := dense[float32]{1.9999999, 0.7, -1.3000001, 3.1}
	want := make([]float64, len(xs))
	for i, x := range xs {
		want[i] = math.Exp(float64(x))
	}
	eval := func() (float64, error) { return expSum(1, xs), nil }
	got, err := numericGrad(xs, defaultStep32, expSum(1, xs), eval)
	require.NoError(t, err)
	require.Less(t, normRelErr(t, got, want), 1e-7)
}

func TestNumericGradRestoresValues(t *testing.T) {
	fail := errors.New("boom")
	for _, c := range []struct {
		name   string
		x      elements
		failAt int // the evaluation that fails: midway through an element's four
	}{
		{"float64", dense[float64]{0.1, 1.9999999999999998, -3}, 7},
		{"float32", dense[float32]{0.1, 1.9999999, -3}, 7},
		{"scalar", scalar[float32]{p: new(float32(1.9999999))}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := make([]float64, c.x.Len())
			for i := range before {
				before[i] = c.x.At(i)
			}
			calls := 0
			eval := func() (float64, error) {
				calls++
				if calls == c.failAt {
					return 0, fail
				}
				return 1, nil
			}
			_, err := numericGrad(c.x, 1e-2, 1, eval)
			require.ErrorIs(t, err, fail)
			for i := range before {
				require.Equal(t, before[i], c.x.At(i), "element %d", i)
			}
			_, err = numericGrad(c.x, 1e-2, 1, func() (float64, error) { return 1, nil })
			require.NoError(t, err)
			for i := range before {
				require.Equal(t, before[i], c.x.At(i), "element %d", i)
			}
		})
	}
}

func TestElementsOf(t *testing.T) {
	f64 := gorgonia.NewF64(2.5)
	x, err := elementsOf(f64)
	require.NoError(t, err)
	require.Equal(t, 1, x.Len())
	require.Equal(t, 3.0, x.Set(0, 3))
	require.Equal(t, 3.0, float64(*f64)) // in place

	m := tensor.New(tensor.WithShape(2, 2), tensor.WithBacking([]float32{1, 2, 3, 4}))
	x, err = elementsOf(m)
	require.NoError(t, err)
	require.Equal(t, 4, x.Len())
	require.Equal(t, float64(float32(0.1)), x.Set(3, 0.1)) // rounded to float32
	require.Equal(t, float32(0.1), m.Data().([]float32)[3])

	view, err := m.Slice(gorgonia.S(1))
	require.NoError(t, err)
	_, err = elementsOf(view)
	require.Error(t, err)
	_, err = elementsOf(gorgonia.NewI(3))
	require.Error(t, err)
}

func TestCompare(t *testing.T) {
	cases := []struct {
		name    string
		n, a    []float64
		wantAbs float64
		wantRel float64
		worst   int
	}{
		// Hand-worked: |1.1−1| = 0.1 is the largest error; the scale is ‖n‖∞ = 2.
		{"scaled by the norm", []float64{1, -2, 0}, []float64{1.1, -2, 0}, 0.1, 0.05, 0},
		// The zero component is judged on the node's scale, 4, not its own.
		{"near-zero component", []float64{4, 0}, []float64{4, 1e-9}, 1e-9, 2.5e-10, 1},
		{"both zero", []float64{0, 0}, []float64{0, 0}, 0, 0, 0},
		// A sign error: |−3 − 3| = 6 over max(3, 3).
		{"sign", []float64{3}, []float64{-3}, 6, 2, 0},
		{"NaN", []float64{1, 2}, []float64{1, math.NaN()}, math.Inf(1), math.Inf(1), 1},
		{"Inf", []float64{math.Inf(1), 2}, []float64{1, 2}, math.Inf(1), math.Inf(1), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := compare(c.n, c.a)
			require.NoError(t, err)
			if math.IsInf(c.wantAbs, 1) {
				require.True(t, math.IsInf(got.MaxAbs, 1) && math.IsInf(got.MaxRel, 1), "%+v", got)
			} else {
				require.InDelta(t, c.wantAbs, got.MaxAbs, 1e-15)
				require.InDelta(t, c.wantRel, got.MaxRel, 1e-15)
			}
			require.Equal(t, c.worst, got.Worst)
			require.Equal(t, c.a, got.Grad)
		})
	}
	_, err := compare([]float64{1, 2}, []float64{1})
	require.ErrorIs(t, err, ErrRun)
}

func TestNumericOnSlices(t *testing.T) {
	// f(x) = x0³·x1 + sin(x1): ∂f/∂x0 = 3x0²·x1, ∂f/∂x1 = x0³ + cos(x1), worked by hand.
	f := func(x []float64) (float64, error) { return x[0]*x[0]*x[0]*x[1] + math.Sin(x[1]), nil }
	x := []float64{1.5, -0.7}
	want := []float64{3 * 1.5 * 1.5 * -0.7, 1.5*1.5*1.5 + math.Cos(-0.7)}
	// The five-point error is h⁴·f⁽⁵⁾/30 with h = 1e-3: about 1e-13 here; rounding ~ε/h.
	const tolNumeric = 1e-10
	got, err := Numeric(f, x, 0)
	require.NoError(t, err)
	for i := range want {
		require.InDelta(t, want[i], got[i], tolNumeric, "∂f/∂x%d = %v, want %v", i, got[i], want[i])
	}
	require.Equal(t, 1.5, x[0], "x not restored: %v", x)
	require.Equal(t, -0.7, x[1], "x not restored: %v", x)
	_, err = Numeric(f, x, -1)
	require.ErrorIs(t, err, rocops.ErrConfig, "negative step: %v, want rocops.ErrConfig", err)
	require.True(t, strings.HasPrefix(err.Error(), "gradcheck: "), "negative step: %v, want rocops.ErrConfig", err)
	boom := errors.New("boom")
	calls := 0
	_, err = Numeric(func(x []float64) (float64, error) {
		if calls++; calls > 2 {
			return 0, boom
		}
		return x[0], nil
	}, x, 0)
	require.ErrorIs(t, err, boom, "failing fn: %v, x = %v; want boom and x restored", err, x)
	require.Equal(t, 1.5, x[0], "failing fn: %v, x = %v; want boom and x restored", err, x)
}
