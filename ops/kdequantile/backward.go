package kdequantile

import (
	"math"

	"github.com/rocops/rocops/internal/compensated"
)

// blockSums are one block's sums in a pass over one class.
type blockSums struct{ a, b float64 }

// weights computes the unnormalised weights r_j = exp(ℓ_j − ℓ_ref) of the negatives into
// ws.buf, from the solver's last pass, and returns 1/Σr_j, so that w_j = r_j/Σr_j = ∂τ/∂f_j.
// This is the log-domain softmax of docs/kde-quantile.md
//
//	w_j = exp(ℓ_j − logsumexp_k ℓ_k),   ℓ(a) = −a − 2·log(1 + e^{−a}),  ℓ_j = ℓ(|z_j|),
//
// ℓ being the logarithm of the kernel derivative σ′, shifted by ℓ_ref with ref a lower bound on
// the smallest |z_j| (so that every ℓ_j − ℓ_ref ≤ 0 and the largest is close to 0). Each term
// is the exponential of the linear part of ℓ_j − ℓ_ref times that of its bounded part,
//
//	r_j = exp(ref − |z_j|) · ((1 + e^{−ref}) / (1 + e^{−|z_j|}))²,
//
// the squared ratio lying in [1, 4]: nothing underflows unless w_j itself is below the
// smallest float64, and σ(1 − σ), which is zero in float64 once |z| ≳ 37, is never formed.
//
// exp(ref − |z_j|) is the last pass's e^{s_b − |z_j|} times e^{ref − s_b}, rescaled by e^{∓u}
// for the solver's final step u = v0·(τ − r.at) (|z_j| changes by exactly ±u unless z_j
// changes sign); it is recomputed only where z_j is within |u| of zero or the pass stored 0.
func (p *problem) weights(r root) float64 {
	neg, buf, blocks, v0, tau := p.neg, p.ws.buf, p.ws.phi, p.v0, r.tau
	u := v0 * (tau - r.at)
	au := math.Abs(u)
	ref := max(r.minAbs-au, 0)
	if math.IsInf(ref, 1) {
		// Every |z_j| overflowed: the weights are not defined; share the slope equally.
		for j := range buf {
			buf[j] = 1
		}
		return 1 / float64(p.n0)
	}
	eRef := math.Exp(-ref)
	cPos, cNeg := math.Exp(-u), math.Exp(u)
	sums := perBlock(p, &p.ws.sums)
	p.eachNeg(func(b, lo, hi int) {
		toRef := math.Exp(ref - blocks[b].scale)
		x, f := buf[lo:hi], neg[lo:hi]
		redo := false
		for j, e := range x {
			z := v0 * (tau - f[j])
			c := cNeg
			if z >= 0 {
				c = cPos
			}
			x[j] = e * c * toRef // exp(ref − |z_j|)
			if e == 0 || math.Abs(z) <= au {
				x[j] = -1
				redo = true
			}
		}
		if redo {
			for j, xj := range x {
				if xj < 0 {
					x[j] = math.Exp(ref - math.Abs(v0*(tau-f[j])))
				}
			}
		}
		sum := 0.0
		for j, xj := range x {
			q := (1 + eRef) / (1 + xj*eRef)
			x[j] = xj * q * q
			sum += x[j]
		}
		sums[b].a = sum
	})
	var total compensated.Sum
	for _, s := range sums {
		total.Add(s.a)
	}
	return 1 / total.Value()
}

// positives returns L = F̂_1(τ) and dF̂_1/dτ = (v1/|B1|)·Σσ′(τ − f_j); with grad it also
// overwrites p.pos with ∂L/∂f_i = −v1·σ′(z_i)/|B1|, z_i = v1·(τ − f_i). With Config.Tail
// every positive below τ (z_i > 0) has the term 1/2 + z_i/4 in place of σ(z_i), and 1/4 in
// place of σ′(z_i).
func (p *problem) positives(tau float64, grad bool) (loss, slope float64) {
	pos, v1, tail := p.pos, p.v1, p.cfg.Tail
	n1 := float64(p.n1)
	c := -v1 / n1
	sums := perBlock(p, &p.ws.sums)
	buf, in := p.ws.buf, p.ws.in
	p.eachPos(func(b, lo, hi int) {
		// Scratch after the block's negatives in buf, which hold the solver's last pass.
		e := buf[lo+in[b].n0:][:hi-lo]
		for j, f := range pos[lo:hi] {
			e[j] = math.Exp(-math.Abs(v1 * (tau - f)))
		}
		var s blockSums
		for j, f := range pos[lo:hi] {
			q := 1 / (1 + e[j])
			sig := q // σ(z)
			if tau < f {
				sig = e[j] * q
			}
			d := e[j] * q * q // σ′(z)
			if tail && tau > f {
				sig, d = 0.5+v1*(tau-f)/4, 0.25 // the tangent of σ at 0
			}
			s.a += sig
			s.b += d
			if grad {
				pos[lo+j] = c * d
			}
		}
		sums[b] = s
	})
	var l, d compensated.Sum
	for _, s := range sums {
		l.Add(s.a)
		d.Add(s.b)
	}
	return l.Value() / n1, d.Value() / n1 * v1
}

// scatter writes the per-class results back in input order, times factor: negFactor times
// ws.buf for the negatives and, if withPos, p.pos for the positives (else they stay zero).
// labels are the input's; a mirrored problem's positives are the input's negatives.
func (p *problem) scatter(labels, out []float64, factor, negFactor float64, withPos bool) {
	neg, pos := p.ws.buf, p.pos
	posLabel := 1.0
	if p.mirror {
		posLabel = 0
	}
	negFactor *= factor
	forBlocks(p.n, func(_, lo, hi int) {
		i0, i1 := lo, lo
		for i := lo; i < hi; i++ {
			if labels[i] == posLabel {
				if withPos {
					out[i] = factor * pos[i1]
				}
				i1++
			} else {
				out[i] = negFactor * neg[i0]
				i0++
			}
		}
	})
}
