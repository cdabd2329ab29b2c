package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// termsOf returns the terms of fs.
func termsOf(fs []float64) Terms {
	t := Terms{F: fs, Up: make([]float64, len(fs)), Down: make([]float64, len(fs))}
	for j, f := range fs {
		t.Up[j], t.Down[j] = math.Exp(f), math.Exp(-f)
	}
	return t
}

// TestPairRowsIsPairRow: PairRows of two rows gives the bits of PairRow of the first row and
// then of the second — both rows' losses and weights, and the weights added to g — for tiles
// of every length modulo 4 (with and without the kernel's part: fewer than 4 terms), up to the
// 1024 of a tile, for scores of the normal range, ties (x = 0), rows equal to each other and
// scores at ±700, whose products overflow to +∞ or underflow to 0.
func TestPairRowsIsPairRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 63, 64, 1021, 1022, 1023, 1024} {
		for _, c := range []struct {
			name  string
			scale float64
			a, b  float64
		}{{"normal", 2, 0.3, -1.1}, {"ties", 0, 0, 0}, {"equal rows", 3, 0.25, 0.25}, {"extremes", 700, 700, -700}} {
			t.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(t *testing.T) {
				fs := make([]float64, n)
				for j := range fs {
					fs[j] = c.scale * (2*rng.Float64() - 1)
					if c.name == "extremes" && j%3 == 0 {
						fs[j] = []float64{700, -700}[j%2]
					}
				}
				tile := termsOf(fs)
				a, b := termsOf([]float64{c.a}), termsOf([]float64{c.b})
				ta, tb := Term{a.F[0], a.Up[0], a.Down[0]}, Term{b.F[0], b.Up[0], b.Down[0]}
				g0 := make([]float64, n)
				for j := range g0 {
					g0[j] = rng.Float64()
				}
				want, got := append([]float64(nil), g0...), append([]float64(nil), g0...)
				la, wa := PairRow(ta, tile, want)
				lb, wb := PairRow(tb, tile, want)
				gla, gwa, glb, gwb := PairRows(ta, tb, tile, got)
				for _, v := range [][2]float64{{gla, la}, {gwa, wa}, {glb, lb}, {gwb, wb}} {
					require.Equal(t, math.Float64bits(v[1]), math.Float64bits(v[0]), "PairRows %v, PairRow %v", v[0], v[1])
				}
				for j := range want {
					require.Equal(t, math.Float64bits(want[j]), math.Float64bits(got[j]), "g[%d] = %v, PairRow's %v", j, got[j], want[j])
				}
			})
		}
	}
}

// TestPairRowMatchesDirect: PairRow's loss and weight are those of the pair terms computed one
// by one from the difference, LogLoss's softplus(−x) and σ(−x), to the relative accuracy of a
// sum of 1000 terms of a few roundings each.
func TestPairRowMatchesDirect(t *testing.T) {
	const tolRel = 1e-13
	rng := rand.New(rand.NewPCG(9, 1))
	fs := make([]float64, 1000)
	for j := range fs {
		fs[j] = 3 * rng.NormFloat64()
	}
	tile := termsOf(fs)
	for _, f := range []float64{0, fs[5], 2.5, -30, 40} {
		p := termsOf([]float64{f})
		g := make([]float64, len(fs))
		loss, weight := PairRow(Term{p.F[0], p.Up[0], p.Down[0]}, tile, g)
		var wantLoss, wantWeight float64
		for j, fj := range fs {
			l, s := LogLoss(f-fj, 1) // softplus(−x) and σ(x)
			wantLoss += l
			wantWeight += 1 - s
			d := math.Abs(g[j] - (1 - s))
			require.LessOrEqual(t, d, tolRel, "f = %v: g[%d] = %v, want %v", f, j, g[j], 1-s)
		}
		d := math.Abs(loss - wantLoss)
		require.LessOrEqual(t, d, tolRel*wantLoss, "f = %v: loss %v, want %v", f, loss, wantLoss)
		d = math.Abs(weight - wantWeight)
		require.LessOrEqual(t, d, tolRel*max(wantWeight, 1), "f = %v: weight %v, want %v", f, weight, wantWeight)
	}
}

// BenchmarkPairRows is one tile of 1024 negatives against 64 positives, two rows at a time
// (impl=rows, the kernel where the processor has it) and one at a time (impl=row, the loop).
// ns/pair is the time per pair.
func BenchmarkPairRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 1))
	fs := make([]float64, 1024)
	for j := range fs {
		fs[j] = rng.NormFloat64()
	}
	tile, g := termsOf(fs), make([]float64, len(fs))
	rows := make([]Term, 64)
	for i := range rows {
		p := termsOf([]float64{rng.NormFloat64() + 1})
		rows[i] = Term{p.F[0], p.Up[0], p.Down[0]}
	}
	pairs := float64(len(rows) * len(fs))
	b.Run("impl=rows", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i < len(rows); i += 2 {
				PairRows(rows[i], rows[i+1], tile, g)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/pairs, "ns/pair")
	})
	b.Run("impl=row", func(b *testing.B) {
		for b.Loop() {
			for _, p := range rows {
				PairRow(p, tile, g)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/pairs, "ns/pair")
	})
}
