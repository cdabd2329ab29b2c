package metrics

import (
	"math"
	"testing"

	"github.com/rocops/rocops/internal/stats"
	"github.com/stretchr/testify/require"
)

// TestAUCInterval95: stats.Z975 is Φ⁻¹(0.975) (math.Erfinv: Φ⁻¹(p) = √2·erf⁻¹(2p − 1)), and the
// interval is auc ± stats.Z975·√variance, clipped at 0 and 1.
func TestAUCInterval95(t *testing.T) {
	require.InDelta(t, math.Sqrt2*math.Erfinv(0.95), stats.Z975, 1e-15)
	for _, c := range []struct{ auc, variance, lo, hi float64 }{
		{0.8, 0.0025, 0.8 - 0.05*stats.Z975, 0.8 + 0.05*stats.Z975},
		{0.98, 0.0004, 0.98 - 0.02*stats.Z975, 1},
		{0.01, 0.0004, 0, 0.01 + 0.02*stats.Z975},
		{0.5, 0, 0.5, 0.5},
	} {
		lo, hi := AUCInterval95(c.auc, c.variance)
		require.InDelta(t, c.lo, lo, 1e-15, "auc %v", c.auc)
		require.InDelta(t, c.hi, hi, 1e-15, "auc %v", c.auc)
	}
}
