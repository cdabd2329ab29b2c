package testbatch

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShifted: row 0 is a positive and row 1 a negative whatever posFrac is, and each score is
// the generator's normal draw after its label's uniform draw, plus shift for a positive.
func TestShifted(t *testing.T) {
	for _, posFrac := range []float64{0, 0.3, 1} {
		scores, labels := Shifted(5, 7, 50, posFrac, 2.5)
		require.Equal(t, 1.0, labels[0], "posFrac %v", posFrac)
		require.Equal(t, 0.0, labels[1], "posFrac %v", posFrac)
		r := rand.New(rand.NewPCG(5, 7))
		for i := range scores {
			if i > 1 {
				want := 0.0
				if r.Float64() < posFrac {
					want = 1
				}
				require.Equal(t, want, labels[i], "posFrac %v, row %d", posFrac, i)
			}
			require.Equal(t, r.NormFloat64()+2.5*labels[i], scores[i], "posFrac %v, row %d", posFrac, i)
		}
	}
}

// TestSpread: the first row is a positive and the last a negative whatever pos is; the other
// rows are the generator's draws, score then label.
func TestSpread(t *testing.T) {
	for _, pos := range []float64{0, 0.4, 1} {
		scores, labels := Spread(3, 1, 40, pos, 1.5)
		require.Equal(t, 1.0, labels[0], "pos %v", pos)
		require.Equal(t, 0.0, labels[len(labels)-1], "pos %v", pos)
		r := rand.New(rand.NewPCG(3, 1))
		for i := range scores {
			require.Equal(t, 1.5*r.NormFloat64(), scores[i], "pos %v, row %d", pos, i)
			want := 0.0
			if r.Float64() < pos {
				want = 1
			}
			if i > 0 && i < len(labels)-1 {
				require.Equal(t, want, labels[i], "pos %v, row %d", pos, i)
			}
		}
	}
}

// TestUniformAndNormal: Uniform's float32 values are its float64 values rounded, all in
// [−2, 2), and both fill rows·cols values from their generator.
func TestUniformAndNormal(t *testing.T) {
	x64, x32 := Uniform[float64](11, 1, 6, 5), Uniform[float32](11, 1, 6, 5)
	require.Len(t, x64, 30)
	for i, v := range x64 {
		require.GreaterOrEqual(t, v, -2.0, "value %d", i)
		require.Less(t, v, 2.0, "value %d", i)
		require.Equal(t, float32(v), x32[i], "value %d", i)
	}
	z := Normal(4, 4, 3, 2)
	r := rand.New(rand.NewPCG(4, 4))
	require.Len(t, z, 6)
	for i, v := range z {
		require.Equal(t, r.NormFloat64(), v, "value %d", i)
	}
}
