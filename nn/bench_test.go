package nn

import (
	"fmt"
	"testing"
)

// BenchmarkScores evaluates an MLP 30 → 64 → 1, the size the trainer's benchmarks use, on n
// rows, graph construction included.
func BenchmarkScores(b *testing.B) {
	m, err := NewMLP(MLPConfig{In: 30, Hidden: []int{64}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1024, 16384} {
		x := randomRows(1, n, 30)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Scores(m, x, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSave writes the same MLP's checkpoint atomically (fsync included).
func BenchmarkSave(b *testing.B) {
	m, err := NewMLP(MLPConfig{In: 30, Hidden: []int{64}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	path := b.TempDir() + "/model.ckpt"
	b.ReportAllocs()
	for b.Loop() {
		if err := Save(path, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScorer is BenchmarkScores through one reused Scorer, as validation after every
// epoch and serving use it.
func BenchmarkScorer(b *testing.B) {
	m, err := NewMLP(MLPConfig{In: 30, Hidden: []int{64}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1024, 16384} {
		x := randomRows(1, n, 30)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s, err := NewScorer(m)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Scores(x, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScoresAlong is forward-mode differentiation of the same MLP's scores along one
// parameter direction (ScoresAlong), to compare with BenchmarkScorer at the same n.
func BenchmarkScoresAlong(b *testing.B) {
	m, err := NewMLP(MLPConfig{In: 30, Hidden: []int{64}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	np, err := NumParams(m)
	if err != nil {
		b.Fatal(err)
	}
	v := randomRows(2, 1, np)
	for _, n := range []int{1024, 16384} {
		x := randomRows(1, n, 30)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := m.ScoresAlong(x, n, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
