package pairwise

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// The losses of k classes and k labels: each is a mean of binary losses, one per comparison,
// every comparison the binary algorithm on one column of the scores and the rows it compares
// (see Evaluate). Column c of the row-major n×k scores is first copied out contiguous; once its
// comparisons are done it is overwritten by the column of ∂L/∂s times the number of
// comparisons, and the whole is transposed back and scaled.

// multiclass is the loss of a Classes(k) task: scores row-major n×k, labels n class indices.
// cfg is valid; the gradient is nil unless withGrad is set.
func multiclass(scores, labels []float64, cfg Config, withGrad bool) (float64, []float64, error) {
	counts, err := check.ForTask(pkg, cfg.Task, scores, labels, true)
	if err != nil {
		return 0, nil, err
	}
	k, n := cfg.Task.K(), len(labels)
	cols := transposeScaled(scores, n, k, 1)
	y := make([]float64, n)
	var value float64
	if !cfg.OvO {
		for c := range k {
			for i, l := range labels {
				y[i] = 0
				if l == float64(c) {
					y[i] = 1
				}
			}
			l, g, err := compute(cols[c*n:(c+1)*n], y, comparison(cfg, c), withGrad)
			if err != nil {
				return 0, nil, fmt.Errorf("%w (one-vs-rest comparison of class %d)", err, c)
			}
			value += l / float64(k)
			copy(cols[c*n:(c+1)*n], g)
		}
		return value, gradient(cols, k, n, float64(k), withGrad), nil
	}
	rows := classRows(labels, counts)
	pairs := float64(k * (k - 1))
	idx := make([]int, 0, n)
	col, ga := make([]float64, n), make([]float64, n) // one comparison's scores; column a's gradient
	for a := range k {
		clear(ga)
		for b := range k {
			if a == b {
				continue
			}
			idx = mergeRows(idx[:0], rows[a], rows[b])
			col, y := col[:len(idx)], y[:len(idx)]
			for j, i := range idx {
				col[j], y[j] = cols[a*n+i], 0
				if labels[i] == float64(a) {
					y[j] = 1
				}
			}
			l, g, err := compute(col, y, comparison(cfg, a*k+b), withGrad)
			if err != nil {
				return 0, nil, fmt.Errorf("%w (one-vs-one comparison of class %d against %d)", err, a, b)
			}
			value += l / pairs
			for j, gj := range g {
				ga[idx[j]] += gj
			}
		}
		copy(cols[a*n:(a+1)*n], ga)
	}
	return value, gradient(cols, k, n, pairs, withGrad), nil
}

// multilabel is the loss of a Labels(k) task: scores and labels row-major n×k. cfg is valid;
// the gradient is nil unless withGrad is set.
func multilabel(scores, labels []float64, cfg Config, withGrad bool) (float64, []float64, error) {
	if _, err := check.ForTask(pkg, cfg.Task, scores, labels, true); err != nil {
		return 0, nil, err
	}
	k := cfg.Task.K()
	n := len(labels) / k
	cols, ycols := transposeScaled(scores, n, k, 1), transposeScaled(labels, n, k, 1)
	var value float64
	for c := range k {
		l, g, err := compute(cols[c*n:(c+1)*n], ycols[c*n:(c+1)*n], comparison(cfg, c), withGrad)
		if err != nil {
			return 0, nil, fmt.Errorf("%w (label column %d)", err, c)
		}
		value += l / float64(k)
		copy(cols[c*n:(c+1)*n], g) // the column is used up: it holds k·∂L/∂s from here on
	}
	return value, gradient(cols, k, n, float64(k), withGrad), nil
}

// gradient returns the row-major n×k gradient from its k columns cols, each m times ∂L/∂s
// (m the number of comparisons), or nil without withGrad.
func gradient(cols []float64, k, n int, m float64, withGrad bool) []float64 {
	if !withGrad {
		return nil
	}
	return transposeScaled(cols, k, n, 1/m)
}

// comparison returns cfg as the binary configuration of comparison t, with the seed
// SplitMix64(Seed + (t+1)·γ), γ the golden-ratio increment 0x9E3779B97F4A7C15. Exact losses
// (Pairs = 0) ignore the seed.
func comparison(cfg Config, t int) Config {
	z := cfg.Seed + uint64(t+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	cfg.Seed = z ^ (z >> 31)
	cfg.Task, cfg.OvO = rocops.Task{}, false
	return cfg
}

// classRows returns the rows of each class, in input order, in one backing array.
func classRows(labels []float64, counts []int) [][]int {
	buf := make([]int, len(labels))
	rows := make([][]int, len(counts))
	at := 0
	for c, m := range counts {
		rows[c] = buf[at : at : at+m]
		at += m
	}
	for i, l := range labels {
		rows[int(l)] = append(rows[int(l)], i)
	}
	return rows
}

// mergeRows appends to dst the union of the ascending row lists a and b, in ascending order:
// the rows of two classes in input order, as the sampled pairs expect a batch.
func mergeRows(dst, a, b []int) []int {
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}

// transposeScaled returns a·mᵀ for the r×c row-major matrix m, as c×r row-major (m's columns,
// each contiguous). a = 1 copies exactly.
func transposeScaled(m []float64, r, c int, a float64) []float64 {
	out := make([]float64, len(m))
	for i := range r {
		for j, x := range m[i*c : (i+1)*c] {
			out[j*r+i] = a * x
		}
	}
	return out
}
