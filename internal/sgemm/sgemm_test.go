package sgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestMatchesReference: New gives C ← op(A)·B + β·C of a float64 reference written
// here, for op(A) = A and Aᵀ, β = 0 and 1, and shapes that cover every path — full 4 × 16
// tiles, the single rows below the last multiple of 4, the columns beyond the last multiple
// of 16, k = 0 and 1, and the step's own shapes (k = 30 or 1024, n = 64) — with leading
// dimensions larger than the rows, and other arguments through the fallback. The bound is
// the classical one for a sum of k products in floating point (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., §3.1): |ĉ − c| ≤ γ_{k+1}·(Σ_p |a_ip|·|b_pj| +
// |β·c_ij|) with γ_n = n·u/(1 − n·u) and u = 2⁻²⁴ the unit roundoff of float32, k products
// added in turn and one addition to C.
func TestMatchesReference(t *testing.T) {
	if !Available {
		t.Skip("no AVX2 and FMA: New returns its fallback")
	}
	const u = 0x1p-24
	gamma := func(n int) float64 { return float64(n) * u / (1 - float64(n)*u) }
	g := New(gonum.Implementation{}.Sgemm)
	type shape struct{ m, n, k int }
	shapes := []shape{
		{4, 16, 1}, {4, 16, 0}, {1, 1, 1}, {3, 5, 7}, {5, 17, 3}, {8, 32, 30}, {9, 33, 31},
		{7, 15, 2}, {1024, 64, 30}, {30, 64, 1024}, {13, 48, 1}, {2, 64, 1024},
	}
	for _, sh := range shapes {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, beta := range []float32{0, 1, 0.5} {
				for _, alpha := range []float32{1, -2} {
					t.Run(fmt.Sprintf("m=%d/n=%d/k=%d/%c/beta=%g/alpha=%g", sh.m, sh.n, sh.k, tA, beta, alpha), func(t *testing.T) {
						m, n, k := sh.m, sh.n, sh.k
						// op(A) is m × k; stored as A (m × k, lda ≥ k) or Aᵀ (k × m, lda ≥ m).
						ar, ac := m, k
						if tA == blas.Trans {
							ar, ac = k, m
						}
						lda, ldb, ldc := ac+3, n+5, n+2
						a := float32Rows(11, max(ar, 1), lda)
						b := float32Rows(12, max(k, 1), ldb)
						c := float32Rows(13, m, ldc)
						want, bound := make([]float64, m*n), make([]float64, m*n)
						for i := range m {
							for j := range n {
								var s, abs float64
								for p := range k {
									var aip float32
									if tA == blas.Trans {
										aip = a[p*lda+i]
									} else {
										aip = a[i*lda+p]
									}
									s += float64(aip) * float64(b[p*ldb+j])
									abs += math.Abs(float64(aip) * float64(b[p*ldb+j]))
								}
								cij := float64(beta) * float64(c[i*ldc+j])
								want[i*n+j] = float64(alpha)*s + cij
								bound[i*n+j] = gamma(k+2) * (math.Abs(float64(alpha))*abs + math.Abs(cij))
							}
						}
						pad := append([]float32(nil), c...)
						g(tA, blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
						for i := range m {
							for j := range ldc {
								got := float64(c[i*ldc+j])
								if j >= n {
									if c[i*ldc+j] != pad[i*ldc+j] {
										t.Fatalf("C[%d, %d] beyond n changed", i, j)
									}
									continue
								}
								if d := math.Abs(got - want[i*n+j]); d > bound[i*n+j] {
									t.Fatalf("C[%d, %d] = %g, want %g: error %g > bound %g", i, j, got, want[i*n+j], d, bound[i*n+j])
								}
							}
						}
					})
				}
			}
		}
	}
}

// float32Rows returns rows × cols values drawn uniformly from (−2, 2) by a seeded generator,
// in float32 (the reference works on these rounded values).
func float32Rows(seed uint64, rows, cols int) []float32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]float32, rows*cols)
	for i := range out {
		out[i] = float32(4*rng.Float64() - 2)
	}
	return out
}

// TestRowOrder: a row of C does not depend on the rows around it: the product of one
// row of A on its own is bit for bit that row of the product of many (every entry is summed
// over p in the same order wherever its tile starts — the property that keeps a training
// trajectory the same however the rows are split among workers) for rows inside 4-row tiles
// and rows below them.
func TestRowOrder(t *testing.T) {
	if !Available {
		t.Skip("no AVX2 and FMA")
	}
	g := New(gonum.Implementation{}.Sgemm)
	const m, n, k = 10, 40, 37
	a, b := float32Rows(21, m, k), float32Rows(22, k, n)
	all := make([]float32, m*n)
	g(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, all, n)
	for i := 0; i < m; i += 4 { // blocks of 4 rows, and the last 2 rows one by one
		rows := min(4, m-i)
		if rows < 4 {
			rows = 1
		}
		part := make([]float32, rows*n)
		g(blas.NoTrans, blas.NoTrans, rows, n, k, 1, a[i*k:], k, b, n, 0, part, n)
		for j, v := range part {
			if v != all[i*n+j] {
				t.Fatalf("row block at %d, entry %d: %g alone, %g in the whole product", i, j, v, all[i*n+j])
			}
		}
	}
}

// TestGemvMatchesReference: NewGemv gives y ← α·op(A)·x + β·y of a float64 reference within
// the bound of TestMatchesReference (a sum of m or n products and one addition), for
// Aᵀ·x with β = 0 and 1 (the kernels) and through the fallback for A·x, α ≠ 1 and a strided
// x, on shapes with and without a tail beyond 16 columns and with lda > n.
func TestGemvMatchesReference(t *testing.T) {
	const u = 0x1p-24
	gamma := func(n int) float64 { return float64(n) * u / (1 - float64(n)*u) }
	gemv := NewGemv(gonum.Implementation{}.Sgemv)
	for _, sh := range []struct{ m, n int }{{1024, 64}, {1024, 1}, {7, 16}, {33, 21}, {1, 50}, {5, 3}} {
		for _, tc := range []struct {
			tA    blas.Transpose
			alpha float32
			beta  float32
			incX  int
		}{{blas.Trans, 1, 0, 1}, {blas.Trans, 1, 1, 1}, {blas.NoTrans, 1, 0, 1}, {blas.Trans, 2, 1, 1}, {blas.Trans, 1, 0, 2}} {
			t.Run(fmt.Sprintf("m=%d/n=%d/%c/alpha=%g/beta=%g/incX=%d", sh.m, sh.n, tc.tA, tc.alpha, tc.beta, tc.incX), func(t *testing.T) {
				m, n, lda := sh.m, sh.n, sh.n+3
				a := float32Rows(31, m, lda)
				lx, ly := n, m // op(A) = A: x has n entries, y m
				if tc.tA == blas.Trans {
					lx, ly = m, n
				}
				x, y := float32Rows(32, lx, tc.incX), float32Rows(33, 1, ly)
				want, bound := make([]float64, ly), make([]float64, ly)
				for i := range ly {
					var s, abs float64
					for p := range lx {
						var aip float32
						if tc.tA == blas.Trans {
							aip = a[p*lda+i]
						} else {
							aip = a[i*lda+p]
						}
						s += float64(aip) * float64(x[p*tc.incX])
						abs += math.Abs(float64(aip) * float64(x[p*tc.incX]))
					}
					yi := float64(tc.beta) * float64(y[i])
					want[i] = float64(tc.alpha)*s + yi
					bound[i] = gamma(lx+2) * (math.Abs(float64(tc.alpha))*abs + math.Abs(yi))
				}
				gemv(tc.tA, m, n, tc.alpha, a, lda, x, tc.incX, tc.beta, y, 1)
				for i, w := range want {
					if d := math.Abs(float64(y[i]) - w); d > bound[i] {
						t.Fatalf("y[%d] = %g, want %g: error %g > bound %g", i, y[i], w, d, bound[i])
					}
				}
			})
		}
	}
}
