//go:build !amd64 || purego

package sgemm

// haveKernels is false without the amd64 assembly: New returns its fallback.
const haveKernels = false

func kern4x16(k int, a *float32, sa, ta int, b *float32, ldb int, c *float32, ldc int) {
	panic("sgemm: no kernel on this platform")
}

func kern1x16(k int, a *float32, sa int, b *float32, ldb int, c *float32) {
	panic("sgemm: no kernel on this platform")
}

func kdot(n int, a, x *float32) float32 {
	panic("sgemm: no kernel on this platform")
}

func kern4x8(k int, a *float64, sa, ta int, b *float64, ldb int, c *float64, ldc int) {
	panic("sgemm: no kernel on this platform")
}

func kern1x8(k int, a *float64, sa int, b *float64, ldb int, c *float64) {
	panic("sgemm: no kernel on this platform")
}

func ddot(n int, a, x *float64) float64 {
	panic("sgemm: no kernel on this platform")
}
