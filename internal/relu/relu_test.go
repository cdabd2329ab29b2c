package relu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/internal/sgemm"
)

// values draws float64s of every kind the kernels tell apart: positive and negative normals,
// subnormals, ±0, ±Inf and NaN, the last three only when special.
func values(r *rand.Rand, n int, special bool) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch k := r.IntN(10); {
		case k < 5:
			v[i] = r.NormFloat64() * math.Exp(20*r.NormFloat64())
		case k == 5:
			v[i] = math.Copysign(0, -1)
		case k == 6:
			v[i] = 0
		case k == 7:
			v[i] = math.Copysign(5e-324*float64(1+r.IntN(1000)), r.NormFloat64())
		case special && k == 8:
			v[i] = math.Inf(1 - 2*r.IntN(2))
		case special && k == 9:
			v[i] = math.NaN()
		default:
			v[i] = -r.Float64()
		}
	}
	return v
}

// mask is Gorgonia's Rectify mask [x ≥ 0].
func mask(x float64) float64 {
	if x >= 0 {
		return 1
	}
	return 0
}

// TestKernels checks every kernel, on the AVX2 path and the Go one, against the products
// z·[z ≥ 0] and [z ≥ 0]·dh computed in floating point, bit for bit where the inputs are finite,
// and the report of ±Inf and NaN, for every length up to 70 (the tails of both lane widths).
func TestKernels(t *testing.T) {
	paths := []bool{false}
	if sgemm.Available {
		paths = append(paths, true)
	}
	defer func(a bool) { sgemm.Available = a }(sgemm.Available)
	r := rand.New(rand.NewPCG(3, 5))
	for _, avx := range paths {
		sgemm.Available = avx
		for n := 0; n <= 70; n++ {
			for _, special := range []bool{false, true} {
				z, dh := values(r, n, special), values(r, n, special)
				var want, wantD []bool // whether the element is exact
				has, hasD := false, false
				for i := range z {
					want = append(want, !math.IsInf(z[i], 0) && !math.IsNaN(z[i]))
					wantD = append(wantD, want[i] && !math.IsInf(dh[i], 0) && !math.IsNaN(dh[i]))
					has = has || !want[i]
					hasD = hasD || !wantD[i]
				}
				h64, d64 := make([]uint64, n), make([]uint64, n)
				z64, dh64 := make([]uint64, n), make([]uint64, n)
				h32, d32 := make([]uint32, n), make([]uint32, n)
				z32, dh32 := make([]uint32, n), make([]uint32, n)
				for i := range z {
					z64[i], dh64[i] = math.Float64bits(z[i]), math.Float64bits(dh[i])
					z32[i], dh32[i] = math.Float32bits(float32(z[i])), math.Float32bits(float32(dh[i]))
				}
				require.Equal(t, has, Forward64(h64, z64), "avx %v, n %d", avx, n)
				require.Equal(t, hasD, Backward64(d64, z64, dh64), "avx %v, n %d", avx, n)
				has32, hasD32 := false, false
				for i := range z {
					zf, gf := float32(z[i]), float32(dh[i])
					fin := !math.IsInf(float64(zf), 0) && !math.IsNaN(float64(zf))
					finD := fin && !math.IsInf(float64(gf), 0) && !math.IsNaN(float64(gf))
					has32, hasD32 = has32 || !fin, hasD32 || !finD
				}
				require.Equal(t, has32, Forward32(h32, z32), "avx %v, n %d", avx, n)
				require.Equal(t, hasD32, Backward32(d32, z32, dh32), "avx %v, n %d", avx, n)
				for i := range z {
					if want[i] {
						require.Equal(t, math.Float64bits(z[i]*mask(z[i])), h64[i], "avx %v, z %v", avx, z[i])
					}
					if wantD[i] {
						require.Equal(t, math.Float64bits(mask(z[i])*dh[i]), d64[i], "avx %v, z %v, dh %v", avx, z[i], dh[i])
					}
					zf, gf := float32(z[i]), float32(dh[i])
					fin := !math.IsInf(float64(zf), 0) && !math.IsNaN(float64(zf))
					if fin {
						require.Equal(t, math.Float32bits(zf*float32(mask(float64(zf)))), h32[i], "avx %v, z %v", avx, zf)
					}
					if fin && !math.IsInf(float64(gf), 0) && !math.IsNaN(float64(gf)) {
						require.Equal(t, math.Float32bits(float32(mask(float64(zf)))*gf), d32[i], "avx %v, z %v, dh %v", avx, zf, gf)
					}
				}
			}
		}
	}
}
