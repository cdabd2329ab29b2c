package aucm

import (
	"fmt"
	"testing"

	"github.com/rocops/rocops/internal/testbatch"
)

var benchSizes = []int{1 << 10, 1 << 14, 1 << 18, 1 << 20}

var sink float64

// BenchmarkGradient is the value and the four derivatives, with 10% positives. By
// construction it reads the batch twice (the check of package internal/check, then one fused
// pass of sigmoids, sums and derivatives) and writes the n derivatives once: within the
// target of three passes. Compare it with BenchmarkOnePass at the same n in one run.
func BenchmarkGradient(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			z, y := testbatch.Shifted(uint64(n), 3, n, 0.1, 1)
			a, bb, alpha := one(0.5), one(0.2), one(0.3)
			b.ReportAllocs()
			for b.Loop() {
				dz, _, _, _, v, err := Gradient(z, y, a, bb, alpha, Config{})
				if err != nil {
					b.Fatal(err)
				}
				sink += dz[0] + v
			}
		})
	}
}

// BenchmarkOnePass is the floor: one pass over the batch that computes every sigmoid and
// σ′ and sums h per class, writing one output per score into a new slice (as Gradient must
// return one), the work of the fused pass alone.
func BenchmarkOnePass(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			z, y := testbatch.Shifted(uint64(n), 3, n, 0.1, 1)
			b.ReportAllocs()
			for b.Loop() {
				out := make([]float64, n)
				var s [2]float64
				for k, x := range z {
					h, dh := sigmoid(x)
					s[int(y[k])] += h
					out[k] = dh
				}
				sink += s[0] + s[1] + out[0]
			}
		})
	}
}
