package pairwise

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
)

// bruteMulticlass is the definition as a double loop over every positive–negative pair of
// every comparison, with the hand-written surrogates of naive_test.go: one-vs-rest compares
// the rows of class c (positives) with all others on column c; one-vs-one the rows of a with
// those of b on column a, for every ordered pair a ≠ b.
func bruteMulticlass(s Surrogate, m float64, scores []float64, k int, labels []int, ovo bool) (float64, []float64) {
	grad := make([]float64, len(scores))
	var loss float64
	var comparisons float64
	add := func(c int, neg func(l int) bool) {
		var sum, pairs float64
		g := make([]float64, len(scores))
		for i, li := range labels {
			if li != c {
				continue
			}
			for j, lj := range labels {
				if !neg(lj) {
					continue
				}
				x := scores[i*k+c] - scores[j*k+c]
				sum += naiveEll(s, m, x)
				w := naiveWeight(s, m, x)
				g[i*k+c] -= w
				g[j*k+c] += w
				pairs++
			}
		}
		loss += sum / pairs
		for i := range g {
			grad[i] += g[i] / pairs
		}
		comparisons++
	}
	for a := range k {
		if !ovo {
			add(a, func(l int) bool { return l != a })
			continue
		}
		for b := range k {
			if b != a {
				add(a, func(l int) bool { return l == b })
			}
		}
	}
	for i := range grad {
		grad[i] /= comparisons
	}
	return loss / comparisons, grad
}

// bruteMultilabel is the mean over label columns of the all-pairs double loop (naive).
func bruteMultilabel(s Surrogate, m float64, scores []float64, k int, labels []float64) (float64, []float64) {
	n := len(labels) / k
	grad := make([]float64, len(scores))
	var loss float64
	for c := range k {
		f, y := make([]float64, n), make([]float64, n)
		for i := range n {
			f[i], y[i] = scores[i*k+c], labels[i*k+c]
		}
		l, g := naive(s, m, f, y)
		loss += l / float64(k)
		for i := range n {
			grad[i*k+c] += g[i] / float64(k)
		}
	}
	return loss, grad
}

// multiclassBatch draws n rows of k classes (the first k rows hold every class, the others
// class c with weight c + 1) with scores N(0, 1) plus 1 on the true class, or on four levels
// when tied is set.
func multiclassBatch(seed uint64, n, k int, tied bool) ([]float64, []int) {
	r := rand.New(rand.NewPCG(seed, 18))
	scores, labels := make([]float64, n*k), make([]int, n)
	for i := range labels {
		labels[i] = i % k
		if i >= k {
			u := r.IntN(k * (k + 1) / 2)
			c := 0
			for u >= c+1 {
				u -= c + 1
				c++
			}
			labels[i] = c
		}
		for c := range k {
			f := r.NormFloat64()
			if tied {
				f = float64(r.IntN(4)) / 2
			}
			if c == labels[i] {
				f++
			}
			scores[i*k+c] = f
		}
	}
	return scores, labels
}

// classIndices returns class indices as the task-general functions take them, in float64.
func classIndices(labels []int) []float64 {
	out := make([]float64, len(labels))
	for i, y := range labels {
		out[i] = float64(y)
	}
	return out
}

// TestMulticlassMatchesBrute: one-vs-rest and one-vs-one Gradient on a Classes task equal the
// brute-force double loops, and Evaluate equals Gradient's value bit for bit.
func TestMulticlassMatchesBrute(t *testing.T) {
	for _, s := range Surrogates() {
		for _, ovo := range []bool{false, true} {
			for _, k := range []int{2, 3, 5} {
				for _, tied := range []bool{false, true} {
					name := fmt.Sprintf("%v/ovo=%v/k=%d/tied=%v", s, ovo, k, tied)
					t.Run(name, func(t *testing.T) {
						scores, labels := multiclassBatch(uint64(k), 41, k, tied)
						for _, margin := range []float64{0, 0.5} {
							cfg := Config{Surrogate: s, Margin: margin, Task: rocops.Classes(k), OvO: ovo}
							g, l, err := Gradient(scores, classIndices(labels), cfg)
							require.NoError(t, err)
							v, err := Evaluate(scores, classIndices(labels), cfg)
							require.NoError(t, err)
							require.Equal(t, l, v, "Evaluate and Gradient's value")
							m := margin
							if m == 0 {
								m = 1
							}
							wl, wg := bruteMulticlass(s, m, scores, k, labels, ovo)
							requireClose(t, wl, l, wg, g)
						}
					})
				}
			}
		}
	}
}

// TestMultilabelMatchesBrute: Gradient on a Labels task equals the label-wise mean of the
// brute-force double loops, Evaluate its value; one label column is the binary loss, bit for bit.
func TestMultilabelMatchesBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 18))
	for _, s := range Surrogates() {
		for _, k := range []int{1, 4} {
			t.Run(fmt.Sprintf("%v/k=%d", s, k), func(t *testing.T) {
				const n = 30
				scores, labels := make([]float64, n*k), make([]float64, n*k)
				for i := range labels {
					if i < k || (i >= 2*k && r.Float64() < 0.3) {
						labels[i] = 1
					}
					scores[i] = float64(r.IntN(6))/3 + labels[i]*0.5 // ties within and across labels
				}
				cfg := Config{Surrogate: s, Task: rocops.Labels(k)}
				if k == 1 { // a task of one label column is the binary task
					cfg.Task = rocops.Task{}
				}
				g, l, err := Gradient(scores, labels, cfg)
				require.NoError(t, err)
				wl, wg := bruteMultilabel(s, 1, scores, k, labels)
				requireClose(t, wl, l, wg, g)
				v, err := Evaluate(scores, labels, cfg)
				require.NoError(t, err)
				require.Equal(t, l, v, "Evaluate and Gradient's value")
			})
		}
	}
}

// TestMulticlassSampled: with Pairs > 0 each comparison is Gradient on its own column and rows
// with the derived seed (so it is exactly that comparison's unbiased estimate), the comparisons'
// seeds differ, the same seed repeats the result, and the mean over many seeds approaches the
// exact loss and gradient.
func TestMulticlassSampled(t *testing.T) {
	const k, n, pairs = 3, 24, 40
	scores, labels := multiclassBatch(7, n, k, false)
	classes := classIndices(labels)
	cfg := Config{Surrogate: SquaredHinge, Pairs: pairs, Seed: 11, Task: rocops.Classes(k), OvO: true}
	g, l, err := Gradient(scores, classes, cfg)
	require.NoError(t, err)
	g2, l2, err := Gradient(scores, classes, cfg)
	require.NoError(t, err)
	require.Equal(t, l, l2)
	require.Equal(t, g, g2)

	// By comparison: column a over the rows of a and b in input order, positives a.
	var want float64
	seeds := map[uint64]bool{}
	for a := range k {
		for b := range k {
			if a == b {
				continue
			}
			var f, y []float64
			for i, c := range labels {
				if c == a || c == b {
					f = append(f, scores[i*k+a])
					y = append(y, float64(btoi(c == a)))
				}
			}
			sub := comparison(cfg, a*k+b)
			seeds[sub.Seed] = true
			v, err := Evaluate(f, y, sub)
			require.NoError(t, err)
			want += v / float64(k*(k-1))
		}
	}
	require.InDelta(t, want, l, 1e-15)
	require.Len(t, seeds, k*(k-1), "every comparison draws from its own seed")

	// Unbiased: the mean of R estimates is within 5 standard errors of the exact value, for the
	// loss and every gradient entry.
	for _, ovo := range []bool{false, true} {
		exact := Config{Surrogate: SquaredHinge, Task: rocops.Classes(k), OvO: ovo}
		exactG, exactL, err := Gradient(scores, classes, exact)
		require.NoError(t, err)
		const reps = 600
		sum, sq := make([]float64, n*k+1), make([]float64, n*k+1)
		for seed := range uint64(reps) {
			sampled := exact
			sampled.Pairs, sampled.Seed = pairs, seed
			g, l, err := Gradient(scores, classes, sampled)
			require.NoError(t, err)
			for i, x := range append(g, l) {
				sum[i] += x
				sq[i] += x * x
			}
		}
		for i, want := range append(exactG, exactL) {
			mean := sum[i] / reps
			se := math.Sqrt(max(sq[i]/reps-mean*mean, 0) / reps)
			require.LessOrEqual(t, math.Abs(mean-want), 5*se+1e-12,
				"ovo=%v entry %d: mean %v, exact %v, se %v", ovo, i, mean, want, se)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestMulticlassErrors(t *testing.T) {
	ok := []float64{0.1, 0.8, 0.1, 0.3, 0.4, 0.3, 0.35, 0.5, 0.15, 0, 0.2, 0.8}
	okLabels := []float64{0, 1, 0, 2}
	classes := func(k int, c Config) Config { c.Task = rocops.Classes(k); return c }
	ovo := Config{OvO: true}
	cases := []struct {
		name   string
		scores []float64
		labels []float64
		cfg    Config
		want   error
		says   string
	}{
		{"empty", nil, nil, classes(3, Config{}), rocops.ErrEmpty, ""},
		{"k = 0", ok, okLabels, classes(0, Config{}), rocops.ErrConfig, "invalid setting: Task = 0 classes"},
		{"not n·k", ok[:10], okLabels, classes(3, Config{}), rocops.ErrLength, ""},
		{"k = 1", ok[:4], []float64{0, 0, 0, 0}, classes(1, ovo), rocops.ErrConfig, "invalid setting: Task = 1 classes"},
		{"NaN", append([]float64{math.NaN()}, ok[1:]...), okLabels, classes(3, Config{}), rocops.ErrNonFinite, ""},
		{"class index 3", ok, []float64{0, 1, 3, 2}, classes(3, Config{}), rocops.ErrLabel, "labels[2] = 3"},
		{"class index −1", ok, []float64{-1, 1, 0, 2}, classes(3, ovo), rocops.ErrLabel, "labels[0] = -1"},
		{"class index 0.5", ok, []float64{0, 1, 0.5, 2}, classes(3, ovo), rocops.ErrLabel, "labels[2] = 0.5"},
		{"class without rows", ok, []float64{0, 2, 0, 2}, classes(3, ovo), rocops.ErrOneClass, "class 1 has no rows"},
		{"margin", ok, okLabels, classes(3, Config{Margin: -1}), rocops.ErrConfig, "Margin = -1"},
		{"pairs", ok, okLabels, classes(3, Config{Pairs: -1}), rocops.ErrConfig, "Pairs = -1"},
		{"surrogate", ok, okLabels, classes(3, Config{Surrogate: 9}), rocops.ErrConfig, "Surrogate = 9"},
		{"OvO on binary data", ok[:4], []float64{0, 1, 0, 1}, ovo, rocops.ErrConfig, "OvO = true on a binary task"},
		{"OvO on labels", ok, ok, Config{OvO: true, Task: rocops.Labels(3)}, rocops.ErrConfig, "OvO = true on a 3 labels task"},
		{"overflow", []float64{800, 0, 0, 0, 0, 0}, []float64{1, 0, 1},
			classes(2, Config{Surrogate: Exponential}), rocops.ErrRange, "class 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Gradient(c.scores, c.labels, c.cfg)
			require.ErrorIs(t, err, c.want)
			require.Regexp(t, "^pairwise: ", err.Error())
			require.Contains(t, err.Error(), c.says)
			_, err = Evaluate(c.scores, c.labels, c.cfg)
			require.ErrorIs(t, err, c.want)
		})
	}
}

func TestMultilabelErrors(t *testing.T) {
	ok := []float64{0.1, 0.8, 0.3, 0.4, 0.35, 0.5}
	okLabels := []float64{0, 1, 1, 0, 0, 1}
	cases := []struct {
		name           string
		scores, labels []float64
		k              int
		want           error
		says           string
	}{
		{"empty", nil, nil, 2, rocops.ErrEmpty, ""},
		{"k = 0", ok, okLabels, 0, rocops.ErrConfig, "invalid setting: Task = 0 labels"},
		{"lengths", ok, okLabels[:4], 2, rocops.ErrLength, ""},
		{"label 2", ok, []float64{0, 1, 2, 0, 0, 1}, 2, rocops.ErrLabel, "labels[2]"},
		{"Inf", []float64{0.1, math.Inf(1), 0.3, 0.4, 0.35, 0.5}, okLabels, 2, rocops.ErrNonFinite, "scores[1]"},
		{"no positives", ok, []float64{0, 1, 0, 0, 0, 1}, 2, rocops.ErrNoPositives, "label column 0"},
		{"no negatives", ok, []float64{0, 1, 1, 1, 0, 1}, 2, rocops.ErrOneClass, "label column 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Gradient(c.scores, c.labels, Config{Task: rocops.Labels(c.k)})
			require.ErrorIs(t, err, c.want)
			require.Regexp(t, "^pairwise: ", err.Error())
			require.Contains(t, err.Error(), c.says)
		})
	}
}

// FuzzMulticlassGradient: byte 0 picks k ∈ {2, 3, 4}, byte 1 the surrogate and bit 7 of it
// one-vs-one; then rows of k + 1 bytes, a label (mod k + 1, so k is out of range) and k scores
// on 16 levels. Valid input must match the brute-force loops, invalid input give one of the
// package's errors.
func FuzzMulticlassGradient(f *testing.F) {
	f.Add([]byte{1, 0x83, 0, 0x10, 0x80, 0x20, 1, 0x30, 0x40, 0x50, 2, 0x60, 0x70, 0x80})
	f.Add([]byte{0, 0x04, 0, 0x10, 0x20, 1, 0x30, 0x40, 0, 0x30, 0x40})
	f.Add([]byte{2, 0x81, 0, 1, 2, 3, 4, 1, 5, 6, 7, 8, 2, 9, 10, 11, 12, 3, 13, 14, 15, 16, 4, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		k := 2 + int(data[0]%3)
		s := Surrogate(int(data[1]&0x7f) % len(Surrogates()))
		ovo := data[1]&0x80 != 0
		data = data[2:]
		scores, labels := testbatch.Classes(data, k, 24, func(b byte) float64 { return float64(b>>4) / 4 })
		g, l, err := Gradient(scores, classIndices(labels), Config{Surrogate: s, Task: rocops.Classes(k), OvO: ovo})
		if err != nil {
			for _, e := range []error{rocops.ErrEmpty, rocops.ErrLabel, rocops.ErrOneClass} {
				if errors.Is(err, e) {
					return
				}
			}
			require.Fail(t, fmt.Sprintf("unexpected error %v", err))
		}
		wl, wg := bruteMulticlass(s, 1, scores, k, labels, ovo)
		requireClose(t, wl, l, wg, g)
	})
}

// FuzzMultilabelGradient: byte 0 picks k ∈ {1, 2, 3} and the surrogate; every further byte is a
// cell, bit 0 its label and the high four bits its score.
func FuzzMultilabelGradient(f *testing.F) {
	f.Add([]byte{0x01, 0x00, 0x11, 0x21, 0x30})
	f.Add([]byte{0x12, 0x01, 0x10, 0x51, 0x50, 0x31, 0x30, 0xf1, 0x00, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		k := 1 + int(data[0]&0x0f)%3
		s := Surrogate(int(data[0]>>4) % len(Surrogates()))
		data = data[1:]
		n := min(len(data)/k, 32)
		scores, labels := make([]float64, n*k), make([]float64, n*k)
		for i := range scores {
			scores[i], labels[i] = float64(data[i]>>4)/4, float64(data[i]&1)
		}
		cfg := Config{Surrogate: s, Task: rocops.Labels(k)}
		if k == 1 {
			cfg.Task = rocops.Task{}
		}
		g, l, err := Gradient(scores, labels, cfg)
		if err != nil {
			require.False(t, !errors.Is(err, rocops.ErrEmpty) && !errors.Is(err, rocops.ErrOneClass), "unexpected error %v", err)
			return
		}
		wl, wg := bruteMultilabel(s, 1, scores, k, labels)
		requireClose(t, wl, l, wg, g)
	})
}
