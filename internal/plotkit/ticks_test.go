package plotkit

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// labelTol is how far a label may round its tick's value (plot.DefaultTicks computes values
// such as 3·0.1 = 0.30000000000000004 and labels them "0.3").
const labelTol = 1e-12

// Narrow ranges get at least two labelled ticks inside them; ranges of a few decades get
// the 1-2-5 labels of every decade (an axis from 0.01 to 0.5 is labelled 0.01, 0.02, 0.05,
// 0.1, 0.2 and 0.5), and each label reads as its tick's value.
func TestLogTicksLabels(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   int // labelled ticks inside [lo, hi], at least
	}{
		{0.1, 0.4, 2}, {0.5, 0.51, 2}, {0.001, 0.3, 7}, {0.01, 0.5, 6}, {1e-6, 1, 7},
	} {
		labels := 0
		for _, tk := range (LogTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label == "" || tk.Value < c.lo || tk.Value > c.hi {
				continue
			}
			labels++
			v, err := strconv.ParseFloat(tk.Label, 64)
			require.NoError(t, err, "range [%g, %g]: label %q at %g", c.lo, c.hi, tk.Label, tk.Value)
			require.InDelta(t, tk.Value, v, labelTol*tk.Value, "range [%g, %g]: label %q at %g", c.lo, c.hi, tk.Label, tk.Value)
		}
		require.GreaterOrEqual(t, labels, c.want, "range [%g, %g]: %d labelled ticks inside it, want at least %d", c.lo, c.hi, labels, c.want)
	}
}
