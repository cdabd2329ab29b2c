//go:build !purego

package relu

// The AVX2 kernels, in kernels_amd64.s: n, a multiple of the lanes (4 for float64, 8 for
// float32), elements from the pointers on, reporting whether one was ±Inf or NaN.

//go:noescape
func forward64(n int, h, z *uint64) bool

//go:noescape
func forward32(n int, h, z *uint32) bool

//go:noescape
func backward64(n int, d, z, dh *uint64) bool

//go:noescape
func backward32(n int, d, z, dh *uint32) bool
