package aucm

import (
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Evaluate returns the AUC-M loss of the raw scores z with 0/1 labels y at the auxiliary
// variables a, b and α,
//
//	f = E₊[(h − a)²] + E₋[(h − b)²] + 2α(m + E₋[h] − E₊[h]) − α²,   h_k = σ(z_k),
//
// with E₊, E₋ the means over the positives B1 and the negatives B0, σ(z) = 1/(1 + e^{−z}) and
// m the margin of cfg (see the package documentation). It costs two passes over the batch:
// one to check it, one for the four class sums.
//
// Errors: the batch must be non-empty (rocops.ErrEmpty), scores and labels of one length
// (rocops.ErrLength), scores finite (rocops.ErrNonFinite), labels 0 or 1 (rocops.ErrLabel) with both classes
// present (rocops.ErrOneClass); a, b and α must be finite and the margin finite and not
// negative (rocops.ErrConfig, naming the setting). A result beyond float64 is rocops.ErrRange,
// which only auxiliary variables of about 1e154 or more (squared beyond float64) can produce.
func Evaluate(scores, labels []float64, a, b, alpha float64, cfg Config) (float64, error) {
	v, _, err := compute(scores, labels, aux{a, b, alpha}, cfg, nil)
	return v, err
}

// Gradient returns the derivatives of the loss f of [Evaluate] with respect to every raw
// score, to a, to b and to α, and the value f, from the same two passes:
//
//	∂f/∂z_i = (2/|B1|)(h_i − a − α)·σ′(z_i)   for i ∈ B1,
//	∂f/∂z_j = (2/|B0|)(h_j − b + α)·σ′(z_j)   for j ∈ B0,
//	∂f/∂a = −2(E₊[h] − a),   ∂f/∂b = −2(E₋[h] − b),   ∂f/∂α = 2(m + E₋[h] − E₊[h]) − 2α,
//
// with σ′(z) = σ(z)·σ(−z), computed from e^{−|z|} so that it does not round to 0 before it
// underflows. Errors are those of Evaluate.
func Gradient(scores, labels []float64, a, b, alpha float64, cfg Config) (
	dz []float64, da, db, dalpha, value float64, err error) {
	dz = make([]float64, len(scores))
	v, d, err := compute(scores, labels, aux{a, b, alpha}, cfg, dz)
	if err != nil {
		return nil, 0, 0, 0, 0, err
	}
	return dz, d.a, d.b, d.alpha, v, nil
}

// Optimum returns the saddle value of the loss for fixed scores, the minimum over a and b of
// the maximum over α ≥ 0:
//
//	min_{a,b} max_{α≥0} f = Var₊(h) + Var₋(h) + (m − (E₊[h] − E₋[h]))₊²,
//
// with Var₊ and Var₋ the population variances (divided by |B1| and |B0|) of h = σ(z) within
// each class and (u)₊ = max(u, 0). f separates into a convex quadratic in a (minimised at
// a = E₊[h], leaving Var₊), one in b (at b = E₋[h]) and the concave 2α(m − Δ) − α² with
// Δ = E₊[h] − E₋[h] (maximised over α ≥ 0 at α = (m − Δ)₊, giving (m − Δ)₊²), so the min and
// max may be taken in either order. Three passes: the check, the class means, the variances
// around them. Errors are those of Evaluate (which a, b and α are not part of).
func Optimum(scores, labels []float64, cfg Config) (float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	m := cfg.margin()
	n1, n0, err := check.Batch(pkg, scores, labels)
	if err != nil {
		return 0, err
	}
	var mu [2]float64
	for k, z := range scores {
		h, _ := sigmoid(z)
		mu[int(labels[k])] += h
	}
	mu[1] /= float64(n1)
	mu[0] /= float64(n0)
	var v [2]float64
	for k, z := range scores {
		h, _ := sigmoid(z)
		c := int(labels[k])
		v[c] += (h - mu[c]) * (h - mu[c])
	}
	gap := max(m-(mu[1]-mu[0]), 0)
	return v[1]/float64(n1) + v[0]/float64(n0) + gap*gap, nil
}

// aux holds a, b and α, or their derivatives.
type aux struct{ a, b, alpha float64 }

// compute validates and returns f and its derivatives with respect to a, b and α; when dz
// is not nil (one element per score) it stores ∂f/∂z_k in dz[k]. After the check, one pass
// computes every h_k and σ′(z_k) once, sums (h − a)², (h − b)² and h per class, and writes
// ∂f/∂z_k, whose factors 2/|B_c| are known from the check: two reads of the batch and one
// write of dz in all.
func compute(scores, labels []float64, p aux, cfg Config, dz []float64) (float64, aux, error) {
	if err := cfg.Validate(); err != nil {
		return 0, aux{}, err
	}
	m := cfg.margin()
	for _, x := range []float64{p.a, p.b, p.alpha} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, aux{}, check.Errorf(pkg, rocops.ErrConfig, "a = %v, b = %v, alpha = %v, want finite values", p.a, p.b, p.alpha)
		}
	}
	n1, n0, err := check.Batch(pkg, scores, labels)
	if err != nil {
		return 0, aux{}, err
	}
	w1, w0 := 1/float64(n1), 1/float64(n0)
	var sq1, sq0, mu1, mu0 float64
	for k, z := range scores {
		h, dh := sigmoid(z)
		if labels[k] == 1 {
			e := h - p.a
			sq1 += e * e
			mu1 += h
			if dz != nil {
				dz[k] = 2 * w1 * (e - p.alpha) * dh
			}
		} else {
			e := h - p.b
			sq0 += e * e
			mu0 += h
			if dz != nil {
				dz[k] = 2 * w0 * (e + p.alpha) * dh
			}
		}
	}
	mu1 *= w1
	mu0 *= w0
	gap := m + mu0 - mu1
	value := sq1*w1 + sq0*w0 + 2*p.alpha*gap - p.alpha*p.alpha
	d := aux{a: -2 * (mu1 - p.a), b: -2 * (mu0 - p.b), alpha: 2*gap - 2*p.alpha}
	// A finite value bounds every derivative: it needs each (h − a)², (h − b)² and α² finite,
	// so |h − a|, |h − b| and |α| below 1.4e154, and then every |∂f/∂z| ≤ 2·2.8e154·¼ is
	// finite too; checking the scalars spares a third pass over dz.
	if !finite(value, d.a, d.b, d.alpha) {
		return 0, aux{}, check.Errorf(pkg, rocops.ErrRange, "the loss overflows float64 (a = %v, b = %v, alpha = %v)", p.a, p.b, p.alpha)
	}
	return value, d, nil
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
