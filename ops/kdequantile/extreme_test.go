package kdequantile

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// naive64 and naive32 are the textbook weight numerator σ(z)·(1 − σ(z)) in float64 and in
// float32 arithmetic: σ(z) rounds to 1 once z ≳ 37 (float64) or z ≳ 17 (float32), and the
// product becomes 0.
func naive64(z float64) float64 {
	s := 1 / (1 + math.Exp(-z))
	return s * (1 - s)
}

func naive32(z float32) float32 {
	s := 1 / (1 + float32(math.Exp(float64(-z))))
	return s * (1 - s)
}

// TestExtremeSeparation checks batches whose negatives are 50/v0 and more apart: the weights
// are finite, positive where float64 can hold them, sum to one, and equal the hand-derived
// values, where the σ(1 − σ) form underflows.
func TestExtremeSeparation(t *testing.T) {
	const tolSum = 1e-15 // Σw = 1 up to rounding
	const tolHand = 1e-14
	cases := []struct {
		name  string
		neg   []float64
		alpha float64
		// want: hand-derived weights (nil: only the checks common to all cases)
		tau  float64
		want []float64
	}{
		// Ten negatives 50 apart, α = 0.1: one negative's worth of smoothed mass lies above τ,
		// which sits midway between 400 and 450, so |z| = 25 for those two and 75…425 below.
		{name: "50 apart", neg: []float64{0, 50, 100, 150, 200, 250, 300, 350, 400, 450}, alpha: 0.1, tau: 425},
		// Nine negatives at 0 and one at 1000, α = 0.1: the far one holds the false-positive
		// mass, so 1 − σ(1000 − τ) = 9·σ(−τ), i.e. e^{τ−1000} = 9·e^{−τ} to float64
		// precision: τ = (1000 + ln 9)/2. The weights σ′(z) are then 9·e^{−τ} (the nine
		// together) and e^{τ−1000} (the far one): one half each.
		{name: "far cluster", neg: []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 1000}, alpha: 0.1,
			tau:  (1000 + math.Log(9)) / 2,
			want: []float64{1. / 18, 1. / 18, 1. / 18, 1. / 18, 1. / 18, 1. / 18, 1. / 18, 1. / 18, 1. / 18, 0.5}},
		// Two negatives at ±800, α = 0.5: τ = 0 by symmetry and the weights are 1/2 each,
		// though σ′(±800) = e^{−800} is below the smallest float64.
		{name: "every σ′ underflows", neg: []float64{-800, 800}, alpha: 0.5, tau: 0, want: []float64{0.5, 0.5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			scores := append(append([]float64(nil), c.neg...), c.tau)
			labels := make([]float64, len(scores))
			labels[len(c.neg)] = 1
			cfg := Config{Alpha: c.alpha, V0: 1, V1: 1}
			w, tau, err := thresholdGradient(scores, labels, cfg)
			require.NoError(t, err)
			require.InDelta(t, c.tau, tau, tolHand*math.Max(1, math.Abs(c.tau)), "τ = %.17g, want %.17g", tau, c.tau)
			w = w[:len(c.neg)]
			sum, naiveSum, underflows := 0.0, 0.0, 0
			for i, f := range c.neg {
				z := tau - f
				require.Greater(t, w[i], 0.0, "w[%d] = %v at z = %v, want finite and positive", i, w[i], z)
				require.False(t, math.IsInf(w[i], 0), "w[%d] = %v at z = %v, want finite and positive", i, w[i], z)
				if naive64(z) == 0 {
					underflows++
				}
				sum += w[i]
				naiveSum += naive64(z)
			}
			require.NotEqual(t, 0, underflows, "no σ(1 − σ) underflows in float64: the case does not test the log-space form")
			require.InDelta(t, 1, sum, tolSum, "Σw = %.17g, want 1", sum)
			t.Logf("σ(1−σ) is 0 in float64 for %d of %d negatives (its normalised weights: Σ = %v, 0/0 if 0)",
				underflows, len(c.neg), naiveSum)
			for i, want := range c.want {
				require.LessOrEqual(t, relErr(w[i], want, 0), tolHand, "w[%d] = %.17g, want %.17g", i, w[i], want)
			}
		})
	}
}

// TestExtremeSeparationFloat32 runs the "50 apart" batch through a float32 graph: the
// Threshold op's weights for the negatives at |z| = 25 and 75 are non-zero and normalised,
// where σ(1 − σ) in float32 is exactly 0 for both.
func TestExtremeSeparationFloat32(t *testing.T) {
	neg := []float32{0, 50, 100, 150, 200, 250, 300, 350, 400, 450}
	scores := append(append([]float32(nil), neg...), 425)
	labels := make([]float32, len(scores))
	labels[len(neg)] = 1
	g := gorgonia.NewGraph()
	f := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithName("f"), gorgonia.WithValue(tensor.New(tensor.WithBacking(scores))))
	y := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithName("y"), gorgonia.WithValue(tensor.New(tensor.WithBacking(labels))))
	tau, err := Threshold(f, y, Config{Alpha: 0.1, V0: 1, V1: 1})
	require.NoError(t, err)
	_, err = gorgonia.Grad(tau, f)
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	require.NoError(t, vm.RunAll())
	gv, err := f.Grad()
	require.NoError(t, err)
	w := gv.Data().([]float32)
	var sum float32
	for i, x := range w[:len(neg)] {
		sum += x
		z := 425 - neg[i]
		naive := naive32(z)
		require.False(t, (z == 25 || z == 75) && (naive != 0 || !(x > 0)), "z = %v: float32 σ(1−σ) = %v (want 0), weight %v (want > 0)", z, naive, x)
	}
	// The two negatives at |z| = 25 hold all but e^{−50} of the weight: one half each.
	require.Equal(t, float32(0.5), w[8], "weights %v sum to %v, want 1/2 at z = ±25", w, sum)
	require.Equal(t, float32(0.5), w[9], "weights %v sum to %v, want 1/2 at z = ±25", w, sum)
	require.InDelta(t, 1, float64(sum), 1e-6, "weights %v sum to %v, want 1/2 at z = ±25", w, sum)
}
