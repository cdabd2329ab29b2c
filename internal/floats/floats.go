// Package floats holds the module's float32/float64 helpers: the element constraint of its
// generic code, conversions between the graph's dtype and the float64 the kernels compute in,
// and an order-preserving integer key of a float64 for radix sorts and bisection on bits.
package floats

import "math"

// Float is the set of element types the module's graphs use.
type Float interface{ ~float32 | ~float64 }

// To64 returns xs as float64. A []float64 is returned as is, not copied: callers treat it as
// read-only.
func To64[T Float](xs []T) []float64 {
	if f, ok := any(xs).([]float64); ok {
		return f
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// Fits reports whether x, finite or not, keeps its finiteness in T: a finite float64 fits in
// float32 unless it rounds to ±Inf there (beyond about 3.4e38). It is the module's one test of
// float32's range.
func Fits[T Float](x float64) bool {
	return math.IsNaN(x) || math.IsInf(x, 0) || !math.IsInf(float64(T(x)), 0)
}

// From64 returns a copy of xs in the element type T, each element rounded to nearest. It does
// not check the range: a float64 beyond float32's becomes ±Inf, so callers that narrow
// computed values check them first ([Fits]).
func From64[T Float](xs []float64) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = T(x)
	}
	return out
}

// OrderKey maps a non-NaN float64 to a uint64 of the same order: negative numbers have their
// bits inverted, the others their sign bit set, and −0 maps to the key of +0 so that the two
// tie. Keys of adjacent floats differ by one, so the mean of two keys is a float halfway
// between two floats in the order of representable numbers.
func OrderKey(x float64) uint64 {
	u := math.Float64bits(x)
	switch {
	case x == 0:
		return 1 << 63
	case u>>63 == 1:
		return ^u
	}
	return u | 1<<63
}

// FromOrderKey inverts OrderKey, giving +0 for the key of ±0.
func FromOrderKey(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}
