//go:build !amd64 || purego

package relu

// Without the amd64 assembly internal/sgemm.Available is false and the kernels are never
// called.

func forward64(n int, h, z *uint64) bool { panic("relu: no kernel on this platform") }

func forward32(n int, h, z *uint32) bool { panic("relu: no kernel on this platform") }

func backward64(n int, d, z, dh *uint64) bool { panic("relu: no kernel on this platform") }

func backward32(n int, d, z, dh *uint32) bool { panic("relu: no kernel on this platform") }
