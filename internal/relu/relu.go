// Package relu holds the bit kernels of nn's graph ReLU: Gorgonia's Rectify, h = z·[z ≥ 0],
// and its gradient d = [z ≥ 0]·dh, formed on the IEEE 754 bits of finite values with AVX2 on
// amd64 (internal/sgemm.Available) and in Go elsewhere, the same bits either way.
//
// For a finite z, z·[z ≥ 0] is z itself where the sign bit of z is clear, and −0, the sign
// bit alone, where it is set (a negative z, or −0, whose product with 1 is −0 too): the bits
// b of z with every bit but the sign cleared when the sign is set, b &^ (s >> 1) for s the
// sign spread over the word. For a finite z and dh, [z ≥ 0]·dh is dh where z ≥ 0 (±0
// included) and ±0 with dh's sign elsewhere: dh's bits with every bit but the sign cleared
// where z is negative and not −0. ±Inf and NaN take the product itself, which the caller
// forms: the kernels report whether any value was one (their output there is not the product).
package relu

import "github.com/rocops/rocops/internal/sgemm"

const (
	sign64 = 1 << 63
	inf64  = 0x7ff0000000000000
	sign32 = 1 << 31
	inf32  = 0x7f800000
)

// Forward64 sets h[i] to the bits of z[i]·[z[i] ≥ 0] for the float64 bits z, and reports
// whether a z[i] was ±Inf or NaN (there h[i] is not the product). h holds at least len(z).
func Forward64(h, z []uint64) (special bool) {
	h = h[:len(z)]
	n := 0
	if sgemm.Available && len(z) >= 4 {
		n = len(z) &^ 3
		special = forward64(n, &h[0], &z[0])
	}
	for i := n; i < len(z); i++ {
		b := z[i]
		special = special || b&^sign64 >= inf64
		h[i] = b &^ (-(b >> 63) >> 1)
	}
	return special
}

// Forward32 is Forward64 for float32 bits.
func Forward32(h, z []uint32) (special bool) {
	h = h[:len(z)]
	n := 0
	if sgemm.Available && len(z) >= 8 {
		n = len(z) &^ 7
		special = forward32(n, &h[0], &z[0])
	}
	for i := n; i < len(z); i++ {
		b := z[i]
		special = special || b&^sign32 >= inf32
		h[i] = b &^ (-(b >> 31) >> 1)
	}
	return special
}

// Backward64 sets d[i] to the bits of [z[i] ≥ 0]·dh[i] for the float64 bits z and dh, and
// reports whether a z[i] or dh[i] was ±Inf or NaN (there d[i] is not the product). d and dh
// hold at least len(z).
func Backward64(d, z, dh []uint64) (special bool) {
	d, dh = d[:len(z)], dh[:len(z)]
	n := 0
	if sgemm.Available && len(z) >= 4 {
		n = len(z) &^ 3
		special = backward64(n, &d[0], &z[0], &dh[0])
	}
	for i := n; i < len(z); i++ {
		b, g := z[i], dh[i]
		abs := b &^ sign64
		special = special || abs >= inf64 || g&^sign64 >= inf64
		nonzero := ((abs - 1) >> 63) ^ 1
		d[i] = g &^ (-((b >> 63) & nonzero) >> 1)
	}
	return special
}

// Backward32 is Backward64 for float32 bits.
func Backward32(d, z, dh []uint32) (special bool) {
	d, dh = d[:len(z)], dh[:len(z)]
	n := 0
	if sgemm.Available && len(z) >= 8 {
		n = len(z) &^ 7
		special = backward32(n, &d[0], &z[0], &dh[0])
	}
	for i := n; i < len(z); i++ {
		b, g := z[i], dh[i]
		abs := b &^ sign32
		special = special || abs >= inf32 || g&^sign32 >= inf32
		nonzero := ((abs - 1) >> 31) ^ 1
		d[i] = g &^ (-((b >> 31) & nonzero) >> 1)
	}
	return special
}
