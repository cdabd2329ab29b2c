package metrics

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var sink float64

func BenchmarkAUC(b *testing.B) {
	for _, n := range []int{1024, 16384, 262144} {
		scores, labels := randomProblem(rand.New(rand.NewPCG(7, 8)), n, 0.1, 0)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				auc, err := AUC(scores, labels)
				if err != nil {
					b.Fatal(err)
				}
				sink = auc
			}
		})
	}
}

func BenchmarkPartialAUC(b *testing.B) {
	for _, n := range []int{1024, 16384, 262144} {
		scores, labels := randomProblem(rand.New(rand.NewPCG(7, 8)), n, 0.1, 0)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				pauc, err := PartialAUC(scores, labels, 0.1)
				if err != nil {
					b.Fatal(err)
				}
				sink = pauc
			}
		})
	}
}

// BenchmarkDeLong shows the O(n log n) cost of the midrank algorithm: time per row grows
// only with log n, where the structural-components definition grows with n.
func BenchmarkDeLong(b *testing.B) {
	for _, n := range []int{1024, 16384, 262144} {
		scores, labels := randomProblem(rand.New(rand.NewPCG(7, 8)), n, 0.1, 0)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, v, err := DeLong(scores, labels)
				if err != nil {
					b.Fatal(err)
				}
				sink = v
			}
		})
	}
}

// BenchmarkBootstrap is the cost of one interval of TPRAtFPR with 1000 resamples, which is
// what roctrain computes twice per run and seed.
func BenchmarkBootstrap(b *testing.B) {
	stat := func(s, y []float64) (float64, error) { return TPRAtFPR(s, y, 0.1) }
	for _, n := range []int{1024, 16384} {
		scores, labels := randomProblem(rand.New(rand.NewPCG(7, 8)), n, 0.1, 0)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				lo, _, err := Bootstrap(scores, labels, stat, 1000, 0.95, 1)
				if err != nil {
					b.Fatal(err)
				}
				sink = lo
			}
		})
	}
}
