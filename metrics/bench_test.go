package metrics

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
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
				lo, _, err := bootstrap(scores, labels, stat, 1000, 0.95, 1)
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
				auc, err := TaskAUC(scores, labels, rocops.Classes(k), c.m, c.avg)
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
				if int(l) == c {
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
				auc, err := TaskAUC(scores, labels, rocops.Labels(k), OvR, avg)
				if err != nil {
					b.Fatal(err)
				}
				sink = auc
			}
		})
	}
}

// measureReps is the bootstrap resamples of BenchmarkMeasure: fewer than roctrain's 1000, so
// that the benchmark stays short; both ways scale the same with it.
const measureReps = 200

// BenchmarkMeasure is what measuring one model on its test part costs: every test figure
// roctrain reports (pAUC, TPR@FPR, FPR@TPR, the ROC curve, DeLong's AUC and variance, the
// rates at a threshold) and the bootstrap intervals of pAUC and TPR, read once through the
// package functions (each validates and sorts the scores again, as does every resample) and
// once off one Curve (one sort; each resample is counted from its vertices).
func BenchmarkMeasure(b *testing.B) {
	for _, n := range []int{1024, 16384} {
		scores, labels := randomProblem(rand.New(rand.NewPCG(7, 8)), n, 0.1, 0)
		b.Run(fmt.Sprintf("functions/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			pauc := func(s, y []float64) (float64, error) { return PartialAUC(s, y, 0.1) }
			tpr := func(s, y []float64) (float64, error) { return TPRAtFPR(s, y, 0.1) }
			for b.Loop() {
				_, err1 := PartialAUC(scores, labels, 0.1)
				_, err2 := TPRAtFPR(scores, labels, 0.1)
				_, err3 := FPRAtTPR(scores, labels, 0.9)
				_, _, _, err4 := ROC(scores, labels)
				_, v, err5 := DeLong(scores, labels)
				_, _, _, err6 := ThresholdAtFPR(scores, labels, 0.1)
				lo, _, err7 := bootstrap(scores, labels, pauc, measureReps, 0.95, 1)
				_, hi, err8 := bootstrap(scores, labels, tpr, measureReps, 0.95, 1)
				if err := errors.Join(err1, err2, err3, err4, err5, err6, err7, err8); err != nil {
					b.Fatal(err)
				}
				sink = v + lo + hi
			}
		})
		b.Run(fmt.Sprintf("curve/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			pauc := func(c *Curve) (float64, error) { return c.PartialAUC(0.1) }
			tpr := func(c *Curve) (float64, error) { return c.TPRAtFPR(0.1) }
			for b.Loop() {
				c, err := NewCurve(scores, labels)
				if err != nil {
					b.Fatal(err)
				}
				_, err1 := c.PartialAUC(0.1)
				_, err2 := c.TPRAtFPR(0.1)
				_, err3 := c.FPRAtTPR(0.9)
				c.ROC()
				_, v, err5 := c.DeLong()
				_, _, _, err6 := c.ThresholdAtFPR(0.1)
				lo, _, err7 := c.Bootstrap(pauc, measureReps, 0.95, 1)
				_, hi, err8 := c.Bootstrap(tpr, measureReps, 0.95, 1)
				if err := errors.Join(err1, err2, err3, err5, err6, err7, err8); err != nil {
					b.Fatal(err)
				}
				sink = v + lo + hi
			}
		})
	}
}
