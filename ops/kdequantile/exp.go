package kdequantile

import "math"

// expTable holds 2^(j/32) for j = 0, …, 31.
var expTable = func() (t [32]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 32)
	}
	return t
}()

// expSlice replaces each x of xs by e^x, within 2 ulp of math.Exp(x) and about twice as fast
// (the passes over a batch are bound by their exponentials, and a loop over a slice inlines
// what a call per element cannot). It is Tang's table-driven method (ACM TOMS 15(2), 1989):
// with x = (32m + j)·ln2/32 + r, |r| ≤ ln2/64,
//
//	e^x = 2^m · 2^(j/32) · e^r,   e^r − 1 = r + r²/2! + … + r⁶/6! + O(r⁷/7!),
//
// the truncation error r⁷/7! being below 4e-18 relative. ln2/32 is split in two so that
// (32m + j) times its leading part is exact. Outside [−700, 700], where 2^m would leave the
// normal range, it calls math.Exp (which returns 0 for −Inf).
func expSlice(xs []float64) {
	const (
		toSteps = 32 / math.Ln2
		ln2Hi   = 0x1.62e42fee00000p-1 / 32 // ln 2 to 32 bits, trailing zeros: n·ln2Hi is exact
		ln2Lo   = 0x1.a39ef35793c76p-33 / 32
		round   = 0x1.8p52 // adding it rounds to an integer
	)
	for i, x := range xs {
		if !(x >= -700 && x <= 700) {
			xs[i] = math.Exp(x)
			continue
		}
		n := (x*toSteps + round) - round // 32m + j, an integer
		r := (x - n*ln2Hi) - n*ln2Lo
		p := r + r*r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720)))))
		k := int64(n)
		t := expTable[k&31]
		xs[i] = math.Float64frombits(uint64(k>>5+1023)<<52) * (t + t*p)
	}
}
