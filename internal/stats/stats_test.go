package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestZ975: Z975 is Φ⁻¹(0.975), by math.Erfinv (Φ⁻¹(p) = √2·erf⁻¹(2p − 1)), and Φ(Z975) is
// 0.975 by math.Erfc (Φ(z) = erfc(−z/√2)/2).
func TestZ975(t *testing.T) {
	require.InDelta(t, math.Sqrt2*math.Erfinv(0.95), Z975, 1e-15)
	require.InDelta(t, 0.975, math.Erfc(-Z975/math.Sqrt2)/2, 1e-15)
}
