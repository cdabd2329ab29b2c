//go:build !amd64 || purego

package nn

// haveKernels is false without the amd64 assembly: gemm32 is not used.
const haveKernels = false

func kern4x16(k int, a *float32, sa, ta int, b *float32, ldb int, c *float32, ldc int) {
	panic("nn: no float32 kernel on this platform")
}

func kern1x16(k int, a *float32, sa int, b *float32, ldb int, c *float32) {
	panic("nn: no float32 kernel on this platform")
}
