package kdequantile

import (
	"math"

	"github.com/rocops/rocops/internal/compensated"
	"github.com/rocops/rocops/internal/floats"
)

// The τ solver is derived, with the error bound that lets it stop early, in
// docs/kde-quantile.md ("The threshold solver"); that is its one description. The names here:
// φ(τ) = Σ_{j∈B0} σ(z_j) − |B0|·(1 − α) with z_j = v0·(τ − f_j), evaluated by evalPhi as an
// exact count plus tail sums; D1, D2, D3 (phiValue.d1…d3) its derivatives in units of z; u a
// step in units of z; s_b (phiSums.scale) the smallest |z_j| of a block, whose exponentials
// are stored as e^{s_b − |z_j|} ≤ 1; phiValue.step the cubic model's step and the bound R on
// φ after it; phiRescaled the pass that rescales the previous pass's exponentials by e^{∓u}.

// maxPasses bounds the passes of the solver. Ordinary batches take 2; bisection shrinks any
// bracket to adjacent floats in at most 64 halvings, and the safeguard interleaves at most
// one model step between two of them.
const maxPasses = 200

// epsilon is the float64 machine epsilon 2⁻⁵².
const epsilon = 0x1p-52

// root is the solver's result.
type root struct {
	tau float64 // τ
	// at is the τ of the last pass. ws.buf holds its e^{s_b − |z_j|} and ws.phi its blocks'
	// scales s_b.
	at     float64
	minAbs float64 // the smallest |z_j| at `at`, or a lower bound within 2 of it
	passes int     // passes over the negatives
}

// phiValue is e^s·φ and e^s times its derivatives in z units at one τ, s the smallest scale
// s_b of the blocks.
type phiValue struct {
	phi, d1, d2, d3 float64
	tol             float64 // the rounding level of phi
	minAbs          float64 // the smallest |z_j| (a lower bound after a rescaled pass)
}

// phiSums are one block's contributions to a phiValue, multiplied by e^{scale}.
type phiSums struct {
	above          int     // negatives with z < 0
	tBelow, tAbove float64 // Σσ(−|z|) over z ≥ 0 and over z < 0
	d1, d2, d3     float64 // Σσ′(z), Σσ″(z), Σσ‴(z)
	scale          float64 // s_b: the block's exponentials are e^{s_b − |z_j|}
	minAbs         float64 // the block's smallest |z| (a lower bound after a rescaled pass)
}

// solve returns τ, starting from the empirical (1 − α)-quantile of the negatives.
func (p *problem) solve() root {
	lo, hi := p.lo, p.hi
	tau := min(max(p.quantile(), lo), hi)
	step, stepOld := hi-lo, hi-lo
	u, rescale := 0.0, false
	for pass := 1; ; pass++ {
		e := p.evalPhi(tau, u, rescale)
		r := root{tau: tau, at: tau, minAbs: e.minAbs, passes: pass}
		if math.Abs(e.phi) <= e.tol || pass == maxPasses {
			return r
		}
		if e.phi < 0 {
			lo = tau
		} else {
			hi = tau
		}
		du, bound, ok := e.step()
		next := tau + du/p.v0
		if ok && math.Abs(du) <= 1 && bound <= e.tol {
			r.tau = next
			return r
		}
		if !ok || !(next > lo && next < hi) || math.Abs(next-tau) > math.Abs(stepOld)/2 {
			next = midpoint(lo, hi)
			if next == lo || next == hi {
				return r // the bracket is two adjacent floats
			}
		}
		stepOld, step = step, next-tau
		// A short step rescales this pass's exponentials instead of recomputing them, once:
		// the next pass computes them afresh, so rounding cannot build up.
		u, rescale = p.v0*(next-tau), !rescale && math.Abs(p.v0*(next-tau)) <= 1
		tau = next
	}
}

// step returns the step u (in z units) to the root of the cubic model P of φ, the bound R on
// φ after it, and whether the step is defined.
func (e phiValue) step() (u, bound float64, ok bool) {
	if !(e.d1 > 0) {
		return 0, 0, false
	}
	// Start from the root of the quadratic model nearest to zero (Newton's step if it has
	// none) and refine it on the cubic.
	if disc := e.d1*e.d1 - 2*e.d2*e.phi; disc >= 0 {
		u = -2 * e.phi / (e.d1 + math.Sqrt(disc))
	} else {
		u = -e.phi / e.d1
	}
	model := func(u float64) (p, dp float64) {
		return e.phi + u*(e.d1+u*(e.d2/2+u*e.d3/6)), e.d1 + u*(e.d2+u*e.d3/2)
	}
	for range 3 {
		if p, dp := model(u); dp > 0 {
			u -= p / dp
		}
	}
	p, _ := model(u)
	au := math.Abs(u)
	bound = math.Abs(p) + e.d1*math.Exp(au)*au*au*au*au/12
	return u, bound, !math.IsNaN(u) && !math.IsInf(u, 0)
}

// midpoint returns a point strictly between lo and hi if there is one, else lo or hi. Across
// many binades it halves the exponent rather than the value, so any bracket shrinks to two
// adjacent floats within 64 halvings.
func midpoint(lo, hi float64) float64 {
	if lo >= 0 && hi > 4*lo || hi <= 0 && lo < 4*hi {
		a, b := floats.OrderKey(lo), floats.OrderKey(hi)
		return floats.FromOrderKey(a/2 + b/2 + (a%2+b%2)/2)
	}
	return lo/2 + hi/2
}

// quantile returns the empirical (1 − α)-quantile of the negatives, the smallest negative
// score with at least (1 − α)·|B0| negatives at or below it, found by selection in ws.buf.
func (p *problem) quantile() float64 {
	buf := p.ws.buf[:0]
	for b, blk := range p.ws.in {
		lo := b * blockSize
		buf = append(buf, p.neg[lo:lo+blk.n0]...)
	}
	k := int(math.Ceil((1-p.cfg.Alpha)*float64(p.n0))) - 1
	k = min(max(k, 0), p.n0-1)
	selectK(buf, k)
	return buf[k]
}

// evalPhi makes one pass over the negatives at tau, leaving e^{s_b − |z_j|} in ws.buf and the
// blocks' sums in ws.phi. With rescale, ws.buf and ws.phi hold the previous pass at
// tau − u/v0, and its exponentials are rescaled by e^{∓u} instead of recomputed.
func (p *problem) evalPhi(tau, u float64, rescale bool) phiValue {
	neg, store, v0 := p.neg, p.ws.buf, p.v0
	sums := perBlock(p, &p.ws.phi)
	p.eachNeg(func(b, lo, hi int) {
		if rescale {
			sums[b] = phiRescaled(neg[lo:hi], store[lo:hi], v0, tau, u, sums[b])
		} else {
			sums[b] = phiBlock(neg[lo:hi], store[lo:hi], v0, tau)
		}
	})
	v := phiValue{minAbs: math.Inf(1)}
	scale := math.Inf(1)
	for _, s := range sums {
		v.minAbs = min(v.minAbs, s.minAbs)
		scale = min(scale, s.scale)
	}
	var above int
	var tBelow, tAbove compensated.Sum
	for _, s := range sums {
		above += s.above
		if math.IsInf(s.scale, 1) {
			continue // no negatives, or every |z| of the block overflowed: nothing to add
		}
		c := math.Exp(scale - s.scale) // from e^{s_b} to e^s
		tBelow.Add(c * s.tBelow)
		tAbove.Add(c * s.tAbove)
		v.d1 += c * s.d1
		v.d2 += c * s.d2
		v.d3 += c * s.d3
	}
	// c0 = |B0|·α − a, multiplied by e^s; 0 stays 0 even when e^s overflows.
	c0 := float64(p.n0)*p.cfg.Alpha - float64(above)
	if c0 != 0 {
		c0 *= math.Exp(scale)
	}
	tb, ta := tBelow.Value(), tAbove.Value()
	v.phi = (c0 - tb) + ta
	v.tol = 4 * epsilon * (math.Abs(c0) + tb + ta)
	if math.IsInf(c0, 0) {
		// Far from the root at float64 scale: only the sign of φ is known.
		v.phi, v.tol = c0, 0
	}
	return v
}

// phiBlock returns one block's phiSums with s_b its smallest |z|, leaving e^{s_b − |z_j|} in
// store.
func phiBlock(neg, store []float64, v0, tau float64) phiSums {
	store = store[:len(neg)]
	m := math.Inf(1)
	for j, f := range neg {
		az := math.Abs(v0 * (tau - f))
		store[j] = az
		if az < m {
			m = az
		}
	}
	for j, az := range store {
		store[j] = math.Exp(m - az)
	}
	if math.IsInf(m, 1) {
		clear(store) // every |z| of the block overflowed: it adds nothing but its count
	}
	s := accumulate(neg, store, tau, m)
	s.minAbs = m
	return s
}

// phiRescaled is phiBlock at tau from the block's previous pass prev at tau − u/v0, whose
// exponentials e^{s_b − |z_j|} are in store: since |z_j| changes by exactly ±u unless z_j
// changes sign, they are multiplied by e^{∓u}, and only those within |u| of zero are
// recomputed. Exponentials that underflowed to 0 stay 0, and minAbs becomes the lower bound
// prev.minAbs − |u|.
func phiRescaled(neg, store []float64, v0, tau, u float64, prev phiSums) phiSums {
	store = store[:len(neg)]
	au := math.Abs(u)
	cPos, cNeg := math.Exp(-u), math.Exp(u)
	redo := false
	for j, f := range neg {
		z := v0 * (tau - f)
		c := cNeg
		if z >= 0 {
			c = cPos
		}
		if e := store[j]; math.Abs(z) > au || e == 0 {
			store[j] = e * c
		} else {
			store[j] = -1 // may have changed sign
			redo = true
		}
	}
	if redo {
		for j, e := range store {
			if e < 0 {
				store[j] = math.Exp(prev.scale - math.Abs(v0*(tau-neg[j])))
			}
		}
	}
	s := accumulate(neg, store, tau, prev.scale)
	s.minAbs = max(prev.minAbs-au, 0)
	return s
}

// accumulate returns the sums of a block whose exponentials e^{scale − |z_j|} are in store
// (the caller sets minAbs). With q = 1/(1 + e^{−|z|}) and everything
// multiplied by e^{scale}: σ(−|z|) = e·q, σ′ = e·q², |σ″| = σ′·(2q − 1), and σ‴ = σ′ − 6σ′²
// follows from the sum of σ′².
func accumulate(neg, store []float64, tau, scale float64) phiSums {
	var above int
	var tBelow, tAbove, d1, d2, d1d1 float64
	down := math.Exp(-scale)
	for j, e := range store {
		q := 1 / (1 + e*down)
		t := e * q          // σ(−|z|)
		d := t * q          // σ′(z)
		dd := d * (2*q - 1) // |σ″(z)|; σ″ is odd, negative for z > 0
		d1 += d
		d1d1 += d * d
		if tau >= neg[j] { // z ≥ 0
			tBelow += t
			d2 -= dd
		} else {
			above++
			tAbove += t
			d2 += dd
		}
	}
	return phiSums{above: above, tBelow: tBelow, tAbove: tAbove,
		d1: d1, d2: d2, d3: d1 - 6*down*d1d1, scale: scale}
}
