package nn

import "gonum.org/v1/gonum/blas"

// gemm32 is the float32 matrix product of a Pass on an amd64 processor with AVX2 and FMA
// when the BLAS in use is gonum's pure-Go one: C ← op(A)·B + β·C for row-major C (m × n),
// op(A) = A or Aᵀ (m × k) and B (k × n), with β = 0 or 1, as blas.Sgemm computes it. Any
// other product (α ≠ 1, another β, B transposed) goes to fallback, the BLAS's Sgemm.
//
// C is cut into tiles of 4 rows × 16 columns, each summed over k in eight 8-wide registers
// by the assembly kernel kern4x16, the rows below the last multiple of 4 one at a time by
// kern1x16, and the columns beyond the last multiple of 16 by plain Go loops. gonum's
// Sgemm instead adds one row of B, scaled, to a row of C in memory for every entry of A
// (f32.AxpyUnitary), loading and storing C k times; at the shapes of an MLP's pass
// (k = 30 or the batch, n = 64) that made float32 no faster than float64. Every entry is
// summed in the order p = 0, 1, …, k−1 whatever the other dimensions (kern1x16 splits the
// sum into even and odd p), so the result of a row does not depend on where a tile starts.
type gemm32 struct {
	fallback func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
}

func (g gemm32) gemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if tB != blas.NoTrans || alpha != 1 || (beta != 0 && beta != 1) || m == 0 || n == 0 {
		g.fallback(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// Entry (i, p) of op(A) is a[i*ta + p*sa].
	ta, sa := lda, 1
	if tA == blas.Trans {
		ta, sa = 1, lda
	}
	// The last element each kernel reads, checked once so that the assembly cannot run off
	// a slice.
	if len(c) < (m-1)*ldc+n || (k > 0 && (len(a) < (m-1)*ta+(k-1)*sa+1 || len(b) < (k-1)*ldb+n)) {
		panic("nn: gemm32: a slice is too short")
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
	if n16 == n {
		return
	}
	for i := range m {
		row := c[i*ldc+n16 : i*ldc+n]
		for j := range row {
			var s float32
			for p := range k {
				s += a[i*ta+p*sa] * b[p*ldb+n16+j]
			}
			row[j] += s
		}
	}
}
