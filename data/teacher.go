package data

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// TeacherConfig configures Teacher. Every zero value is a documented default.
type TeacherConfig struct {
	Rows     int     // examples; 0 = 4000
	Cols     int     // features; 0 = 20
	Hidden   int     // hidden units of the teacher; 0 = 16
	Positive float64 // share of positives before the noise; 0 = 0.05
	Noise    float64 // share of the positives whose labels are swapped with as many negatives'; 0 = none
	Seed     uint64
}

// Teacher returns a synthetic task that is hard to rank: features x ~ N(0, I) in Cols
// dimensions and labels from a randomly initialised one-hidden-layer network, the teacher
//
//	t(x) = Σ_k a_k·tanh(⟨w_k, x⟩/√Cols),   w_k ~ N(0, I), a_k ~ N(0, 1/Hidden),
//
// with y = 1 for the Positive share of rows with the largest t(x). Then label noise: a share
// Noise of the positives, chosen at random, become negatives and as many random negatives
// become positives, which keeps the share of positives. The same configuration gives the same
// data. Errors: a negative size, Positive outside [0, 1) or Noise outside [0, 1] are
// [rocops.ErrConfig].
func Teacher(cfg TeacherConfig) (*Dataset, error) {
	if cfg.Rows == 0 {
		cfg.Rows = 4000
	}
	if cfg.Cols == 0 {
		cfg.Cols = 20
	}
	if cfg.Hidden == 0 {
		cfg.Hidden = 16
	}
	if cfg.Positive == 0 {
		cfg.Positive = 0.05
	}
	switch {
	case cfg.Rows < 2, cfg.Cols < 1, cfg.Hidden < 1:
		return nil, check.Errorf("data", rocops.ErrConfig, "teacher with %d rows, %d features, %d hidden units", cfg.Rows, cfg.Cols, cfg.Hidden)
	case !(cfg.Positive > 0 && cfg.Positive < 1), !(cfg.Noise >= 0 && cfg.Noise <= 1):
		return nil, check.Errorf("data", rocops.ErrConfig, "teacher with Positive %v, Noise %v", cfg.Positive, cfg.Noise)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x746561636865)) // "teache"
	w := make([]float64, cfg.Hidden*cfg.Cols)
	a := make([]float64, cfg.Hidden)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	for k := range a {
		a[k] = rng.NormFloat64() / math.Sqrt(float64(cfg.Hidden))
	}
	x := make([]float64, cfg.Rows*cfg.Cols)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	t := make([]float64, cfg.Rows)
	scale := 1 / math.Sqrt(float64(cfg.Cols))
	for r := range t {
		row := x[r*cfg.Cols : (r+1)*cfg.Cols]
		for k := range a {
			var u float64
			for j, v := range row {
				u += w[k*cfg.Cols+j] * v
			}
			t[r] += a[k] * math.Tanh(u*scale)
		}
	}
	order := make([]int, cfg.Rows)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return -cmp.Compare(t[i], t[j]) })
	nPos := max(1, min(cfg.Rows-1, int(math.Round(cfg.Positive*float64(cfg.Rows)))))
	y := make([]float64, cfg.Rows)
	for _, i := range order[:nPos] {
		y[i] = 1
	}
	flip := int(math.Round(cfg.Noise * float64(nPos)))
	pos, neg := slices.Clone(order[:nPos]), slices.Clone(order[nPos:])
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	for k := range min(flip, len(neg)) {
		y[pos[k]], y[neg[k]] = 0, 1
	}
	return New(x, y, cfg.Cols)
}
