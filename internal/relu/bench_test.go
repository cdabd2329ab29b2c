package relu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops/internal/sgemm"
)

// BenchmarkForward and BenchmarkBackward: the float64 kernels on a 1024 × 64 hidden layer's
// values (the graph step's benchmark), on the AVX2 path and in Go.
func BenchmarkForward(b *testing.B) { benchKernels(b, false) }

func BenchmarkBackward(b *testing.B) { benchKernels(b, true) }

func benchKernels(b *testing.B, backward bool) {
	defer func(a bool) { sgemm.Available = a }(sgemm.Available)
	n := 1024 * 64
	r := rand.New(rand.NewPCG(1, 2))
	z, dh, out := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	for i := range z {
		z[i], dh[i] = math.Float64bits(r.NormFloat64()), math.Float64bits(r.NormFloat64())
	}
	for _, avx := range []bool{true, false} {
		if avx && !sgemm.Available {
			continue
		}
		b.Run(fmt.Sprintf("path=%s/n=%d", map[bool]string{true: "avx2", false: "go"}[avx], n), func(b *testing.B) {
			sgemm.Available = avx
			for b.Loop() {
				if backward {
					Backward64(out, z, dh)
				} else {
					Forward64(out, z)
				}
			}
		})
	}
}
