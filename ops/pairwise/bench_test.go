package pairwise

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rocops/rocops/internal/cputime"
	"github.com/rocops/rocops/internal/testbatch"
)

// Benchmark sizes: n scores, 10% positives. The logistic loss visits all |B1|·|B0| pairs, so
// it stops at logisticMaxN: the next size, 2.6e4 × 2.4e5 ≈ 6e9 pairs, takes minutes per call.
// The naive double loop stops at the same size for every surrogate.
var benchSizes = []int{1 << 10, 1 << 14, 1 << 18, 1 << 20}

const (
	logisticMaxN = 1 << 14
	naiveMaxN    = 1 << 14
)

func benchBatch(n int) (f, y []float64) { return testbatch.Shifted(uint64(n), 7, n, 0.1, 1) }

// BenchmarkGradient is the exact all-pairs value and gradient, Gradient with Pairs = 0.
func BenchmarkGradient(b *testing.B) {
	for _, s := range Surrogates() {
		for _, n := range benchSizes {
			if s == Logistic && n > logisticMaxN {
				continue
			}
			b.Run(fmt.Sprintf("surrogate=%v/n=%d", s, n), func(b *testing.B) {
				f, y := benchBatch(n)
				cfg := Config{Surrogate: s}
				b.ReportAllocs()
				stop := cputime.Report(b)
				for b.Loop() {
					if _, _, err := Gradient(f, y, cfg); err != nil {
						b.Fatal(err)
					}
				}
				stop()
			})
		}
	}
}

// BenchmarkNaive is the reference double loop over every pair, value and gradient.
func BenchmarkNaive(b *testing.B) {
	for _, s := range Surrogates() {
		for _, n := range benchSizes {
			if n > naiveMaxN {
				continue
			}
			b.Run(fmt.Sprintf("surrogate=%v/n=%d", s, n), func(b *testing.B) {
				f, y := benchBatch(n)
				b.ReportAllocs()
				for b.Loop() {
					naive(s, 1, f, y)
				}
			})
		}
	}
}

// BenchmarkSort is the floor of the hinge algorithms: copying n float64 scores and sorting
// them with slices.Sort.
func BenchmarkSort(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f, _ := benchBatch(n)
			buf := make([]float64, n)
			b.ReportAllocs()
			for b.Loop() {
				copy(buf, f)
				slices.Sort(buf)
			}
		})
	}
}

// BenchmarkLogisticWorkers is the exact logistic value and gradient at n = 16384 with 1 and 2
// goroutines, to show how it scales with cores. cpu-ns/pair is the processor time per pair
// summed over the cores: the cost per pair per core.
func BenchmarkLogisticWorkers(b *testing.B) {
	f, y := benchBatch(logisticMaxN)
	b0, err := newBatch(f, y)
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d/n=%d", workers, logisticMaxN), func(b *testing.B) {
			b.ReportAllocs()
			stop := cputime.Report(b)
			for b.Loop() {
				logistic(b0, make([]float64, len(f)), workers)
			}
			b.ReportMetric(stop()/b0.pairs(), "cpu-ns/pair")
		})
	}
}

// BenchmarkPartialGradient is the one-way partial loss up to FPR 0.1 (MaxFPR = 0.1) next to
// the full loss of the same surrogate in one run: the cut costs a selection (O(n) expected),
// and the algorithm then runs on the |B1| + ⌈0.1·|B0|⌉ kept scores only.
func BenchmarkPartialGradient(b *testing.B) {
	for _, s := range []Surrogate{SquaredHinge, Hinge, Square} {
		for _, n := range benchSizes {
			for _, beta := range []float64{0, 0.1} {
				b.Run(fmt.Sprintf("surrogate=%v/maxfpr=%v/n=%d", s, beta, n), func(b *testing.B) {
					f, y := benchBatch(n)
					cfg := Config{Surrogate: s, MaxFPR: beta}
					b.ReportAllocs()
					for b.Loop() {
						if _, _, err := Gradient(f, y, cfg); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
