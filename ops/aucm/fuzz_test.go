package aucm

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
)

// FuzzGradient: no panic; valid input gives a finite value and finite derivatives (or
// rocops.ErrRange for a, b, α near the float64 range), a non-negative Optimum and Evaluate equal
// to Gradient's value; anything else is rejected with one of the package's errors.
func FuzzGradient(f *testing.F) {
	f.Add(testbatch.Encode([]float64{0.5, -0.2, 1.5, 0.1}, []float64{1, 0, 1, 0}), 0.0, 0.0, 0.0, 0.0)
	f.Add(testbatch.Encode([]float64{800, -800}, []float64{1, 0}), 0.3, 0.7, 1.0, 0.5)
	f.Add(testbatch.Encode([]float64{math.NaN(), 1}, []float64{1, 0}), 0.0, 0.0, 0.0, 0.0)
	f.Add(testbatch.Encode([]float64{1, 2}, []float64{1, 1}), 0.0, 0.0, 0.0, -1.0)
	f.Add(testbatch.Encode([]float64{1, 2}, []float64{1, 0}), 1e300, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, data []byte, a, b, alpha, margin float64) {
		z, y := testbatch.Decode(data)
		cfg := Config{Margin: margin}
		dz, da, db, dalpha, v, err := gradient1(z, y, a, b, alpha, cfg)
		if err != nil {
			if validInput(z, y, a, b, alpha, margin) {
				require.ErrorIs(t, err, rocops.ErrRange)
				return
			}
			known := false
			for _, e := range []error{rocops.ErrEmpty, rocops.ErrLength, rocops.ErrNonFinite, rocops.ErrLabel, rocops.ErrOneClass, rocops.ErrConfig, rocops.ErrRange} {
				known = known || errors.Is(err, e)
			}
			require.True(t, known, "unexpected error %v", err)
			return
		}
		require.True(t, validInput(z, y, a, b, alpha, margin), "invalid input accepted")
		for _, x := range append(dz, da, db, dalpha, v) {
			require.False(t, math.IsNaN(x) || math.IsInf(x, 0), "non-finite result %v", x)
		}
		opt, err := Optimum(z, y, cfg)
		require.NoError(t, err)
		require.GreaterOrEqual(t, opt, 0.0)
		e, err := evaluate1(z, y, a, b, alpha, cfg)
		require.NoError(t, err)
		require.Equal(t, v, e)
	})
}

// validInput is the documented domain, written independently of the package's checks.
func validInput(z, y []float64, a, b, alpha, margin float64) bool {
	for _, x := range []float64{a, b, alpha} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return margin >= 0 && !math.IsInf(margin, 1) && testbatch.Valid(z, y)
}

// FuzzMulticlassGradient: no panic; a k-class batch (testbatch.Classes, with invalid labels and
// classes without rows occurring) is accepted exactly when every label is in 0…k−1, k ≥ 2 and
// every class has rows, and then gives a finite value and derivatives equal to the
// multi-label loss on the one-hot indicator; anything else is one of the package's errors.
func FuzzMulticlassGradient(f *testing.F) {
	f.Add([]byte{0, 10, 200, 1, 50, 60, 1, 3, 3, 0, 255, 0}, uint8(2), 0.0, 0.0)
	f.Add([]byte{0, 1, 2, 3, 1, 4, 5, 6, 2, 7, 8, 9, 3, 1, 1, 1}, uint8(3), 0.5, 1.0)
	f.Add([]byte{0, 1, 2}, uint8(1), 0.0, 0.0)
	f.Fuzz(func(t *testing.T, data []byte, kb uint8, aux, margin float64) {
		k := int(kb%5) + 1
		z, y := testbatch.Classes(data, k, 64, func(b byte) float64 { return (float64(b) - 128) / 16 })
		a, b, alpha := make([]float64, k), make([]float64, k), make([]float64, k)
		for c := range k {
			a[c], b[c], alpha[c] = aux, -aux, aux*float64(c)
		}
		cfg := Config{Margin: margin}
		dz, da, db, dalpha, v, err := multiclassGradient(z, k, y, a, b, alpha, cfg)
		counts, valid := make([]int, k), k >= 2 && len(y) > 0
		for _, c := range y {
			if c < 0 || c >= k {
				valid = false
				break
			}
			counts[c]++
		}
		for _, n := range counts {
			valid = valid && n > 0
		}
		top := aux * float64(k-1)
		valid = valid && !math.IsNaN(aux) && !math.IsInf(aux, 0) && !math.IsInf(top, 0) &&
			margin >= 0 && !math.IsInf(margin, 1)
		if err != nil {
			if valid {
				require.ErrorIs(t, err, rocops.ErrRange)
				return
			}
			known := false
			for _, e := range []error{rocops.ErrEmpty, rocops.ErrLength, rocops.ErrLabel, rocops.ErrOneClass, rocops.ErrConfig, rocops.ErrRange} {
				known = known || errors.Is(err, e)
			}
			require.True(t, known, "unexpected error %v", err)
			return
		}
		require.True(t, valid, "invalid input accepted")
		for _, x := range append(append(append(append(dz, da...), db...), dalpha...), v) {
			require.False(t, math.IsNaN(x) || math.IsInf(x, 0), "non-finite result %v", x)
		}
		onehot := make([]float64, len(z))
		for i, c := range y {
			onehot[i*k+c] = 1
		}
		mz, ma, mb, mal, mv, err := multilabelGradient(z, k, onehot, a, b, alpha, cfg)
		require.NoError(t, err)
		require.Equal(t, v, mv)
		require.Equal(t, [][]float64{dz, da, db, dalpha}, [][]float64{mz, ma, mb, mal})
	})
}

// FuzzMultilabelGradient: no panic; a k-label batch read from the bytes (a label 0, 1 or the
// invalid 2, then a score, per cell) is accepted exactly when every label is 0 or 1 and every
// column holds both, and then its value and derivatives equal (1/k) times k binary Gradient
// calls on the columns; anything else is one of the package's errors.
func FuzzMultilabelGradient(f *testing.F) {
	f.Add([]byte{0, 10, 1, 200, 1, 50, 0, 60}, uint8(1), 0.2)
	f.Add([]byte{0, 1, 1, 2, 1, 3, 0, 4, 2, 5, 1, 6}, uint8(2), 0.0)
	f.Fuzz(func(t *testing.T, data []byte, kb uint8, aux float64) {
		k := int(kb%4) + 1
		n := min(len(data)/(2*k), 64)
		z, y := make([]float64, n*k), make([]float64, n*k)
		for i := range z {
			y[i] = float64(data[2*i] % 3)
			z[i] = (float64(data[2*i+1]) - 128) / 16
		}
		a, b, alpha := make([]float64, k), make([]float64, k), make([]float64, k)
		for c := range k {
			a[c], b[c], alpha[c] = aux, -aux, math.Abs(aux)
		}
		dz, da, db, dalpha, v, err := multilabelGradient(z, k, y, a, b, alpha, Config{})
		valid := n > 0 && !math.IsNaN(aux) && !math.IsInf(aux, 0)
		for c := 0; valid && c < k; c++ {
			var pos, neg int
			for i := range n {
				switch y[i*k+c] {
				case 1:
					pos++
				case 0:
					neg++
				default:
					valid = false
				}
			}
			valid = valid && pos > 0 && neg > 0
		}
		if err != nil {
			if valid {
				require.ErrorIs(t, err, rocops.ErrRange)
				return
			}
			known := false
			for _, e := range []error{rocops.ErrEmpty, rocops.ErrLength, rocops.ErrLabel, rocops.ErrOneClass, rocops.ErrConfig, rocops.ErrRange} {
				known = known || errors.Is(err, e)
			}
			require.True(t, known, "unexpected error %v", err)
			return
		}
		require.True(t, valid, "invalid input accepted")
		scale := 1 / float64(k)
		var total float64
		for c := range k {
			col, lab := make([]float64, n), make([]float64, n)
			for i := range n {
				col[i], lab[i] = z[i*k+c], y[i*k+c]
			}
			g, dA, dB, dAl, fc, err := gradient1(col, lab, a[c], b[c], alpha[c], Config{})
			require.NoError(t, err)
			for i, x := range g {
				require.Equal(t, x*scale, dz[i*k+c])
			}
			require.Equal(t, []float64{dA * scale, dB * scale, dAl * scale}, []float64{da[c], db[c], dalpha[c]})
			total += fc
		}
		require.Equal(t, total/float64(k), v)
	})
}
