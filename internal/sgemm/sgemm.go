// Package sgemm is the module's matrix product in float32 and float64 for the skinny shapes
// of an MLP's training pass (one dimension the batch, the others a few dozen), with AVX2 and
// FMA kernels in amd64 assembly, and the BLAS that routes Gorgonia's products to it. It exists
// because gonum's pure-Go Sgemm adds a scaled row of B to a row of C in memory for every entry
// of A (f32.AxpyUnitary), loading and storing C k times: at those shapes its float32 product
// was no faster than its float64 one, and its float64 product does the same; and because
// gonum's float32 dot product rounds by the alignment of its operands.
//
// It lives apart from nn because a package that uses cgo (nn with the build tag openblas)
// cannot hold Go assembly.
package sgemm

import (
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/rocops/rocops/internal/floats"
)

// Available reports whether the kernels run here: on amd64, with AVX2 and FMA supported by
// the processor and enabled by the operating system, and without the build tag purego.
var Available = haveKernels

// Func is the signature of blas.Float32Level3's Sgemm (T = float32) and blas.Float64Level3's
// Dgemm (T = float64).
type Func[T floats.Float] func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// New returns the product C ← op(A)·op(B) + β·C for row-major C (m × n), op(A) = A or Aᵀ
// (m × k) and op(B) = B or Bᵀ (k × n), with α = 1 and β = 0 or 1, computed as blas.Sgemm
// (blas.Dgemm) defines it; any other product (α ≠ 1, another β) is fallback's, gonum's
// Sgemm (Dgemm) or the BLAS's.
//
// Every entry of C is formed in an order fixed by the shapes alone, never by the addresses
// of the slices, so the same operands give the same bits wherever they are allocated. Gonum's
// float32 dot product, which its Sgemm uses for a transposed B (and its Sgemv for A·x),
// starts its vector loop at the first 16-byte boundary of its second operand, so its rounding
// depends on where that slice was allocated; New therefore copies a transposed B, transposed,
// into a buffer it keeps (which makes the returned function unsafe for concurrent use) and
// multiplies that, and hands fallback untransposed B only, which gonum's Sgemm and Dgemm
// multiply by adding one scaled row of B to a row of C at a time, element by element.
//
// With [Available], C is cut into tiles of 4 rows × w columns, w = 16 in float32 and 8 in
// float64 (two 256-bit registers), each summed over k in eight registers by the kernel
// kern4x16 (kern4x8) and then added to C; the rows below the last multiple of 4 are summed
// one at a time by kern1x16 (kern1x8), and the columns beyond the last multiple of w by
// fallback (a product narrower than w columns goes to fallback whole; without Available,
// every product does). An entry's sum is formed in the same order however many rows the
// product has and wherever its tile starts (the property a parallel split of the rows relies
// on): p = 0, 1, …, k−1 with fused multiply–adds in a tile of 4 rows; even and odd p apart,
// then added, in a single row; as fallback forms it beyond the last w columns (gonum's
// Sgemm and Dgemm: p = 0, 1, … in turn, added to C one product at a time).
func New[T floats.Float](fallback Func[T]) Func[T] {
	var bt []T // Bᵀ of the last product with B transposed
	return func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
		product(&bt, fallback, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// product is New's function; *bt is the buffer of a transposed B, grown as needed.
func product[T floats.Float](bt *[]T, fallback Func[T], tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if alpha != 1 || (beta != 0 && beta != 1) || m == 0 || n == 0 || k == 0 || !valid(tA) || !valid(tB) {
		fallback(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if tB != blas.NoTrans { // op(B) = Bᵀ, B n × k: multiply by its transpose, k × n
		if ldb < k || len(b) < (n-1)*ldb+k {
			panic("sgemm: a slice is too short for its matrix")
		}
		if cap(*bt) < k*n {
			*bt = make([]T, k*n)
		}
		t := (*bt)[:k*n]
		for j := range n {
			for p, v := range b[j*ldb : j*ldb+k] {
				t[p*n+j] = v
			}
		}
		b, ldb = t, n
	}
	if !Available || n < width[T]() {
		fallback(tA, blas.NoTrans, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemm(tA, m, n, k, a, lda, b, ldb, beta, c, ldc, fallback)
}

// width returns the columns of a kernel's tile, two 256-bit registers of T: 16 in float32,
// 8 in float64.
func width[T floats.Float]() int { return 64 / int(unsafe.Sizeof(T(0))) }

// valid reports whether t is one of the three transpose values (a real matrix's conjugate
// transpose is its transpose).
func valid(t blas.Transpose) bool {
	return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans
}

// gemm is New's product with α = 1, β = 0 or 1 and n ≥ w; fallback multiplies the
// columns beyond the last multiple of w.
func gemm[T floats.Float](tA blas.Transpose, m, n, k int, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, fallback Func[T]) {
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
	w := width[T]()
	m4, nw := m&^3, n/w*w
	// Column strips outermost: a strip of B (k × w) stays in cache for every row of A.
	for j := 0; j < nw; j += w {
		for i := 0; i < m4; i += 4 {
			kern4(k, &a[i*ta], sa, ta, &b[j], ldb, &c[i*ldc+j], ldc)
		}
		for i := m4; i < m; i++ {
			kern1(k, &a[i*ta], sa, &b[j], ldb, &c[i*ldc+j])
		}
	}
	if nw < n { // C's columns are cleared already where β = 0
		fallback(tA, blas.NoTrans, m, n-nw, k, 1, a, lda, b[nw:], ldb, 1, c[nw:], ldc)
	}
}

// kern4 is kern4x16 for float32 and kern4x8 for float64.
func kern4[T floats.Float](k int, a *T, sa, ta int, b *T, ldb int, c *T, ldc int) {
	if unsafe.Sizeof(T(0)) == 4 {
		kern4x16(k, (*float32)(unsafe.Pointer(a)), sa, ta, (*float32)(unsafe.Pointer(b)), ldb, (*float32)(unsafe.Pointer(c)), ldc)
	} else {
		kern4x8(k, (*float64)(unsafe.Pointer(a)), sa, ta, (*float64)(unsafe.Pointer(b)), ldb, (*float64)(unsafe.Pointer(c)), ldc)
	}
}

// kern1 is kern1x16 for float32 and kern1x8 for float64.
func kern1[T floats.Float](k int, a *T, sa int, b *T, ldb int, c *T) {
	if unsafe.Sizeof(T(0)) == 4 {
		kern1x16(k, (*float32)(unsafe.Pointer(a)), sa, (*float32)(unsafe.Pointer(b)), ldb, (*float32)(unsafe.Pointer(c)))
	} else {
		kern1x8(k, (*float64)(unsafe.Pointer(a)), sa, (*float64)(unsafe.Pointer(b)), ldb, (*float64)(unsafe.Pointer(c)))
	}
}

// GemvFunc is the signature of blas.Float32Level2's Sgemv (T = float32) and
// blas.Float64Level2's Dgemv (T = float64).
type GemvFunc[T floats.Float] func(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)

// NewGemv returns the matrix–vector product y ← op(A)·x + β·y for a row-major A (m × n),
// op(A) = A or Aᵀ, contiguous x and y, and β = 0 or 1; any other product (α ≠ 1, another
// β, strided vectors) goes to fallback, the BLAS's Sgemv (Dgemv). Like [New]'s, its entries
// are formed in an order fixed by the shapes, whatever the addresses of A, x and y:
//
//   - Aᵀ·x (y has n entries) is the one-row product yᵀ ← xᵀ·A of New: x summed against the
//     m rows of A, p = 0, 1, …, m−1, w columns at a time with [Available] (w = 16 in
//     float32, 8 in float64) and the columns beyond the last multiple of w (every column
//     without Available) by gonum's Sgemm (Dgemm), which adds one scaled row of A at a time;
//   - A·x (y has m entries) is, for row i, y_i ← β·y_i + s_i with s_i = Σ_j a_ij·x_j, the
//     dot product of [Dot].
func NewGemv[T floats.Float](fallback GemvFunc[T]) GemvFunc[T] {
	return func(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
		gemv(fallback, tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
	}
}

// gemv is NewGemv's function.
func gemv[T floats.Float](fallback GemvFunc[T], tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int) {
	if !valid(tA) || alpha != 1 || (beta != 0 && beta != 1) || incX != 1 || incY != 1 || m == 0 || n == 0 {
		fallback(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	if tA != blas.NoTrans { // no transposed B: product needs no buffer
		product(nil, gonumGemm[T](), blas.NoTrans, blas.NoTrans, 1, n, m, 1, x, m, a, lda, beta, y, n)
		return
	}
	if lda < n || len(a) < (m-1)*lda+n || len(x) < n || len(y) < m {
		panic("sgemm: a slice is too short for its matrix")
	}
	x = x[:n]
	for i := range m {
		s := Dot(a[i*lda:i*lda+n], x)
		if beta == 0 {
			y[i] = s
		} else {
			y[i] += s
		}
	}
}

// gonumGemm returns gonum's Sgemm or Dgemm.
func gonumGemm[T floats.Float]() Func[T] {
	if unsafe.Sizeof(T(0)) == 4 {
		return *(*Func[T])(unsafe.Pointer(&gonumSgemm))
	}
	return *(*Func[T])(unsafe.Pointer(&gonumDgemm))
}

// gonumSgemm and gonumDgemm are gonum's products, made once.
var (
	gonumSgemm = Func[float32](gonum.Implementation{}.Sgemm)
	gonumDgemm = Func[float64](gonum.Implementation{}.Dgemm)
)

// Dot returns Σ_j a_j·x_j for len(a) = len(x) ≥ 1 (x may be longer: its first len(a) values
// are used), summed in an order fixed by the length: with [Available] and at least w terms
// (16 in float32, 8 in float64; below, the kernel's reduction costs more than the products)
// by the AVX2 kernel kdot (ddot) in the order its source documents (w lanes over
// j ≡ r (mod w), reduced in halves, then the last len(a) mod (w/2) products one at a time),
// and otherwise as (s⁰ + s¹) + (s² + s³), where s^r sums a_j·x_j over the j ≡ r (mod 4) in
// increasing j.
func Dot[T floats.Float](a, x []T) T {
	x = x[:len(a)]
	if Available && len(a) >= width[T]() {
		if unsafe.Sizeof(T(0)) == 4 {
			return T(kdot(len(a), (*float32)(unsafe.Pointer(&a[0])), (*float32)(unsafe.Pointer(&x[0]))))
		}
		return T(ddot(len(a), (*float64)(unsafe.Pointer(&a[0])), (*float64)(unsafe.Pointer(&x[0]))))
	}
	var s0, s1, s2, s3 T
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
