package aucm

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// kColumns is a random row-major n×k batch: scores, class indices with every class present,
// the same classes as a one-hot 0/1 matrix, and random a, b, α per column.
func kColumns(seed uint64, n, k int) (z []float64, y []int, onehot, a, b, alpha []float64) {
	r := rand.New(rand.NewPCG(seed, 11))
	z = make([]float64, n*k)
	for i := range z {
		z[i] = 3 * r.NormFloat64()
	}
	y = make([]int, n)
	for i := range y {
		y[i] = i % k // every class present
		if i >= k {
			y[i] = r.IntN(k)
		}
	}
	r.Shuffle(n, func(i, j int) { y[i], y[j] = y[j], y[i] })
	onehot = make([]float64, n*k)
	for i, c := range y {
		onehot[i*k+c] = 1
	}
	for range k {
		a = append(a, r.Float64())
		b = append(b, r.Float64())
		alpha = append(alpha, 2*r.Float64())
	}
	return z, y, onehot, a, b, alpha
}

// column returns column c of the row-major n×k matrix m.
func column(m []float64, k, c int) []float64 {
	out := make([]float64, len(m)/k)
	for i := range out {
		out[i] = m[i*k+c]
	}
	return out
}

// perColumn is the brute-force reference: k calls of Gradient, one per column, their value
// and derivatives times 1/k.
func perColumn(t *testing.T, z []float64, k int, ind, a, b, alpha []float64, cfg Config) (
	dz, da, db, dalpha []float64, value float64) {
	t.Helper()
	scale := 1 / float64(k)
	dz = make([]float64, len(z))
	var total float64
	for c := range k {
		g, dA, dB, dAl, v, err := gradient1(column(z, k, c), column(ind, k, c), a[c], b[c], alpha[c], cfg)
		require.NoError(t, err)
		for i, x := range g {
			dz[i*k+c] = x * scale
		}
		da, db, dalpha = append(da, dA*scale), append(db, dB*scale), append(dalpha, dAl*scale)
		total += v
	}
	return dz, da, db, dalpha, total / float64(k)
}

// TestColumnsEqualBinary: the one-vs-rest and multi-label losses equal (1/k) times k binary
// Gradient calls on the columns, value and every partial derivative bit for bit, on random
// batches of 2 to 5 classes, margins 1 and 0.4; the multi-label loss on a one-hot indicator
// equals the one-vs-rest loss.
func TestColumnsEqualBinary(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		n, k int
		cfg  Config
	}{{1, 7, 2, Config{}}, {2, 40, 3, Config{}}, {3, 100, 4, Config{Margin: 0.4}}, {4, 23, 5, Config{}}} {
		t.Run(fmt.Sprintf("n=%d/k=%d", c.n, c.k), func(t *testing.T) {
			z, y, onehot, a, b, alpha := kColumns(c.seed, c.n, c.k)
			wz, wa, wb, wal, wv := perColumn(t, z, c.k, onehot, a, b, alpha, c.cfg)
			dz, da, db, dal, v, err := multiclassGradient(z, c.k, y, a, b, alpha, c.cfg)
			require.NoError(t, err)
			require.Equal(t, wv, v)
			require.Equal(t, wz, dz)
			require.Equal(t, wa, da)
			require.Equal(t, wb, db)
			require.Equal(t, wal, dal)

			// Multi-label on an indicator with co-occurring labels.
			r := rand.New(rand.NewPCG(c.seed, 12))
			ind := make([]float64, len(z))
			for i := range ind {
				if r.Float64() < 0.4 || onehot[i] == 1 {
					ind[i] = 1
				}
			}
			for col := range c.k { // at least one negative per column
				ind[((col+1)%c.n)*c.k+col] = 0
			}
			wz, wa, wb, wal, wv = perColumn(t, z, c.k, ind, a, b, alpha, c.cfg)
			dz, da, db, dal, v, err = multilabelGradient(z, c.k, ind, a, b, alpha, c.cfg)
			require.NoError(t, err)
			require.Equal(t, wv, v)
			require.Equal(t, wz, dz)
			require.Equal(t, wa, da)
			require.Equal(t, wb, db)
			require.Equal(t, wal, dal)

			oz, oa, ob, oal, ov, err := multilabelGradient(z, c.k, onehot, a, b, alpha, c.cfg)
			require.NoError(t, err)
			mz, ma, mb, mal, mv, _ := multiclassGradient(z, c.k, y, a, b, alpha, c.cfg)
			require.Equal(t, mv, ov)
			require.Equal(t, [][]float64{mz, ma, mb, mal}, [][]float64{oz, oa, ob, oal})
		})
	}
}

// TestColumnsFormula: the one-vs-rest value against the formula of refLoss summed over the
// columns, and ∂F/∂z against central differences of it.
func TestColumnsFormula(t *testing.T) {
	const n, k = 30, 3
	z, y, onehot, a, b, alpha := kColumns(5, n, k)
	ref := func(z []float64) float64 {
		var s float64
		for c := range k {
			f, _, _, _, _ := refLoss(column(z, k, c), column(onehot, k, c), a[c], b[c], alpha[c], 1)
			s += f
		}
		return s / k
	}
	dz, _, _, _, v, err := multiclassGradient(z, k, y, a, b, alpha, Config{})
	require.NoError(t, err)
	require.InDelta(t, ref(z), v, 1e-13)
	const h = 1e-6
	for i := range z {
		zp, zm := append([]float64(nil), z...), append([]float64(nil), z...)
		zp[i] += h
		zm[i] -= h
		require.InDelta(t, (ref(zp)-ref(zm))/(2*h), dz[i], 1e-8, "score %d", i)
	}
}

// TestColumnsErrors: each bad input is its named error.
func TestColumnsErrors(t *testing.T) {
	z, y, onehot, a, b, alpha := kColumns(6, 12, 3)
	noClass := append([]int(nil), y...)
	for i := range noClass {
		if noClass[i] == 2 {
			noClass[i] = 0
		}
	}
	oneClassCol := append([]float64(nil), onehot...)
	for i := range 12 {
		oneClassCol[i*3+1] = 1
	}
	nan := append([]float64(nil), a...)
	nan[1] = math.NaN()
	inf := append([]float64(nil), z...)
	inf[4] = math.Inf(1)
	badLabel := append([]int(nil), y...)
	badLabel[3] = 3
	for _, c := range []struct {
		name string
		err  error
		mc   bool
		z    []float64
		k    int
		y    []int
		ind  []float64
		a    []float64
		al   []float64
		cfg  Config
	}{
		{"a of k-1", rocops.ErrLength, true, z, 3, y, nil, a[:2], alpha, Config{}},
		{"alpha of k+1", rocops.ErrLength, false, z, 3, nil, onehot, a, append(alpha, 0), Config{}},
		{"scores not n·k", rocops.ErrLength, true, z[:35], 3, y, nil, a, alpha, Config{}},
		{"k = 1", rocops.ErrConfig, true, z[:12], 1, make([]int, 12), nil, a[:1], alpha[:1], Config{}}, // a task of classes has k ≥ 2
		{"class without rows", rocops.ErrOneClass, true, z, 3, noClass, nil, a, alpha, Config{}},
		{"label outside 0…k−1", rocops.ErrLabel, true, z, 3, badLabel, nil, a, alpha, Config{}},
		{"column of one class", rocops.ErrNoNegatives, false, z, 3, nil, oneClassCol, a, alpha, Config{}},
		{"NaN a", rocops.ErrConfig, true, z, 3, y, nil, nan, alpha, Config{}},
		{"infinite score", rocops.ErrNonFinite, false, inf, 3, nil, onehot, a, alpha, Config{}},
		{"negative margin", rocops.ErrConfig, true, z, 3, y, nil, a, alpha, Config{Margin: -1}},
		{"empty", rocops.ErrEmpty, true, nil, 3, nil, nil, a, alpha, Config{}},
		{"overflow", rocops.ErrRange, true, z, 3, y, nil, []float64{0, 1e160, 0}, alpha, Config{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.mc {
				_, _, _, _, _, err = multiclassGradient(c.z, c.k, c.y, c.a, b[:len(c.a)], c.al, c.cfg)
			} else {
				_, _, _, _, _, err = multilabelGradient(c.z, c.k, c.ind, c.a, b[:len(c.a)], c.al, c.cfg)
			}
			require.Error(t, err)
			require.True(t, errors.Is(err, c.err), "%v", err)
		})
	}
}

// TestColumnsOptimum: the saddle value of k classes or labels is the mean of the columns'
// binary saddle values, bit for bit, and its errors are the column loss's.
func TestColumnsOptimum(t *testing.T) {
	for _, k := range []int{2, 3, 5} {
		z, y, onehot, _, _, _ := kColumns(uint64(k), 31, k)
		var want float64
		for c := range k {
			o, err := Optimum(column(z, k, c), column(onehot, k, c), Config{Margin: 0.7})
			require.NoError(t, err)
			want += o
		}
		want /= float64(k)
		got, err := Optimum(z, classIndices(y), Config{Task: rocops.Classes(k), Margin: 0.7})
		require.NoError(t, err)
		require.Equal(t, want, got, "k = %d classes", k)
		got, err = Optimum(z, onehot, Config{Task: rocops.Labels(k), Margin: 0.7})
		require.NoError(t, err)
		require.Equal(t, want, got, "k = %d labels", k)
	}
	_, err := Optimum([]float64{1, 2, 3, 4}, []float64{0, 0}, Config{Task: rocops.Classes(2)})
	require.ErrorIs(t, err, rocops.ErrOneClass)
	require.ErrorContains(t, err, "aucm: batch has only one class: class 1 has no rows")
	_, err = Optimum([]float64{1, 2, 3, 4}, []float64{0, 2}, Config{Task: rocops.Classes(2)})
	require.ErrorIs(t, err, rocops.ErrLabel)
}
