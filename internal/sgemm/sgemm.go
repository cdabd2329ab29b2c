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

// New returns the product C ← op(A)·op(B) + β·C for row-major C (m × n), op(A) = A or Aᵀ
// (m × k) and op(B) = B or Bᵀ (k × n), with α = 1 and β = 0 or 1, computed as blas.Sgemm
// defines it; any other product (α ≠ 1, another β) is fallback's, gonum's Sgemm or the
// BLAS's.
//
// Every entry of C is formed in an order fixed by the shapes alone, never by the addresses
// of the slices, so the same operands give the same bits wherever they are allocated. Gonum's
// float32 dot product, which its Sgemm uses for a transposed B (and its Sgemv for A·x),
// starts its vector loop at the first 16-byte boundary of its second operand, so its rounding
// depends on where that slice was allocated; New therefore copies a transposed B, transposed,
// into a buffer it keeps (which makes the returned function unsafe for concurrent use) and
// multiplies that, and hands fallback untransposed B only, which gonum's Sgemm multiplies by
// adding one scaled row of B to a row of C at a time, element by element.
//
// With [Available], C is cut into tiles of 4 rows × 16 columns, each summed over k in eight
// 8-wide registers by the kernel kern4x16 and then added to C; the rows below the last
// multiple of 4 are summed one at a time by kern1x16, and the columns beyond the last
// multiple of 16 by fallback (a product narrower than 16 columns goes to fallback whole;
// without Available, every product does). An entry's sum is formed in the same order however
// many rows the product has and wherever its tile starts (the property a parallel split of
// the rows relies on): p = 0, 1, …, k−1 with fused multiply–adds in a tile of 4 rows; even
// and odd p apart, then added, in a single row; as fallback forms it beyond the last 16
// columns (gonum's Sgemm: p = 0, 1, … in turn, added to C one product at a time).
func New(fallback Func) Func {
	var bt []float32 // Bᵀ of the last product with B transposed
	return func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		if alpha != 1 || (beta != 0 && beta != 1) || m == 0 || n == 0 || k == 0 || !valid(tA) || !valid(tB) {
			fallback(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
			return
		}
		if tB != blas.NoTrans { // op(B) = Bᵀ, B n × k: multiply by its transpose, k × n
			if ldb < k || len(b) < (n-1)*ldb+k {
				panic("sgemm: a slice is too short for its matrix")
			}
			if cap(bt) < k*n {
				bt = make([]float32, k*n)
			}
			bt = bt[:k*n]
			for j := range n {
				for p, v := range b[j*ldb : j*ldb+k] {
					bt[p*n+j] = v
				}
			}
			b, ldb = bt, n
		}
		if !Available || n < 16 {
			fallback(tA, blas.NoTrans, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
			return
		}
		gemm(tA, m, n, k, a, lda, b, ldb, beta, c, ldc, fallback)
	}
}

// valid reports whether t is one of the three transpose values (a real matrix's conjugate
// transpose is its transpose).
func valid(t blas.Transpose) bool {
	return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans
}

// gemm is New's product with α = 1, β = 0 or 1 and n ≥ 16; fallback multiplies the
// columns beyond the last multiple of 16.
func gemm(tA blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int, fallback Func) {
	// Entry (i, p) of op(A) is a[i*ta + p*sa].
	ta, sa := lda, 1
	if tA != blas.NoTrans {
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

// NewGemv returns the matrix–vector product y ← op(A)·x + β·y for a row-major A (m × n),
// op(A) = A or Aᵀ, contiguous x and y, and β = 0 or 1; any other product (α ≠ 1, another
// β, strided vectors) goes to fallback, the BLAS's Sgemv. Like [New]'s, its entries are
// formed in an order fixed by the shapes, whatever the addresses of A, x and y:
//
//   - Aᵀ·x (y has n entries) is the one-row product yᵀ ← xᵀ·A of New: x summed against the
//     m rows of A, p = 0, 1, …, m−1, 16 columns at a time with [Available] and the columns
//     beyond the last multiple of 16 (every column without Available) by gonum's Sgemm, which
//     adds one scaled row of A at a time;
//   - A·x (y has m entries) is, for row i, y_i ← β·y_i + s_i with s_i = Σ_j a_ij·x_j formed
//     for n ≥ 16 with Available by an AVX2 kernel in the order its source documents (16
//     lanes over j ≡ r (mod 16), reduced in halves, then the last n mod 8 products one at a
//     time) and otherwise as (s⁰ + s¹) + (s² + s³), where s^r sums a_ij·x_j over the
//     j ≡ r (mod 4) in increasing j.
func NewGemv(fallback GemvFunc) GemvFunc {
	gemmT := New(gonum.Implementation{}.Sgemm)
	return func(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
		if !valid(tA) || alpha != 1 || (beta != 0 && beta != 1) || incX != 1 || incY != 1 || m == 0 || n == 0 {
			fallback(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
			return
		}
		if tA != blas.NoTrans {
			gemmT(blas.NoTrans, blas.NoTrans, 1, n, m, 1, x, m, a, lda, beta, y, n)
			return
		}
		if lda < n || len(a) < (m-1)*lda+n || len(x) < n || len(y) < m {
			panic("sgemm: a slice is too short for its matrix")
		}
		x = x[:n]
		for i := range m {
			s := dot(a[i*lda:i*lda+n], x)
			if beta == 0 {
				y[i] = s
			} else {
				y[i] += s
			}
		}
	}
}

// dot returns Σ_j a_j·x_j for len(a) = len(x) ≥ 1, summed as NewGemv documents: by the
// kernel kdot from 16 terms with Available (below, its reduction costs more than the
// products), otherwise in four partial sums.
func dot(a, x []float32) float32 {
	x = x[:len(a)]
	if Available && len(a) >= 16 {
		return kdot(len(a), &a[0], &x[0])
	}
	var s0, s1, s2, s3 float32
	j := 0
	for ; j+4 <= len(a); j += 4 {
		s0 += a[j] * x[j]
		s1 += a[j+1] * x[j+1]
		s2 += a[j+2] * x[j+2]
		s3 += a[j+3] * x[j+3]
	}
	switch len(a) - j {
	case 3:
		s2 += a[j+2] * x[j+2]
		fallthrough
	case 2:
		s1 += a[j+1] * x[j+1]
		fallthrough
	case 1:
		s0 += a[j] * x[j]
	}
	return (s0 + s1) + (s2 + s3)
}
