package nn

import (
	"fmt"
	"testing"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/cputime"
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
				if _, err := ScoresWith(s, x, n); err != nil {
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

// BenchmarkPass is one forward and one backward pass of the same MLP through a reused Pass,
// per dtype and batch size: the network's share of a training step (BenchmarkStep in train
// adds the loss and the optimiser), with its processor time per pass (cpu-ns/op). The
// input is set once; the parameters do not change.
func BenchmarkPass(b *testing.B) {
	for _, dt := range dtypes {
		m, err := NewMLP(MLPConfig{In: 30, Hidden: []int{64}, Seed: 1, Dtype: dt})
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{128, 1024} {
			b.Run(fmt.Sprintf("dtype=%v/rows=%d", dt, n), func(b *testing.B) {
				p, err := NewPass(m, n)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.setInput(randomRows(1, n, 30)); err != nil {
					b.Fatal(err)
				}
				d := randomRows(2, n, 1)
				for i := range d {
					d[i] /= float64(n)
				}
				b.ReportAllocs()
				stop := cputime.Report(b)
				for b.Loop() {
					p.Forward()
					if err := p.Backward(d); err != nil {
						b.Fatal(err)
					}
				}
				stop()
			})
		}
	}
}

// BenchmarkCheckInput checks n rows × 30 finite features for a float32 and a float64 model:
// the pass the trainer makes over its training and validation data before every Fit.
func BenchmarkCheckInput(b *testing.B) {
	const n = 1 << 20
	x := randomRows(1, n, 30)
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		m, err := NewMLP(MLPConfig{In: 30, Hidden: []int{64}, Seed: 1, Dtype: dt})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/dtype=%v", n, dt), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(8 * len(x)))
			for b.Loop() {
				if err := CheckInput(m, x, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPassTransfer times one forward and backward pass of batch 128 through the arms of a
// transfer study on a 784 → 256 → 128 body with one score: everything trained (random), the
// body frozen under a new head (frozen), and rank-4 LoRA adapters on both body layers with
// the new head (lora). Backward stops at the lowest trainable layer and computes no gradient
// of a frozen parameter, so the frozen arm costs the forward pass and the head's backward.
func BenchmarkPassTransfer(b *testing.B) {
	const rows = 128
	for _, dt := range dtypes {
		base, err := NewMLP(MLPConfig{In: 784, Hidden: []int{256, 128}, Outputs: 5, Seed: 1, Dtype: dt})
		if err != nil {
			b.Fatal(err)
		}
		for _, arm := range []struct {
			name string
			cfg  TransferConfig
		}{
			{"random", TransferConfig{}},
			{"frozen", TransferConfig{Freeze: 2}},
			{"lora", TransferConfig{Rank: 4}},
		} {
			b.Run(fmt.Sprintf("arm=%s/dtype=%v", arm.name, dt), func(b *testing.B) {
				m, err := Transfer(base, arm.cfg)
				if err != nil {
					b.Fatal(err)
				}
				p, err := NewPass(m, rows)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.setInput(randomRows(1, rows, 784)); err != nil {
					b.Fatal(err)
				}
				d := randomRows(2, rows, 1)
				b.ReportAllocs()
				stop := cputime.Report(b)
				for b.Loop() {
					p.Forward()
					if err := p.Backward(d); err != nil {
						b.Fatal(err)
					}
				}
				stop()
			})
		}
	}
}
