package pairwise

import (
	"fmt"

	"github.com/rocops/rocops/internal/check"
)

// Multiclass configures the multi-class pairwise loss: the binary loss of [Config] on each of
// a set of binary comparisons between classes, averaged. The zero value is the one-vs-rest
// mean of the exact all-pairs logistic loss.
type Multiclass struct {
	// Config is the surrogate, margin and pair sampling of every binary comparison. With
	// Pairs > 0 each comparison draws Pairs pairs of its own, from a seed derived from Seed
	// and the comparison (see [MulticlassGradient]).
	Config
	// OvO is false for one-vs-rest: the mean over the k classes c of the binary loss of column
	// c with labels [y = c]. True is one-vs-one: the mean over the k(k−1) ordered pairs (a, b),
	// a ≠ b, of the binary loss of column a over the rows of classes a and b with positives
	// the rows of a, the loss whose minimiser maximises Hand & Till's multi-class AUC M.
	OvO bool
}

// MulticlassGradient returns the multi-class pairwise loss of k-class scores against class
// indices and its gradient. scores is row-major n×k (s_ic = scores[i·k + c], example i's score
// for class c) and labels holds y_i ∈ {0, …, k−1}. Write L(f, P, N) for the binary loss of
// [Evaluate] with the scores f_i of the rows P as positives and of the rows N as negatives,
// and s_·c for column c. Then
//
//	one-vs-rest  L = (1/k) Σ_c L(s_·c, {y = c}, {y ≠ c})
//	one-vs-one   L = (1/(k(k−1))) Σ_{a≠b} L(s_·a, {y = a}, {y = b})
//
// and the gradient is the same mean of each comparison's [Gradient], scattered back to the
// column and rows it came from; every other entry of a comparison's gradient is 0. Each
// comparison runs the binary algorithm on its column and rows only: exact, with no n×n
// matrix, and for one-vs-one the k(k−1) comparisons hold 2(k−1)·n rows in all (each row
// takes part in the 2(k−1) comparisons of its class), so one-vs-one costs about
// 2(k−1)/k ≈ 2 times one-vs-rest for the sort-based surrogates (a little less: the sorts are
// shorter), and the same for Logistic, whose Σ_{a≠b} n_a·n_b pairs are one-vs-rest's
// Σ_c n_c·(n − n_c). Memory is O(n·k): the scores and the gradient by column, and one
// comparison's rows.
//
// With Pairs > 0, comparison t (t = c for one-vs-rest, t = a·k + b for one-vs-one) draws its
// own Pairs pairs as [Evaluate] does, from the seed SplitMix64(Seed + (t+1)·0x9E3779B97F4A7C15)
// (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): each
// comparison's estimate is unbiased, so their mean is, and the comparisons' draws differ.
//
// Errors: those of [Config.Validate]; len(scores) ≠ n·k or k < 1 (rocops.ErrLength); no rows
// (rocops.ErrEmpty); a NaN or infinite score (rocops.ErrNonFinite); a label outside 0…k−1 (rocops.ErrLabel); k < 2
// or a class with no rows (rocops.ErrOneClass, naming the class), since its comparisons have no
// positives; rocops.ErrRange naming the comparison.
func MulticlassGradient(scores []float64, k int, labels []int, cfg Multiclass) (
	grad []float64, value float64, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, 0, err
	}
	counts, err := check.Multiclass(pkg, scores, k, labels)
	if err != nil {
		return nil, 0, err
	}
	n := len(labels)
	// Column c of the scores is cols[c·n : (c+1)·n]; once its comparisons are done it is
	// overwritten by the column of ∂L/∂s times the number of comparisons, and the whole is
	// transposed back and scaled.
	cols := transposeScaled(scores, n, k, 1)
	y := make([]float64, n)
	if !cfg.OvO {
		for c := range k {
			for i, l := range labels {
				y[i] = 0
				if l == c {
					y[i] = 1
				}
			}
			g, l, err := Gradient(cols[c*n:(c+1)*n], y, comparison(cfg.Config, c))
			if err != nil {
				return nil, 0, fmt.Errorf("%w (one-vs-rest comparison of class %d)", err, c)
			}
			value += l / float64(k)
			copy(cols[c*n:(c+1)*n], g)
		}
		return transposeScaled(cols, k, n, 1/float64(k)), value, nil
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
				if labels[i] == a {
					y[j] = 1
				}
			}
			g, l, err := Gradient(col, y, comparison(cfg.Config, a*k+b))
			if err != nil {
				return nil, 0, fmt.Errorf("%w (one-vs-one comparison of class %d against %d)", err, a, b)
			}
			value += l / pairs
			for j, i := range idx {
				ga[i] += g[j]
			}
		}
		copy(cols[a*n:(a+1)*n], ga)
	}
	return transposeScaled(cols, k, n, 1/pairs), value, nil
}

// MultilabelGradient returns the multi-label pairwise loss of k-label scores and its gradient:
// scores and labels are row-major n×k, labels 0 or 1, and
//
//	L = (1/k) Σ_c L(s_·c, {Y_·c = 1}, {Y_·c = 0}),
//
// the mean over label columns c of the binary loss of [Evaluate] on column c of the scores
// against column c of the labels; the gradient is the same mean of each column's [Gradient].
// Cost: k binary losses on n rows; memory O(n·k). With Pairs > 0 column c draws its pairs from
// the seed derived for comparison t = c as in [MulticlassGradient].
//
// Errors: those of [Config.Validate]; lengths that are not n·k or k < 1 (rocops.ErrLength); no rows
// (rocops.ErrEmpty); a NaN or infinite score (rocops.ErrNonFinite); a label other than 0 or 1 (rocops.ErrLabel); a
// label column with one class (rocops.ErrNoPositives or rocops.ErrNoNegatives, both matching rocops.ErrOneClass,
// naming the column); rocops.ErrRange naming the column.
func MultilabelGradient(scores []float64, k int, labels []float64, cfg Config) (
	grad []float64, value float64, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, 0, err
	}
	if _, err := check.Multilabel(pkg, scores, k, labels, true); err != nil {
		return nil, 0, err
	}
	n := len(labels) / k
	cols, ycols := transposeScaled(scores, n, k, 1), transposeScaled(labels, n, k, 1)
	for c := range k {
		g, l, err := Gradient(cols[c*n:(c+1)*n], ycols[c*n:(c+1)*n], comparison(cfg, c))
		if err != nil {
			return nil, 0, fmt.Errorf("%w (label column %d)", err, c)
		}
		value += l / float64(k)
		copy(cols[c*n:(c+1)*n], g) // the column is used up: it holds k·∂L/∂s from here on
	}
	return transposeScaled(cols, k, n, 1/float64(k)), value, nil
}

// comparison returns cfg with the seed of comparison t: SplitMix64(Seed + (t+1)·γ), γ the
// golden-ratio increment 0x9E3779B97F4A7C15. Exact losses (Pairs = 0) ignore the seed.
func comparison(cfg Config, t int) Config {
	z := cfg.Seed + uint64(t+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	cfg.Seed = z ^ (z >> 31)
	return cfg
}

// classRows returns the rows of each class, in input order, in one backing array.
func classRows(labels []int, counts []int) [][]int {
	buf := make([]int, len(labels))
	rows := make([][]int, len(counts))
	at := 0
	for c, m := range counts {
		rows[c] = buf[at : at : at+m]
		at += m
	}
	for i, l := range labels {
		rows[l] = append(rows[l], i)
	}
	return rows
}

// mergeRows appends to dst the union of the ascending row lists a and b, in ascending order:
// the rows of two classes in input order, as Evaluate's sampled pairs expect a batch.
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
