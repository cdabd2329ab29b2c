package crossentropy

import (
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// Values worked by hand from L = (1/n) Σ softplus(z) − y·z: z = 0 gives log 2 for either
// label; z = ±40 with the matching label gives log(1 + e^{−40}) ≈ e^{−40} (to 1e-35);
// z = 800 with label 0 gives 800 + log(1 + e^{−800}) = 800 exactly in float64, where the
// naive −log(1 − σ(z)) is +Inf.
func TestValues(t *testing.T) {
	const tol = 1e-15 // relative: a few roundings
	cases := []struct {
		name string
		z, y []float64
		want float64
	}{
		{"zero logits", []float64{0, 0}, []float64{0, 1}, math.Ln2},
		{"confident and right", []float64{40, -40}, []float64{1, 0}, math.Exp(-40)},
		{"confident and wrong", []float64{800}, []float64{0}, 800},
		{"mean of two", []float64{0, 800}, []float64{1, 0}, (math.Ln2 + 800) / 2},
		{"one class", []float64{-1, 2}, []float64{1, 1}, (math.Log1p(math.E) + math.Log1p(math.Exp(-2))) / 2},
		// The mean of terms 1e308 and 1.7e308 fits in float64, though their sum does not.
		{"huge logits", []float64{1e308, 1.7e308}, []float64{0, 0}, 1e308/2 + 1.7e308/2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Evaluate(c.z, c.y, Config{})
			require.NoError(t, err)
			require.InDelta(t, c.want, got, tol*c.want)
			g, l, err := Gradient(c.z, c.y, Config{})
			require.NoError(t, err)
			require.Equal(t, got, l, "Gradient's loss is Evaluate's")
			for i := range g {
				// ∂L/∂z_i = (σ(z_i) − y_i)/n, σ written out naively: fine for |z| ≤ 800 here.
				want := (1/(1+math.Exp(-c.z[i])) - c.y[i]) / float64(len(c.z))
				require.InDelta(t, want, g[i], 1e-16)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		z, y []float64
		want error
	}{
		{"empty", nil, nil, rocops.ErrEmpty},
		{"length", []float64{1}, []float64{1, 0}, rocops.ErrLength},
		{"NaN", []float64{math.NaN()}, []float64{1}, rocops.ErrNonFinite},
		{"label", []float64{1}, []float64{2}, rocops.ErrLabel},
	}
	for _, c := range cases {
		_, err := Evaluate(c.z, c.y, Config{})
		require.ErrorIs(t, err, c.want, c.name)
		require.ErrorContains(t, err, "crossentropy: ", c.name)
		g, _, err := Gradient(c.z, c.y, Config{})
		require.ErrorIs(t, err, c.want, c.name)
		require.Nil(t, g)
	}
}

// The gradient is exact: the sum of the gradients is (mean σ − mean y), and the gradient of
// a label-flipped, sign-flipped batch is the negation (L(−z, 1 − y) = L(z, y)).
func TestGradientSymmetry(t *testing.T) {
	z := []float64{-3, -0.5, 0, 0.25, 2, 9}
	y := []float64{0, 1, 0, 1, 1, 0}
	neg, flip := make([]float64, len(z)), make([]float64, len(z))
	for i := range z {
		neg[i], flip[i] = -z[i], 1-y[i]
	}
	g, l, err := Gradient(z, y, Config{})
	require.NoError(t, err)
	g2, l2, err := Gradient(neg, flip, Config{})
	require.NoError(t, err)
	require.InDelta(t, l, l2, 1e-15)
	for i := range g {
		require.InDelta(t, -g[i], g2[i], 1e-16)
	}
}

func TestGradientInto(t *testing.T) {
	z, y := []float64{-1, 0.5, 3}, []float64{1, 0, 1}
	want, wantL, err := Gradient(z, y, Config{})
	require.NoError(t, err)
	grad := []float64{9, 9, 9}
	l, err := GradientInto(grad, z, y, Config{})
	require.NoError(t, err)
	require.Equal(t, wantL, l)
	require.Equal(t, want, grad)
	_, err = GradientInto(grad[:2], z, y, Config{})
	require.ErrorIs(t, err, rocops.ErrLength)
}
