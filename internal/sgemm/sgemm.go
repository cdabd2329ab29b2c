// Package sgemm is a float32 matrix product for the skinny shapes of an MLP's training pass
// (one dimension the batch, the others a few dozen), with AVX2 and FMA kernels in amd64
// assembly. It exists because gonum's pure-Go Sgemm adds a scaled row of B to a row of C in
// memory for every entry of A (f32.AxpyUnitary), loading and storing C k times: at those
// shapes its float32 product was no faster than its float64 one.
//
// It lives apart from nn because a package that uses cgo (nn with the build tag openblas)
// cannot hold Go assembly.
package sgemm

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Available reports whether the kernels run here: on amd64, with AVX2 and FMA supported by
// the processor and enabled by the operating system, and without the build tag purego.
var Available = haveKernels

// Func is the signature of blas.Float32Level3's Sgemm.
type Func func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)

// New returns the product C ← op(A)·B + β·C for row-major C (m × n), op(A) = A or Aᵀ
// (m × k) and B (k × n), with β = 0 or 1, computed as blas.Sgemm defines it; any other
// product (α ≠ 1, another β, B transposed) goes to fallback. Without Available, New returns
// fallback itself.
//
// C is cut into tiles of 4 rows × 16 columns, each summed over k in eight 8-wide registers
// by the kernel kern4x16 and then added to C; the rows below the last multiple of 4 are
// summed one at a time by kern1x16, and the columns beyond the last multiple of 16 by
// fallback (a product narrower than 16 columns goes to fallback whole). An entry's sum is
// formed in the same order however many rows the product has and wherever its tile starts
// (the property a parallel split of the rows relies on): p = 0, 1, …, k−1 with fused
// multiply–adds in a tile of 4 rows; even and odd p apart, then added, in a single row; as
// fallback forms it beyond the last 16 columns (gonum's Sgemm: p = 0, 1, … in turn).
func New(fallback Func) Func {
	if !Available {
		return fallback
	}
	return func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		if tB != blas.NoTrans || alpha != 1 || (beta != 0 && beta != 1) || m == 0 || n < 16 {
			fallback(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
			return
		}
		gemm(tA, m, n, k, a, lda, b, ldb, beta, c, ldc, fallback)
	}
}

// gemm is New's product with α = 1, β = 0 or 1 and n ≥ 16; fallback multiplies the
// columns beyond the last multiple of 16.
func gemm(tA blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int, fallback Func) {
	// Entry (i, p) of op(A) is a[i*ta + p*sa].
	ta, sa := lda, 1
	if tA == blas.Trans {
		ta, sa = 1, lda
	}
	// The last element each kernel reads or writes, checked once, so that the assembly
	// cannot run off a slice.
	if len(c) < (m-1)*ldc+n || (k > 0 && (len(a) < (m-1)*ta+(k-1)*sa+1 || len(b) < (k-1)*ldb+n)) {
		panic("sgemm: a slice is too short for its matrix")
	}
	if beta == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
	}
	if k == 0 {
		return
	}
	m4, n16 := m&^3, n&^15
	for i := 0; i < m4; i += 4 {
		for j := 0; j < n16; j += 16 {
			kern4x16(k, &a[i*ta], sa, ta, &b[j], ldb, &c[i*ldc+j], ldc)
		}
	}
	for i := m4; i < m; i++ {
		for j := 0; j < n16; j += 16 {
			kern1x16(k, &a[i*ta], sa, &b[j], ldb, &c[i*ldc+j])
		}
	}
	if n16 < n { // C's columns are cleared already where β = 0
		fallback(tA, blas.NoTrans, m, n-n16, k, 1, a, lda, b[n16:], ldb, 1, c[n16:], ldc)
	}
}

// GemvFunc is the signature of blas.Float32Level2's Sgemv.
type GemvFunc func(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int)

// NewGemv returns the matrix–vector product y ← Aᵀ·x + β·y for a row-major A (m × n),
// n ≥ 16, and contiguous x and y, with β = 0 or 1, computed as the one-row product
// yᵀ ← xᵀ·A of New (x summed against the m rows of A, 16 columns at a time, the columns
// beyond the last multiple of 16 by gonum's Sgemm); any other product (A not transposed,
// fewer than 16 columns, α ≠ 1, another β, strided vectors) goes to fallback, the BLAS's
// Sgemv. Without Available, NewGemv returns fallback itself.
func NewGemv(fallback GemvFunc) GemvFunc {
	if !Available {
		return fallback
	}
	return func(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
		if tA != blas.Trans || alpha != 1 || (beta != 0 && beta != 1) || incX != 1 || incY != 1 || m == 0 || n < 16 {
			fallback(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
			return
		}
		gemm(blas.NoTrans, 1, n, m, x, m, a, lda, beta, y, n, gonum.Implementation{}.Sgemm)
	}
}
