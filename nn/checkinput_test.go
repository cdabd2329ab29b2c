package nn

import (
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"
)

// CheckInput's fast scan (one comparison against MaxFloat32 or MaxFloat64 per value) must
// accept and refuse exactly what the exact tests do: at float32's edge, a float64 above
// MaxFloat32 by less than half of float32's last ulp there (2¹⁰⁴, IEEE 754 round to nearest)
// rounds to MaxFloat32 and fits, while the halfway value 2¹²⁸ − 2¹⁰³ rounds to +Inf (ties to
// even: MaxFloat32's significand is odd) and is rocops.ErrRange. The error names the first bad row
// and feature, also after values that only the exact tests pass.
func TestCheckInputEdges(t *testing.T) {
	half := math.Ldexp(1, 103) // half of float32's ulp at MaxFloat32
	fitsAbove := math.Nextafter(math.MaxFloat32+half, 0)
	require.Greater(t, fitsAbove, float64(math.MaxFloat32))
	require.Equal(t, float32(math.MaxFloat32), float32(fitsAbove), "rounds down to MaxFloat32")
	require.True(t, math.IsInf(float64(float32(math.MaxFloat32+half)), 1), "the halfway value rounds up")

	m32, err := NewMLP(MLPConfig{In: 2, Dtype: tensor.Float32})
	require.NoError(t, err)
	m64, err := NewMLP(MLPConfig{In: 2})
	require.NoError(t, err)
	for _, c := range []struct {
		name     string
		x        []float64
		m        Model
		want     error
		row, col string
	}{
		{"float32 max", []float64{0, math.MaxFloat32, -math.MaxFloat32, 1}, m32, nil, "", ""},
		{"float32 rounds down", []float64{fitsAbove, -fitsAbove, 0, 1}, m32, nil, "", ""},
		{"float32 halfway", []float64{fitsAbove, 0, 1, math.MaxFloat32 + half}, m32, rocops.ErrRange, "row 1", "feature 1"},
		{"float32 1e39", []float64{0, 0, -1e39, 0}, m32, rocops.ErrRange, "row 1", "feature 0"},
		{"float64 1e39", []float64{0, 0, -1e39, math.MaxFloat64}, m64, nil, "", ""},
		{"NaN after a fitting value", []float64{fitsAbove, 0, 0, math.NaN()}, m32, ErrInput, "row 1", "feature 1"},
		{"NaN float64", []float64{math.NaN(), 0, 0, 0}, m64, ErrInput, "row 0", "feature 0"},
		{"Inf float64", []float64{0, 0, 0, math.Inf(-1)}, m64, ErrInput, "row 1", "feature 1"},
		{"Inf float32", []float64{0, math.Inf(1), 0, 0}, m32, ErrInput, "row 0", "feature 1"},
	} {
		err := CheckInput(c.m, c.x, 2)
		if c.want == nil {
			require.NoError(t, err, c.name)
			continue
		}
		require.ErrorIs(t, err, c.want, c.name)
		require.ErrorContains(t, err, c.row+", "+c.col, c.name)
	}
}
