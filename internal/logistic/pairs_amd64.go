//go:build !purego

package logistic

import "github.com/rocops/rocops/internal/sgemm"

// haveKernel reports whether pairLanes runs: the processor check of internal/sgemm (AVX2,
// which the kernel needs, and FMA, which it does not use).
var haveKernel = sgemm.Available

// pairLanes is in pairs_amd64.s.
//
//go:noescape
func pairLanes(n int, f, up, down, grad *float64, rows *[25]float64, out *[24]float64)
