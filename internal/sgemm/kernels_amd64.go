//go:build !purego

package sgemm

// The AVX2 kernels, in kernels_amd64.s. a, b and c point at the first element of their
// tile; the strides are in elements.

//go:noescape
func kern4x16(k int, a *float32, sa, ta int, b *float32, ldb int, c *float32, ldc int)

//go:noescape
func kern1x16(k int, a *float32, sa int, b *float32, ldb int, c *float32)

//go:noescape
func kdot(n int, a, x *float32) float32

//go:noescape
func kern4x8(k int, a *float64, sa, ta int, b *float64, ldb int, c *float64, ldc int)

//go:noescape
func kern1x8(k int, a *float64, sa int, b *float64, ldb int, c *float64)

//go:noescape
func ddot(n int, a, x *float64) float64

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// haveKernels reports whether the processor and the operating system support AVX2 and FMA
// (CPUID leaf 1: FMA, OSXSAVE and AVX; XCR0: the XMM and YMM state saved; leaf 7: AVX2).
var haveKernels = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx2 = 1 << 5
	return ebx7&avx2 != 0
}()
