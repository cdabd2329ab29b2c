package aucm

import (
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// MulticlassGradient returns the one-vs-rest AUC-M loss of k-class scores against class
// indices and its derivatives, the extension LibAUC applies to k labels (its
// MultiLabelAUCMLoss, libauc/losses/auc.py: one a, b and α per column and the mean of the
// columns' losses). scores is row-major n×k (z_ic = scores[i·k + c], row i's raw score for
// class c), labels holds y_i ∈ {0, …, k−1}, and a, b and alpha hold one auxiliary variable per
// column (a_c = a[c]). With f the binary loss of [Evaluate] and z_·c column c,
//
//	F = (1/k) Σ_c f(z_·c, [y = c]; a_c, b_c, α_c),
//
// each column scored through its own sigmoid h_ic = σ(z_ic), its positives the rows of class c
// and its negatives every other row. The derivatives are those of [Gradient] for each column,
// times 1/k: dz[i·k + c] = ∂F/∂z_ic, da[c] = ∂F/∂a_c, db[c] = ∂F/∂b_c, dalpha[c] = ∂F/∂α_c.
// Column c's sums run over the rows in order, as Gradient's over column c alone, so value and
// derivatives equal (1/k) times k calls of Gradient on the columns, to the bit. Two passes
// over the n·k scores: the check, then one fused pass of sigmoids, column sums and derivatives.
//
// Errors: len(scores) ≠ n·k, k < 1, or a, b or alpha not of length k (rocops.ErrLength); no rows
// (rocops.ErrEmpty); a NaN or infinite score (rocops.ErrNonFinite); a label outside 0…k−1 (rocops.ErrLabel); k < 2
// or a class with no rows (rocops.ErrOneClass, naming the class); a, b or α not finite or a bad
// margin (rocops.ErrConfig); a result beyond float64 (rocops.ErrRange, naming the column).
func MulticlassGradient(scores []float64, k int, labels []int, a, b, alpha []float64, cfg Config) (
	dz, da, db, dalpha []float64, value float64, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, nil, nil, 0, err
	}
	m := cfg.margin()
	counts, err := check.Multiclass(pkg, scores, k, labels)
	if err != nil {
		return nil, nil, nil, nil, 0, err
	}
	if err := checkAux(k, a, b, alpha); err != nil {
		return nil, nil, nil, nil, 0, err
	}
	n := len(labels)
	return columns(scores, k, n, counts, func(i, c int) bool { return labels[i] == c }, aux3{a, b, alpha}, m)
}

// MultilabelGradient is [MulticlassGradient] for k labels: labels is row-major n×k of 0/1
// (column c holds label c), column c's positives are its rows with label 1, and
//
//	F = (1/k) Σ_c f(z_·c, Y_·c; a_c, b_c, α_c),
//
// LibAUC's MultiLabelAUCMLoss with its documented per-column formula. Errors are those of
// MulticlassGradient, except that a label other than 0 or 1 is rocops.ErrLabel and a column with one
// class rocops.ErrNoPositives or rocops.ErrNoNegatives (both rocops.ErrOneClass), naming the column.
func MultilabelGradient(scores []float64, k int, labels, a, b, alpha []float64, cfg Config) (
	dz, da, db, dalpha []float64, value float64, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, nil, nil, 0, err
	}
	m := cfg.margin()
	pos, err := check.Multilabel(pkg, scores, k, labels, true)
	if err != nil {
		return nil, nil, nil, nil, 0, err
	}
	if err := checkAux(k, a, b, alpha); err != nil {
		return nil, nil, nil, nil, 0, err
	}
	n := len(labels) / k
	return columns(scores, k, n, pos, func(i, c int) bool { return labels[i*k+c] == 1 }, aux3{a, b, alpha}, m)
}

// aux3 holds the k columns' a, b and α, or their derivatives.
type aux3 struct{ a, b, alpha []float64 }

// checkAux reports a, b or alpha not of length k (rocops.ErrLength) or holding a NaN or ±Inf
// (rocops.ErrConfig).
func checkAux(k int, a, b, alpha []float64) error {
	for _, s := range []struct {
		name string
		v    []float64
	}{{"a", a}, {"b", b}, {"alpha", alpha}} {
		if len(s.v) != k {
			return check.Errorf(pkg, rocops.ErrLength, "%s has %d elements for k = %d columns", s.name, len(s.v), k)
		}
		for c, x := range s.v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return check.Errorf(pkg, rocops.ErrConfig, "%s[%d] = %v, want a finite value", s.name, c, x)
			}
		}
	}
	return nil
}

// columns is the k-column loss of checked input: n rows, pos[c] positives in column c, isPos
// telling whether row i is a positive of column c, p the columns' variables and m the margin.
func columns(scores []float64, k, n int, pos []int, isPos func(i, c int) bool, p aux3, m float64) (
	dz, da, db, dalpha []float64, value float64, err error) {
	w1, w0 := make([]float64, k), make([]float64, k)
	for c, np := range pos {
		w1[c], w0[c] = 1/float64(np), 1/float64(n-np)
	}
	scale := 1 / float64(k)
	sq1, sq0 := make([]float64, k), make([]float64, k)
	mu1, mu0 := make([]float64, k), make([]float64, k)
	dz = make([]float64, len(scores))
	for i := range n {
		row := scores[i*k : i*k+k]
		for c, z := range row {
			h, dh := sigmoid(z)
			var g float64
			if isPos(i, c) {
				e := h - p.a[c]
				sq1[c] += e * e
				mu1[c] += h
				g = 2 * w1[c] * (e - p.alpha[c]) * dh
			} else {
				e := h - p.b[c]
				sq0[c] += e * e
				mu0[c] += h
				g = 2 * w0[c] * (e + p.alpha[c]) * dh
			}
			dz[i*k+c] = g * scale
		}
	}
	da, db, dalpha = make([]float64, k), make([]float64, k), make([]float64, k)
	var total float64
	for c := range k {
		mu1[c] *= w1[c]
		mu0[c] *= w0[c]
		gap := m + mu0[c] - mu1[c]
		al := p.alpha[c]
		v := sq1[c]*w1[c] + sq0[c]*w0[c] + 2*al*gap - al*al
		dA, dB, dAl := -2*(mu1[c]-p.a[c]), -2*(mu0[c]-p.b[c]), 2*gap-2*al
		// As in compute: a finite value and finite scalar derivatives bound every ∂F/∂z.
		if !finite(v, dA, dB, dAl) {
			return nil, nil, nil, nil, 0, check.Errorf(pkg, rocops.ErrRange,
				"the loss overflows float64 in column %d (a = %v, b = %v, alpha = %v)", c, p.a[c], p.b[c], al)
		}
		total += v
		da[c], db[c], dalpha[c] = dA*scale, dB*scale, dAl*scale
	}
	value = total / float64(k)
	if !finite(value) {
		return nil, nil, nil, nil, 0, check.Errorf(pkg, rocops.ErrRange, "the loss overflows float64: the mean over %d columns", k)
	}
	return dz, da, db, dalpha, value, nil
}
