package aucm

import (
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Evaluate returns the AUC-M loss of the raw scores z with their labels at the auxiliary
// variables a, b and α, one of each per output column of cfg.Task (see the package
// documentation). For a binary task (one column: a, b and alpha of one element each)
//
//	f = E₊[(h − a)²] + E₋[(h − b)²] + 2α(m + E₋[h] − E₊[h]) − α²,   h_k = σ(z_k),
//
// with E₊, E₋ the means over the positives B1 and the negatives B0, σ(z) = 1/(1 + e^{−z}) and
// m the margin of cfg. For a task of k classes or labels the scores are row-major n×k
// (z_ic = scores[i·k + c]) and the loss is the one-vs-rest mean LibAUC's MultiLabelAUCMLoss
// takes (libauc/losses/auc.py),
//
//	F = (1/k) Σ_c f(z_·c, y_·c; a_c, b_c, α_c),
//
// each column c scored through its own sigmoid h_ic = σ(z_ic) against its own 0/1 labels y_·c:
// the indicator of class c for Classes(k) (labels are n class indices), label column c for
// Labels(k) (labels are the row-major n×k 0/1 indicator). Binary data is the case k = 1. It
// costs two passes over the batch: one to check it, one for the columns' sums.
//
// Errors: the batch must be non-empty (rocops.ErrEmpty), scores and labels of the task's
// lengths, and a, b and alpha of K = cfg.Task.K() elements each (rocops.ErrLength), scores finite
// (rocops.ErrNonFinite), labels 0 or 1 or class indices in 0…k−1 (rocops.ErrLabel), every column
// with both classes (rocops.ErrOneClass, naming the class or column); a, b and α must be finite
// and the margin finite and not negative (rocops.ErrConfig, naming the setting). A result beyond
// float64 is rocops.ErrRange, which only auxiliary variables of about 1e154 or more (squared
// beyond float64) can produce.
func Evaluate(scores, labels, a, b, alpha []float64, cfg Config) (float64, error) {
	v, _, err := compute(scores, labels, aux{a: a, b: b, alpha: alpha}, cfg, false)
	return v, err
}

// Gradient returns the derivatives of the loss f of [Evaluate] with respect to every raw
// score, to a, to b and to α, and the value f, from the same two passes. For one column,
//
//	∂f/∂z_i = (2/|B1|)(h_i − a − α)·σ′(z_i)   for i ∈ B1,
//	∂f/∂z_j = (2/|B0|)(h_j − b + α)·σ′(z_j)   for j ∈ B0,
//	∂f/∂a = −2(E₊[h] − a),   ∂f/∂b = −2(E₋[h] − b),   ∂f/∂α = 2(m + E₋[h] − E₊[h]) − 2α,
//
// with σ′(z) = σ(z)·σ(−z), computed from e^{−|z|} so that it does not round to 0 before it
// underflows. For k columns the derivatives are those of each column times 1/k:
// dz[i·k + c] = ∂F/∂z_ic, da[c] = ∂F/∂a_c, db[c] = ∂F/∂b_c, dalpha[c] = ∂F/∂α_c. Column c's
// sums run over the rows in order, as the binary loss's over column c alone, so value and
// derivatives equal (1/k) times k binary calls on the columns, to the bit. Errors are those of
// Evaluate.
func Gradient(scores, labels, a, b, alpha []float64, cfg Config) (dz, da, db, dalpha []float64, value float64, err error) {
	v, d, err := compute(scores, labels, aux{a: a, b: b, alpha: alpha}, cfg, true)
	if err != nil {
		return nil, nil, nil, nil, 0, err
	}
	return d.z, d.a, d.b, d.alpha, v, nil
}

// Optimum returns the saddle value of the loss for fixed scores, the minimum over a and b of
// the maximum over α ≥ 0. For one column
//
//	min_{a,b} max_{α≥0} f = Var₊(h) + Var₋(h) + (m − (E₊[h] − E₋[h]))₊²,
//
// with Var₊ and Var₋ the population variances (divided by |B1| and |B0|) of h = σ(z) within
// each class and (u)₊ = max(u, 0). f separates into a convex quadratic in a (minimised at
// a = E₊[h], leaving Var₊), one in b (at b = E₋[h]) and the concave 2α(m − Δ) − α² with
// Δ = E₊[h] − E₋[h] (maximised over α ≥ 0 at α = (m − Δ)₊, giving (m − Δ)₊²), so the min and
// max may be taken in either order. For k columns, whose variables are separate, it is the mean
// of the columns' saddle values. Three passes: the check, the class means, the variances around
// them. Errors are those of Evaluate (which a, b and α are not part of).
func Optimum(scores, labels []float64, cfg Config) (float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	b, err := newBatch(scores, labels, cfg.Task)
	if err != nil {
		return 0, err
	}
	m, k := cfg.margin(), b.k
	mu1, mu0 := make([]float64, k), make([]float64, k)
	b.each(func(i, c int, z float64, pos bool) {
		h, _ := sigmoid(z)
		if pos {
			mu1[c] += h
		} else {
			mu0[c] += h
		}
	})
	for c := range k {
		mu1[c] /= float64(b.pos[c])
		mu0[c] /= float64(b.n - b.pos[c])
	}
	v1, v0 := make([]float64, k), make([]float64, k)
	b.each(func(i, c int, z float64, pos bool) {
		h, _ := sigmoid(z)
		if pos {
			v1[c] += (h - mu1[c]) * (h - mu1[c])
		} else {
			v0[c] += (h - mu0[c]) * (h - mu0[c])
		}
	})
	var total float64
	for c := range k {
		gap := max(m-(mu1[c]-mu0[c]), 0)
		total += v1[c]/float64(b.pos[c]) + v0[c]/float64(b.n-b.pos[c]) + gap*gap
	}
	return total / float64(k), nil
}

// aux holds a, b and α, one element per column, or their derivatives and, in z, the scores'.
type aux struct{ z, a, b, alpha []float64 }

// batch is a checked batch of n rows of k columns, pos[c] the positives of column c.
type batch struct {
	scores, labels []float64
	n, k           int
	pos            []int
	classes        bool // labels are class indices (Classes(k)); else 0/1, n·k of them for k > 1
}

// newBatch checks scores and labels for task t, every column with both classes.
func newBatch(scores, labels []float64, t rocops.Task) (batch, error) {
	b := batch{scores: scores, labels: labels, k: t.K(), classes: t.Kind() == rocops.Multiclass}
	if t.Kind() == rocops.Binary {
		n1, _, err := check.Batch(pkg, scores, labels)
		b.n, b.pos = len(scores), []int{n1}
		return b, err
	}
	var err error
	b.pos, err = check.ForTask(pkg, t, scores, labels, true)
	b.n = len(scores) / b.k
	return b, err
}

// positive reports whether row i is a positive of column c.
func (b *batch) positive(i, c int) bool {
	if b.classes {
		return b.labels[i] == float64(c)
	}
	return b.labels[i*b.k+c] == 1
}

// each calls fn for every score in input order, row by row: row i, column c, the score z and
// whether the row is a positive of the column.
func (b *batch) each(fn func(i, c int, z float64, pos bool)) {
	for i := range b.n {
		for c, z := range b.scores[i*b.k : i*b.k+b.k] {
			fn(i, c, z, b.positive(i, c))
		}
	}
}

// compute validates and returns F and, with grad, its derivatives. After the check one pass
// over each column (columnSums) computes every h and σ′(z) once, sums (h − a)², (h − b)² and h
// per class, and writes ∂F/∂z, whose factors 2/|B_c| are known from the check: two reads of
// the batch and one write of dz in all. Binary data is one column, whose every factor 1/k is
// 1: its value and derivatives are the one-column formulas of Gradient, bit for bit.
func compute(scores, labels []float64, p aux, cfg Config, grad bool) (float64, aux, error) {
	if err := cfg.Validate(); err != nil {
		return 0, aux{}, err
	}
	if err := p.check(cfg.Task); err != nil {
		return 0, aux{}, err
	}
	b, err := newBatch(scores, labels, cfg.Task)
	if err != nil {
		return 0, aux{}, err
	}
	k := b.k
	m, n, scale := cfg.margin(), b.n, 1/float64(k)
	var d aux
	if grad {
		d = aux{z: make([]float64, len(scores)), a: make([]float64, k), b: make([]float64, k), alpha: make([]float64, k)}
	}
	var total float64
	for c := range k {
		np := b.pos[c]
		w1, w0 := 1/float64(np), 1/float64(n-np)
		pa, pb, al := p.a[c], p.b[c], p.alpha[c]
		sq1, sq0, mu1, mu0 := b.columnSums(c, pa, pb, al, w1, w0, scale, d.z)
		mu1 *= w1
		mu0 *= w0
		gap := m + mu0 - mu1
		v := sq1*w1 + sq0*w0 + 2*al*gap - al*al
		dA, dB, dAl := -2*(mu1-pa), -2*(mu0-pb), 2*gap-2*al
		// A finite value bounds every derivative: it needs each (h − a)², (h − b)² and α² finite,
		// so |h − a|, |h − b| and |α| below 1.4e154, and then every |∂f/∂z| ≤ 2·2.8e154·¼ is
		// finite too; checking the scalars spares another pass over dz.
		if !finite(v, dA, dB, dAl) {
			return 0, aux{}, check.Errorf(pkg, rocops.ErrRange,
				"the loss overflows float64 in column %d (a = %v, b = %v, alpha = %v)", c, pa, pb, al)
		}
		total += v
		if grad {
			d.a[c], d.b[c], d.alpha[c] = dA*scale, dB*scale, dAl*scale
		}
	}
	value := total / float64(k)
	if !finite(value) {
		return 0, aux{}, check.Errorf(pkg, rocops.ErrRange, "the loss overflows float64: the mean over %d columns", k)
	}
	return value, d, nil
}

// check reports auxiliary variables a, b and α that task t cannot take: other than one of
// each per column (rocops.ErrLength), or not finite (rocops.ErrConfig, naming the element).
func (p aux) check(t rocops.Task) error {
	k := t.K()
	for _, s := range []struct {
		name string
		v    []float64
	}{{"a", p.a}, {"b", p.b}, {"alpha", p.alpha}} {
		if len(s.v) != k {
			return check.Errorf(pkg, rocops.ErrLength, "%s has %d elements for the %d columns of a %v task", s.name, len(s.v), k, t)
		}
		for c, x := range s.v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return check.Errorf(pkg, rocops.ErrConfig, "%s[%d] = %v, want a finite value", s.name, c, x)
			}
		}
	}
	return nil
}

// columnSums is the pass over column c of the batch, its rows in order, at the column's a, b
// and α (pa, pb and al). With h = σ(z) it returns sq1 = Σ(h − a)² and mu1 = Σh over the
// column's positives B1, sq0 = Σ(h − b)² and mu0 = Σh over its negatives B0, and when dz is
// not nil it writes ∂F/∂z of every score z = scores[i·k + c] into dz[i·k + c]:
// s·2w₁(h − a − α)·σ′(z) for a positive and s·2w₀(h − b + α)·σ′(z) for a negative, with the
// column's w₁ = 1/|B1| and w₀ = 1/|B0| (w1, w0) and s = 1/k (scale).
func (b *batch) columnSums(c int, pa, pb, al, w1, w0, scale float64, dz []float64) (sq1, sq0, mu1, mu0 float64) {
	scores, labels, classes, k, cf := b.scores, b.labels, b.classes, b.k, float64(c)
	for i := range b.n {
		j := i*k + c
		h, dh := sigmoid(scores[j])
		var pos bool
		if classes {
			pos = labels[i] == cf
		} else {
			pos = labels[j] == 1
		}
		var g float64
		if pos {
			e := h - pa
			sq1 += e * e
			mu1 += h
			g = 2 * w1 * (e - al) * dh
		} else {
			e := h - pb
			sq0 += e * e
			mu0 += h
			g = 2 * w0 * (e + al) * dh
		}
		if dz != nil {
			dz[j] = g * scale
		}
	}
	return sq1, sq0, mu1, mu0
}

// sigmoid returns h = σ(z) = 1/(1 + e^{−z}) and σ′(z) = σ(z)·σ(−z) from one exponential
// e = e^{−|z|}: σ(z) is 1/(1 + e) for z ≥ 0 and e/(1 + e) for z < 0, and σ′(z) = e/(1 + e)²
// for either sign.
func sigmoid(z float64) (h, dh float64) {
	e := math.Exp(-math.Abs(z))
	r := 1 / (1 + e)
	if z >= 0 {
		h = r
	} else {
		h = e * r
	}
	return h, e * r * r
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
