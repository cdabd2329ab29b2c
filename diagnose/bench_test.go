package diagnose_test

import (
	"fmt"
	"testing"

	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/ops/pairwise"
)

// BenchmarkProject measures the O(n₊n₋) split of the projected pair term on logging pools of
// n examples, 30% positives (the target: a few thousand examples well under a second).
func BenchmarkProject(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		for _, s := range []pairwise.Surrogate{pairwise.SquaredHinge, pairwise.Logistic} {
			scores, labels := testbatch.Spread(1, 1, n, 0.3, 1)
			p, _ := testbatch.Spread(2, 1, n, 0, 1)
			b.Run(fmt.Sprintf("n=%d/%v", n, s), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := binProject(scores, labels, p, pairwise.Config{Surrogate: s}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkScoreDiagnostics measures the O(n log n) score-only diagnostics.
func BenchmarkScoreDiagnostics(b *testing.B) {
	edges := []float64{-8, -4, -2, -1, 0}
	for _, n := range []int{4096, 65536} {
		scores, labels := testbatch.Spread(3, 1, n, 0.3, 1)
		b.Run(fmt.Sprintf("n=%d/misranking+severe+bound", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				binMisranking(scores, labels)
				binSevereMass(scores, labels, 1)
				binCEBound(scores, labels, 1)
			}
		})
		for _, s := range []pairwise.Surrogate{pairwise.SquaredHinge, pairwise.Logistic} {
			if s == pairwise.Logistic && n > 4096 {
				continue // O(n₊n₋): 1.2 billion pairs
			}
			b.Run(fmt.Sprintf("n=%d/weightshares-%v", n, s), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					binWeightShares(scores, labels, pairwise.Config{Surrogate: s}, edges)
				}
			})
		}
	}
}
