package pairwise

import (
	"fmt"
	"testing"
	"time"

	"github.com/rocops/rocops"
)

// BenchmarkMulticlassGradient: Gradient on a Classes task, n = 2^14 rows of k = 10 classes.
// "binary" is the reference of the one-vs-rest target: ten binary Gradient calls on the same
// columns with the (y = c) labels, extracted beforehand; one-vs-rest must cost at most 1.5 times
// it. One-vs-one runs the k(k−1) comparisons over 2(k−1)·n rows in all.
func BenchmarkMulticlassGradient(b *testing.B) {
	const n, k = 1 << 14, 10
	scores, labels, cols, ys := benchMulticlass(n, k)
	for _, s := range []Surrogate{SquaredHinge, Square} {
		cfg := Config{Surrogate: s}
		b.Run(fmt.Sprintf("surrogate=%v/n=%d/k=%d/binary", s, n, k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for c := range k {
					if _, _, err := Gradient(cols[c], ys[c], cfg); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		for _, ovo := range []bool{false, true} {
			name := map[bool]string{false: "ovr", true: "ovo"}[ovo]
			b.Run(fmt.Sprintf("surrogate=%v/n=%d/k=%d/%s", s, n, k, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := Gradient(scores, labels, classesConfig(cfg, k, ovo)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkMulticlassRatio times one-vs-rest Gradient on k classes and the ten binary Gradient
// calls alternately within each iteration, so that both see the same machine load, and
// reports the ratio of their total times as ovr/binary (target ≤ 1.5), and one-vs-one's as
// ovo/binary.
func BenchmarkMulticlassRatio(b *testing.B) {
	const n, k = 1 << 14, 10
	scores, labels, cols, ys := benchMulticlass(n, k)
	for _, s := range []Surrogate{SquaredHinge, Hinge, Square, Exponential} {
		cfg := Config{Surrogate: s}
		b.Run(fmt.Sprintf("surrogate=%v/n=%d/k=%d", s, n, k), func(b *testing.B) {
			b.ReportAllocs()
			var bin, ovr, ovo time.Duration
			for b.Loop() {
				t0 := time.Now()
				for c := range k {
					if _, _, err := Gradient(cols[c], ys[c], cfg); err != nil {
						b.Fatal(err)
					}
				}
				t1 := time.Now()
				if _, _, err := Gradient(scores, labels, classesConfig(cfg, k, false)); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if _, _, err := Gradient(scores, labels, classesConfig(cfg, k, true)); err != nil {
					b.Fatal(err)
				}
				bin, ovr, ovo = bin+t1.Sub(t0), ovr+t2.Sub(t1), ovo+time.Since(t2)
			}
			b.ReportMetric(float64(ovr)/float64(bin), "ovr/binary")
			b.ReportMetric(float64(ovo)/float64(bin), "ovo/binary")
		})
	}
}

// classesConfig returns cfg on the task of k classes, one-vs-one or one-vs-rest.
func classesConfig(cfg Config, k int, ovo bool) Config {
	cfg.Task, cfg.OvO = rocops.Classes(k), ovo
	return cfg
}

// benchMulticlass returns n rows of k classes (class indices in float64) and, extracted for
// the binary reference, each column with its one-vs-rest labels (y = c).
func benchMulticlass(n, k int) (scores, classes []float64, cols, ys [][]float64) {
	scores, labels := multiclassBatch(1, n, k, false)
	cols, ys = make([][]float64, k), make([][]float64, k)
	for c := range k {
		cols[c], ys[c] = make([]float64, n), make([]float64, n)
		for i, l := range labels {
			cols[c][i] = scores[i*k+c]
			if l == c {
				ys[c][i] = 1
			}
		}
	}
	return scores, classIndices(labels), cols, ys
}
