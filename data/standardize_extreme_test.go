package data

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
)

// tolExtreme bounds the relative error of Mean and Std against the exact moments: a few
// float64 roundings per row, for columns of a few hundred rows at any magnitude.
const tolExtreme = 1e-13

// bigMoments returns the mean and population standard deviation of column j computed with
// 2000-bit floats: every x is exact in that precision and the sums lose nothing that shows
// in a float64, so this is the reference the float64 computation must match.
func bigMoments(ds *Dataset, j int) (mean, std float64) {
	const prec = 2000
	n := new(big.Float).SetPrec(prec).SetInt64(int64(ds.Rows))
	sum := new(big.Float).SetPrec(prec)
	for i := range ds.Rows {
		sum.Add(sum, new(big.Float).SetPrec(prec).SetFloat64(ds.X[i*ds.Cols+j]))
	}
	m := new(big.Float).SetPrec(prec).Quo(sum, n)
	ss := new(big.Float).SetPrec(prec)
	for i := range ds.Rows {
		d := new(big.Float).SetPrec(prec).SetFloat64(ds.X[i*ds.Cols+j])
		d.Sub(d, m)
		ss.Add(ss, d.Mul(d, d))
	}
	ss.Quo(ss, n)
	mean, _ = m.Float64()
	std, _ = new(big.Float).SetPrec(prec).Sqrt(ss).Float64()
	return mean, std
}

// extremeColumn returns n values f(i, y_i) with y alternating 0, 1.
func extremeColumn(t *testing.T, n int, f func(i int, y float64) float64) *Dataset {
	t.Helper()
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		y[i] = float64(i % 2)
		x[i] = f(i, y[i])
	}
	ds, err := New(x, y, 1)
	require.NoError(t, err)
	return ds
}

// TestStandardizerExtremeMagnitudes: Mean and Std match the exact moments at magnitudes where
// summing x or (x − mean)² directly overflows or underflows, and the standardised training
// column has mean 0 and standard deviation 1.
func TestStandardizerExtremeMagnitudes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	normal := func(scale, offset float64) func(int, float64) float64 {
		return func(_ int, y float64) float64 { return (offset + 3*y + rng.NormFloat64()) * scale }
	}
	cases := []struct {
		name string
		f    func(int, float64) float64
	}{
		// (x − mean)² ≈ 1e320 overflowed: Std was +Inf and the column became all zeros.
		{"spread 1e160", normal(1e160, 0)},
		{"spread 1e300", normal(1e300, 0)},
		// Σx passed 1.8e308: Mean was +Inf and the column became NaN.
		{"sum beyond MaxFloat64", func(i int, _ float64) float64 { return 1.5e308 + float64(i%7)*4e306 }},
		// Both signs near the limits: x − Mean itself overflows in Apply.
		{"both signs near the limits", func(i int, _ float64) float64 {
			if i%10 == 0 {
				return -1.7e308
			}
			return 1.7e308
		}},
		// (x − mean)² ≈ 1e-330 underflowed to 0 for normal (not subnormal) values.
		{"spread 1e-165", normal(1e-165, 0)},
		{"spread 1e-300", normal(1e-300, 0)},
		// A large offset: the cancellation a one-pass Σx² − n·mean² suffers.
		{"offset 1e9, spread 1", normal(1, 1e9)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := extremeColumn(t, 300, c.f)
			wantMean, wantStd := bigMoments(ds, 0)
			s, err := FitStandardizer(ds)
			require.NoError(t, err)
			// A mean far from 0 in standard deviations is only as exact as its float64
			// rounding: measure its error relative to max(|mean|, std).
			scale := max(math.Abs(wantMean), wantStd)
			if e := math.Abs(s.Mean[0]-wantMean) / scale; !(e <= tolExtreme) {
				assert.Fail(t, fmt.Sprintf("Mean %v, want %v (relative error %.2g)", s.Mean[0], wantMean, e))
			}
			if e := math.Abs(s.Std[0]/wantStd - 1); !(e <= tolExtreme) {
				assert.Fail(t, fmt.Sprintf("Std %v, want %v (relative error %.2g)", s.Std[0], wantStd, e))
			}
			z, err := s.Apply(ds)
			require.NoError(t, err)
			m, sd := columnMoments(z, 0)
			assert.False(t, math.Abs(m) > tolExtreme*scale/wantStd || math.Abs(sd-1) > tolExtreme, "standardised column has mean %v and standard deviation %v", m, sd)
		})
	}
}

// TestStandardizerRejectsUnresolvableColumn: a column whose spread is below the normal
// float64 range (subnormal values) cannot be standardised faithfully; FitStandardizer says
// which column instead of returning ±Inf features. A constant subnormal column is fine.
func TestStandardizerRejectsUnresolvableColumn(t *testing.T) {
	x := []float64{1, 5e-324, 2, 1e-323, 3, 1.5e-323, 4, 2e-323}
	ds, err := New(x, []float64{0, 1, 0, 1}, 2)
	require.NoError(t, err)
	ds.FeatureNames = []string{"ok", "tiny"}
	_, err = FitStandardizer(ds)
	require.False(t, !errors.Is(err, rocops.ErrRange) || !strings.Contains(err.Error(), `"tiny"`), "FitStandardizer: %v, want rocops.ErrRange naming \"tiny\"", err)
	for i := range 4 {
		ds.X[2*i+1] = 5e-324
	}
	s, err := FitStandardizer(ds)
	if err != nil {
		require.Fail(t, fmt.Sprintf("constant subnormal column: %v", err))
	}
	assert.False(t, s.Std[1] != 1 || s.Mean[1] != 5e-324, "constant column: Mean %v, Std %v, want 5e-324 and 1", s.Mean[1], s.Std[1])
}

// TestStandardizerApplyOverflow: a row far outside the training spread that standardises
// beyond the float64 range is an error naming the row and the feature, not ±Inf.
func TestStandardizerApplyOverflow(t *testing.T) {
	s := Standardizer{Mean: []float64{0}, Std: []float64{1e-300}}
	ds, err := New([]float64{1, 1e10}, []float64{0, 1}, 1)
	require.NoError(t, err)
	_, err = s.Apply(ds)
	require.False(t, !errors.Is(err, rocops.ErrRange) || !strings.Contains(err.Error(), `row 1, feature "x1"`), "Apply: %v, want rocops.ErrRange naming row 1, feature \"x1\"", err)
	if _, err := s.Transform([]float64{1e10}); !errors.Is(err, rocops.ErrRange) {
		require.Fail(t, fmt.Sprintf("Transform: %v, want rocops.ErrRange", err))
	}
}
