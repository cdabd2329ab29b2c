package compensated

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// exact returns Σxs rounded once to float64, from an exact sum in math/big.
func exact(xs []float64) float64 {
	acc := new(big.Float).SetPrec(4096)
	for _, x := range xs {
		acc.Add(acc, new(big.Float).SetFloat64(x))
	}
	f, _ := acc.Float64()
	return f
}

func TestSum(t *testing.T) {
	eps := math.Nextafter(1, 2) - 1
	for _, c := range []struct {
		name string
		xs   []float64
	}{
		{"empty", nil},
		{"absorbed ones", []float64{1, 1e100, 1, -1e100}},         // naive: 0; exact: 2
		{"small after large", []float64{1e16, 1, 1, 1, 1, -1e16}}, // naive: 0 or 8; exact: 4
		{"mixed signs", []float64{0.1, 0.2, -0.3, 1e-17}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s Sum
			for _, x := range c.xs {
				s.Add(x)
			}
			require.Equal(t, exact(c.xs), s.Value())
		})
	}
	// Random terms of mixed magnitudes with heavy cancellation: within the bound
	// 2ε·|Σx| + 2n·ε²·Σ|x| of the exact sum (the naive sum misses it by far).
	rng := rand.New(rand.NewPCG(1, 2))
	for rep := range 20 {
		n := 1000 + 100*rep
		xs := make([]float64, 0, 2*n)
		var abs float64
		for range n {
			x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)))
			xs = append(xs, x, -x*(1+1e-9*rng.Float64()))
			abs += 2 * math.Abs(x)
		}
		var s Sum
		for _, x := range xs {
			s.Add(x)
		}
		want := exact(xs)
		require.InDelta(t, want, s.Value(), 2*eps*math.Abs(want)+2*float64(len(xs))*eps*eps*abs, "rep %d", rep)
	}
}
