package crossentropy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// FuzzGradient decodes a batch from bytes (9 per element: float64 bits, then a label byte
// taken mod 3 so that 2 exercises the label check) and checks that valid input gives a finite
// loss ≥ 0 and gradients in [−1/n, 1/n] with the sign of σ(z) − y, and invalid input one of the
// package's errors.
func FuzzGradient(f *testing.F) {
	add := func(z, y []float64) {
		var b []byte
		for i, x := range z {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
			b = append(b, byte(y[i]))
		}
		f.Add(b)
	}
	add([]float64{0, 1, -1}, []float64{1, 0, 1})
	add([]float64{800, -800}, []float64{0, 1})
	add([]float64{math.NaN()}, []float64{1})
	add([]float64{1e308, 1e308}, []float64{0, 0})
	add(nil, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		var z, y []float64
		for ; len(data) >= 9 && len(z) < 64; data = data[9:] {
			z = append(z, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			y = append(y, float64(data[8]%3))
		}
		g, l, err := Gradient(z, y, Config{})
		if err != nil {
			for _, e := range []error{rocops.ErrEmpty, rocops.ErrLength, rocops.ErrNonFinite, rocops.ErrLabel, rocops.ErrRange} {
				if errors.Is(err, e) {
					return
				}
			}
			require.Fail(t, fmt.Sprintf("error %v is none of the package's", err))
		}
		require.GreaterOrEqual(t, l, 0.0, "loss %v for %v %v", l, z, y)
		require.False(t, math.IsInf(l, 0), "loss %v for %v %v", l, z, y)
		bound := 1 / float64(len(z))
		for i, gi := range g {
			require.LessOrEqual(t, math.Abs(gi), bound, "gradient[%d] = %v for z = %v, y = %v", i, gi, z[i], y[i])
			require.False(t, y[i] == 1 && gi > 0, "gradient[%d] = %v for z = %v, y = %v", i, gi, z[i], y[i])
			require.False(t, y[i] == 0 && gi < 0, "gradient[%d] = %v for z = %v, y = %v", i, gi, z[i], y[i])
		}
	})
}
