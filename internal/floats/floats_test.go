package floats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOrderKey(t *testing.T) {
	special := []float64{math.Inf(-1), -math.MaxFloat64, -1, -math.SmallestNonzeroFloat64, 0,
		math.SmallestNonzeroFloat64, 1, math.MaxFloat64, math.Inf(1)}
	for i := 1; i < len(special); i++ {
		require.Less(t, OrderKey(special[i-1]), OrderKey(special[i]), "key(%v) ≥ key(%v)", special[i-1], special[i])
		// Adjacent floats have adjacent keys.
		if a := special[i-1]; !math.IsInf(a, 0) && a != 0 {
			next := math.Nextafter(a, math.Inf(1))
			require.False(t, next != 0 && OrderKey(next) != OrderKey(a)+1, "key(next(%v)) = %d, want %d", a, OrderKey(next), OrderKey(a)+1)
		}
	}
	require.Equal(t, OrderKey(0), OrderKey(math.Copysign(0, -1)), "−0 and +0 must tie")
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(600)-300))
		got := FromOrderKey(OrderKey(xs[i]))
		require.Equal(t, xs[i], got, "FromOrderKey(OrderKey(%v)) = %v", xs[i], got)
	}
	keys := make([]uint64, len(xs))
	for i, x := range xs {
		keys[i] = OrderKey(x)
	}
	slices.Sort(xs)
	slices.Sort(keys)
	for i := range xs {
		require.Equal(t, xs[i], FromOrderKey(keys[i]), "sorted keys disagree with sorted values at %d", i)
	}
}

func TestConversions(t *testing.T) {
	xs := []float64{1.5, -2, 1e-50}
	got := From64[float32](xs)
	require.Equal(t, float32(1.5), got[0], "From64 = %v", got)
	require.Equal(t, float32(-2), got[1], "From64 = %v", got)
	require.Equal(t, float32(0), got[2], "From64 = %v", got)
	wide := To64([]float32{1.5, -2})
	require.Equal(t, 1.5, wide[0], "To64 = %v", wide)
	require.Equal(t, -2.0, wide[1], "To64 = %v", wide)
	require.Same(t, &xs[0], &To64(xs)[0], "To64 of a []float64 must not copy")
}

// Fits: float32's largest value and anything that rounds to it fit; from halfway to the next
// power of two (2^128, where rounding to even goes up) a float64 becomes +Inf in float32.
// Non-finite values keep their finiteness, so they fit, and float64 holds every float64.
func TestFits(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want bool
	}{
		{math.MaxFloat32, true},
		{math.MaxFloat32 + 0x1p102, true}, // below half an ulp (2^103) above it
		{-math.MaxFloat32 - 0x1p102, true},
		{math.MaxFloat32 + 0x1p103, false}, // exactly halfway: rounds up, to +Inf
		{1e39, false},
		{-1e39, false},
		{math.Inf(1), true},
		{math.NaN(), true},
		{1e-50, true}, // underflows to 0, still finite
	} {
		got := Fits[float32](c.x)
		require.Equal(t, c.want, got, "Fits[float32](%g) = %v, want %v", c.x, got, c.want)
		require.True(t, Fits[float64](c.x), "Fits[float64](%g) = false", c.x)
	}
}
