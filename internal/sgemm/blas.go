package sgemm

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/rocops/rocops/internal/floats"
)

// Implementation is gonum's pure-Go BLAS with the products of Gorgonia's graphs routed to
// this package: Sgemm and Dgemm are [New]'s, Sgemv and Dgemv [NewGemv]'s, Sdot and Ddot of
// contiguous vectors [Dot]; every other routine, and every call those leave to a fallback,
// is gonum's. Its products therefore depend on the values alone, not on where the operands
// are allocated, in both dtypes (gonum's float32 dot product, behind its Sgemm of a
// transposed B, its Sgemv and its Sdot, rounds by the alignment of its operands). It is safe
// for concurrent use: a transposed B is copied into a buffer taken from a pool for the
// call. Installed with gorgonia.Use, it serves every graph, and tensor's MatMul, MatVecMul
// and Inner.
type Implementation struct{ gonum.Implementation }

// buffers32 and buffers64 hold the transposed-B buffers of Implementation's products.
var buffers32, buffers64 sync.Pool

// productWith is New's product with a buffer from pool.
func productWith[T floats.Float](pool *sync.Pool, fallback Func[T], tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if tB == blas.NoTrans {
		product(nil, fallback, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	bt, _ := pool.Get().(*[]T)
	if bt == nil {
		bt = new([]T)
	}
	product(bt, fallback, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	pool.Put(bt)
}

// Sgemm is [New]'s product in float32, with gonum's Sgemm as the fallback.
func (impl Implementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	productWith(&buffers32, impl.Implementation.Sgemm, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dgemm is [New]'s product in float64, with gonum's Dgemm as the fallback.
func (impl Implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	productWith(&buffers64, impl.Implementation.Dgemm, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Sgemv is [NewGemv]'s product in float32, with gonum's Sgemv as the fallback.
func (impl Implementation) Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	gemv(impl.Implementation.Sgemv, tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Dgemv is [NewGemv]'s product in float64, with gonum's Dgemv as the fallback.
func (impl Implementation) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	gemv(impl.Implementation.Dgemv, tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Sdot is [Dot] of the first n values of contiguous x and y, and gonum's Sdot otherwise.
func (impl Implementation) Sdot(n int, x []float32, incX int, y []float32, incY int) float32 {
	if n < 1 || incX != 1 || incY != 1 || len(x) < n || len(y) < n {
		return impl.Implementation.Sdot(n, x, incX, y, incY)
	}
	return Dot(x[:n], y)
}

// Ddot is [Dot] of the first n values of contiguous x and y, and gonum's Ddot otherwise.
func (impl Implementation) Ddot(n int, x []float64, incX int, y []float64, incY int) float64 {
	if n < 1 || incX != 1 || incY != 1 || len(x) < n || len(y) < n {
		return impl.Implementation.Ddot(n, x, incX, y, incY)
	}
	return Dot(x[:n], y)
}
