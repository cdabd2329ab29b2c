package nn

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"
)

// moments returns the mean and the (population) standard deviation of xs.
func moments(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

// fractionBelow returns the fraction of xs with |x| < limit.
func fractionBelow(xs []float64, limit float64) float64 {
	n := 0
	for _, x := range xs {
		if math.Abs(x) < limit {
			n++
		}
	}
	return float64(n) / float64(len(xs))
}

func maxAbs(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// The statistics below come from the first layer of a 600 → 400 network: N = 240 000 weights.
// Each tolerance is about five standard errors of its statistic at that N.
const (
	fanIn, fanOut = 600, 400
	nWeights      = fanIn * fanOut
)

func TestGlorotStatistics(t *testing.T) {
	const (
		// U(−a, a): mean 0 with standard error a/√(3N) ≈ 0.0012·a.
		tolMean = 0.006
		// E w² = a²/3; the relative standard error of the sample mean of w² is
		// √(Var w²)/(E w²)/√N = √(4/45)·3/√N ≈ 0.0018.
		tolVar = 0.01
		// P(|w| < a/2) = 1/2, standard error √(1/4/N) ≈ 0.001.
		tolHalf = 0.005
	)
	for _, cfg := range []MLPConfig{
		{In: fanIn, Hidden: []int{fanOut}, Activation: Tanh, Seed: 1},               // AutoInit before Tanh
		{In: fanIn, Hidden: []int{fanOut}, Activation: Identity, Seed: 2},           // AutoInit before Identity
		{In: fanIn, Hidden: []int{fanOut}, Activation: ReLU, Init: Glorot, Seed: 3}, // explicit
	} {
		t.Run(fmt.Sprintf("%v-%v", cfg.Activation, cfg.Init), func(t *testing.T) {
			m, err := NewMLP(cfg)
			require.NoError(t, err)
			w := paramValues(t, m.Params()[0])
			a := math.Sqrt(6.0 / (fanIn + fanOut)) // Glorot and Bengio (2010), eq. 16
			got := maxAbs(w)
			require.LessOrEqual(t, got, a, "max |w| = %v, want within [0.999, 1]·a = %v", got, a)
			require.GreaterOrEqual(t, got, 0.999*a, "max |w| = %v, want within [0.999, 1]·a = %v", got, a)
			mean, std := moments(w)
			require.LessOrEqual(t, math.Abs(mean), tolMean*a, "mean %v, want 0 ± %v", mean, tolMean*a)
			v := std * std
			require.InDelta(t, 1, v/(a*a/3), tolVar, "variance %v, want a²/3 = %v within %v relative", v, a*a/3, tolVar)
			f := fractionBelow(w, a/2)
			require.InDelta(t, 0.5, f, tolHalf, "fraction with |w| < a/2 is %v, want 1/2 (uniform)", f)
		})
	}
}

func TestHeStatistics(t *testing.T) {
	const (
		// The sample standard deviation of a normal sample has relative standard error
		// 1/√(2N) ≈ 0.0014.
		tolStd = 0.0075
		// P(|w| < σ) = erf(1/√2) = 0.682689 for a normal distribution (0.577 for a uniform one
		// of the same σ), standard error √(0.68·0.32/N) ≈ 0.001.
		tolSigma     = 0.005
		withinOneStd = 0.6826894921370859 // erf(1/√2)
	)
	for _, cfg := range []MLPConfig{
		{In: fanIn, Hidden: []int{fanOut}, Seed: 4},                             // AutoInit before ReLU
		{In: fanIn, Hidden: []int{fanOut}, Activation: Tanh, Init: He, Seed: 5}, // explicit
	} {
		t.Run(fmt.Sprintf("%v-%v", cfg.Activation, cfg.Init), func(t *testing.T) {
			m, err := NewMLP(cfg)
			require.NoError(t, err)
			w := paramValues(t, m.Params()[0])
			sigma := math.Sqrt(2.0 / fanIn) // He et al. (2015), eq. 10
			mean, std := moments(w)
			require.LessOrEqual(t, math.Abs(mean), 5*sigma/math.Sqrt(nWeights), "mean %v, want 0 ± %v", mean, 5*sigma/math.Sqrt(nWeights))
			require.InDelta(t, 1, std/sigma, tolStd, "std %v, want σ = %v within %v relative", std, sigma, tolStd)
			f := fractionBelow(w, sigma)
			require.InDelta(t, withinOneStd, f, tolSigma, "fraction with |w| < σ is %v, want %v (normal)", f, withinOneStd)
		})
	}
}

func TestAutoInitOutputLayerIsGlorot(t *testing.T) {
	// In a ReLU MLP the hidden layer is He but the output layer (Identity) is Glorot: its
	// weights stay within a = √(6/(400+1)) ≈ 0.122, which He's σ = √(2/400) ≈ 0.071 would
	// exceed with 400 draws (P(all within 1.73σ) ≈ 0.916^400 ≈ 1e-15).
	m, err := NewMLP(MLPConfig{In: 10, Hidden: []int{fanOut}, Seed: 6})
	require.NoError(t, err)
	out := paramValues(t, m.Params()[2])
	a := math.Sqrt(6.0 / (fanOut + 1))
	got := maxAbs(out)
	require.LessOrEqual(t, got, a, "output layer max |w| = %v, want within [0.95, 1]·%v", got, a)
	require.GreaterOrEqual(t, got, 0.95*a, "output layer max |w| = %v, want within [0.95, 1]·%v", got, a)
}

func TestLinearDefaultInitIsGlorot(t *testing.T) {
	const in = 2000
	m, err := NewMLP(MLPConfig{In: in, Seed: 7})
	require.NoError(t, err)
	a := math.Sqrt(6.0 / (in + 1))
	got := maxAbs(paramValues(t, m.Params()[0]))
	require.LessOrEqual(t, got, a, "max |w| = %v, want within [0.99, 1]·%v", got, a)
	require.GreaterOrEqual(t, got, 0.99*a, "max |w| = %v, want within [0.99, 1]·%v", got, a)
}

func TestBiasesStartAtZero(t *testing.T) {
	for _, tm := range testModels() {
		for _, dt := range dtypes {
			m, err := tm.new(dt)
			require.NoError(t, err)
			for _, p := range m.Params() {
				if !strings.HasSuffix(p.Name, ".bias") {
					continue
				}
				for j, v := range paramValues(t, p) {
					require.Equal(t, 0.0, v, "%s/%v: %s[%d] = %v, want 0", tm.name, dt, p.Name, j, v)
				}
			}
		}
	}
}

func TestInitIsDeterministic(t *testing.T) {
	cfg := MLPConfig{In: 7, Hidden: []int{5, 3}, Seed: 42}
	for _, init := range []Init{AutoInit, Glorot, He} {
		t.Run(init.String(), func(t *testing.T) {
			cfg.Init = init
			a, err := NewMLP(cfg)
			require.NoError(t, err)
			b, err := NewMLP(cfg)
			require.NoError(t, err)
			require.Equal(t, fmt.Sprint(paramBits(t, b)), fmt.Sprint(paramBits(t, a)), "two models from the same config differ")
			other := cfg
			other.Seed++
			c, err := NewMLP(other)
			require.NoError(t, err)
			require.NotEqual(t, fmt.Sprint(paramBits(t, c)[0]), fmt.Sprint(paramBits(t, a)[0]), "seeds 42 and 43 give the same first layer")
			// The float32 model is the float32 rounding of the float64 one.
			cfg32 := cfg
			cfg32.Dtype = tensor.Float32
			d, err := NewMLP(cfg32)
			require.NoError(t, err)
			for i, p := range a.Params() {
				want := roundTo32(paramValues(t, p))
				got := paramValues(t, d.Params()[i])
				for j := range want {
					require.Equal(t, want[j], got[j], "%s[%d]: float32 model has %v, float32(float64 model) is %v", p.Name, j, got[j], want[j])
				}
			}
		})
	}
}
