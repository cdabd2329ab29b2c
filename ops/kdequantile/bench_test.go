package kdequantile

import (
	"fmt"
	"math"
	"testing"

	"github.com/rocops/rocops/internal/cputime"
	"github.com/rocops/rocops/internal/testbatch"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The benchmarks use batches of 10% positives, negatives N(0, 1) and positives N(1.5, 1), at
// α = 0.05 with batch-chosen bandwidths. BenchmarkSigmoidPass is the floor the others are
// measured against: one pass of n logistic sigmoids with math.Exp on one goroutine. Beside
// the wall time each reports the processor time per call (cpu-ns/op, all threads), the
// steadier figure on a shared machine.

var benchSizes = []int{128, 1024, 16384, 262144, 1048576}

func BenchmarkSigmoidPass(b *testing.B) {
	for _, n := range benchSizes {
		scores, _ := testbatch.Shifted(1, 7, n, 0.1, 1.5)
		out := make([]float64, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			stop := cputime.Report(b)
			for b.Loop() {
				for i, x := range scores {
					out[i] = 1 / (1 + math.Exp(-x))
				}
			}
			stop()
		})
	}
}

func BenchmarkGradient(b *testing.B) {
	cfg := Config{Alpha: 0.05}
	for _, n := range benchSizes {
		scores, labels := testbatch.Shifted(1, 7, n, 0.1, 1.5)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			stop := cputime.Report(b)
			for b.Loop() {
				if _, _, err := Gradient(scores, labels, cfg); err != nil {
					b.Fatal(err)
				}
			}
			stop()
		})
	}
}

// BenchmarkLossStep is one forward and backward pass of a float64 graph holding only the
// loss, through a TapeMachine.
func BenchmarkLossStep(b *testing.B) {
	cfg := Config{Alpha: 0.05}
	for _, n := range benchSizes {
		scores, labels := testbatch.Shifted(1, 7, n, 0.1, 1.5)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := gorgonia.NewGraph()
			f := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("f"),
				gorgonia.WithValue(tensor.New(tensor.WithBacking(scores))))
			y := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("y"),
				gorgonia.WithValue(tensor.New(tensor.WithBacking(labels))))
			loss, err := Loss(f, y, cfg)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := gorgonia.Grad(loss, f); err != nil {
				b.Fatal(err)
			}
			vm := gorgonia.NewTapeMachine(g)
			defer vm.Close()
			b.ReportAllocs()
			stop := cputime.Report(b)
			for b.Loop() {
				if err := vm.RunAll(); err != nil {
					b.Fatal(err)
				}
				vm.Reset()
			}
			stop()
		})
	}
}
