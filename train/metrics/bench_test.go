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
