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

// BenchmarkMulticlassAUC: n = 2^14 rows of k = 10 classes. Every method costs k sorts of the
// columns within classes plus merges; ClassAUCs alone shows the shared part.
func BenchmarkMulticlassAUC(b *testing.B) {
	const n, k = 1 << 14, 10
	scores, labels := randomMulticlass(rand.New(rand.NewPCG(7, 8)), n, k, 0)
	for _, c := range []struct {
		m   Method
		avg Average
	}{{OvR, Macro}, {OvR, Weighted}, {OvR, Micro}, {OvO, Macro}, {OvO, Weighted}} {
		b.Run(fmt.Sprintf("n=%d/k=%d/%v-%v", n, k, c.m, c.avg), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				auc, err := MulticlassAUC(scores, k, labels, c.m, c.avg)
				if err != nil {
					b.Fatal(err)
				}
				sink = auc
			}
		})
	}
	// The reference: k binary AUCs, each on one column with the (y == c) labels.
	b.Run(fmt.Sprintf("n=%d/k=%d/binary-AUCs", n, k), func(b *testing.B) {
		cols, ys := make([][]float64, k), make([][]float64, k)
		for c := range k {
			cols[c] = column(scores, k, c)
			ys[c] = make([]float64, n)
			for i, l := range labels {
				if l == c {
					ys[c][i] = 1
				}
			}
		}
		b.ReportAllocs()
		for b.Loop() {
			for c := range k {
				auc, err := AUC(cols[c], ys[c])
				if err != nil {
					b.Fatal(err)
				}
				sink = auc
			}
		}
	})
}

func BenchmarkMultilabelAUC(b *testing.B) {
	const n, k = 1 << 14, 10
	scores, labels := randomMultilabel(rand.New(rand.NewPCG(7, 8)), n, k, 0)
	for _, avg := range []Average{Macro, Micro} {
		b.Run(fmt.Sprintf("n=%d/k=%d/%v", n, k, avg), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				auc, err := MultilabelAUC(scores, k, labels, avg)
				if err != nil {
					b.Fatal(err)
				}
				sink = auc
			}
		})
	}
}
