package sgemm

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// TestMatchesReference: New gives C ← op(A)·op(B) + β·C of a float64 reference written
// here, for op(A) = A and Aᵀ, op(B) = B and Bᵀ, β = 0 and 1, and shapes that cover every path — full 4 × 16
// tiles (4 × 8 in float64), the single rows below the last multiple of 4, the columns beyond
// the last multiple of 16 (8), k = 0 and 1, and the step's own shapes (k = 30 or 1024, n = 64) — with leading
// dimensions larger than the rows, and other arguments through the fallback. The bound is
// the classical one for a sum of k products in floating point (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., §3.1): |ĉ − c| ≤ γ_{k+1}·(Σ_p |a_ip|·|b_pj| +
// |β·c_ij|) with γ_n = n·u/(1 − n·u) and u the unit roundoff (2⁻²⁴ in float32, 2⁻⁵³ in
// float64), k products added in turn and one addition to C. In both dtypes.
func TestMatchesReference(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testMatchesReference(t, 0x1p-24, New(gonum.Implementation{}.Sgemm)) })
	t.Run("float64", func(t *testing.T) { testMatchesReference(t, 0x1p-53, New(gonum.Implementation{}.Dgemm)) })
	var impl Implementation
	t.Run("Implementation/float32", func(t *testing.T) { testMatchesReference(t, 0x1p-24, impl.Sgemm) })
	t.Run("Implementation/float64", func(t *testing.T) { testMatchesReference(t, 0x1p-53, impl.Dgemm) })
}

func testMatchesReference[T floats.Float](t *testing.T, u float64, g Func[T]) {
	gamma := func(n int) float64 { return float64(n) * u / (1 - float64(n)*u) }
	type shape struct{ m, n, k int }
	shapes := []shape{
		{4, 16, 1}, {4, 16, 0}, {1, 1, 1}, {3, 5, 7}, {5, 17, 3}, {8, 32, 30}, {9, 33, 31},
		{7, 15, 2}, {1024, 64, 30}, {30, 64, 1024}, {13, 48, 1}, {2, 64, 1024},
		{4, 8, 1}, {5, 9, 3}, {7, 7, 2}, {6, 24, 5},
	}
	for _, sh := range shapes {
		for _, tr := range [][2]blas.Transpose{{blas.NoTrans, blas.NoTrans}, {blas.Trans, blas.NoTrans}, {blas.NoTrans, blas.Trans}, {blas.Trans, blas.Trans}} {
			tA, tB := tr[0], tr[1]
			for _, beta := range []T{0, 1, 0.5} {
				for _, alpha := range []T{1, -2} {
					t.Run(fmt.Sprintf("m=%d/n=%d/k=%d/%c%c/beta=%g/alpha=%g", sh.m, sh.n, sh.k, tA, tB, beta, alpha), func(t *testing.T) {
						m, n, k := sh.m, sh.n, sh.k
						// op(A) is m × k; stored as A (m × k, lda ≥ k) or Aᵀ (k × m, lda ≥ m).
						ar, ac := m, k
						if tA == blas.Trans {
							ar, ac = k, m
						}
						// op(B) is k × n; stored as B (k × n, ldb ≥ n) or Bᵀ (n × k, ldb ≥ k).
						br, bc := k, n
						if tB == blas.Trans {
							br, bc = n, k
						}
						lda, ldb, ldc := ac+3, bc+5, n+2
						a := testbatch.Uniform[T](11, 1, max(ar, 1), lda)
						b := testbatch.Uniform[T](12, 1, max(br, 1), ldb)
						bpj := func(p, j int) T {
							if tB == blas.Trans {
								return b[j*ldb+p]
							}
							return b[p*ldb+j]
						}
						c := testbatch.Uniform[T](13, 1, m, ldc)
						want, bound := make([]float64, m*n), make([]float64, m*n)
						for i := range m {
							for j := range n {
								var s, abs float64
								for p := range k {
									var aip T
									if tA == blas.Trans {
										aip = a[p*lda+i]
									} else {
										aip = a[i*lda+p]
									}
									s += float64(aip) * float64(bpj(p, j))
									abs += math.Abs(float64(aip) * float64(bpj(p, j)))
								}
								cij := float64(beta) * float64(c[i*ldc+j])
								want[i*n+j] = float64(alpha)*s + cij
								bound[i*n+j] = gamma(k+2) * (math.Abs(float64(alpha))*abs + math.Abs(cij))
							}
						}
						pad := append([]T(nil), c...)
						g(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
						for i := range m {
							for j := range ldc {
								got := float64(c[i*ldc+j])
								if j >= n {
									require.False(t, c[i*ldc+j] != pad[i*ldc+j], "C[%d, %d] beyond n changed", i, j)
									continue
								}
								d := math.Abs(got - want[i*n+j])
								require.LessOrEqual(t, d, bound[i*n+j], "C[%d, %d] = %g, want %g: error %g > bound %g", i, j, got, want[i*n+j], d, bound[i*n+j])
							}
						}
					})
				}
			}
		}
	}
}

// TestRowOrder: a row of C does not depend on the rows around it: the product of one
// row of A on its own is bit for bit that row of the product of many (every entry is summed
// over p in the same order wherever its tile starts — the property that keeps a training
// trajectory the same however the rows are split among workers) for rows inside 4-row tiles
// and rows below them, in both dtypes.
func TestRowOrder(t *testing.T) {
	if !Available {
		t.Skip("no AVX2 and FMA")
	}
	t.Run("float32", func(t *testing.T) { testRowOrder(t, New(gonum.Implementation{}.Sgemm)) })
	t.Run("float64", func(t *testing.T) { testRowOrder(t, New(gonum.Implementation{}.Dgemm)) })
}

func testRowOrder[T floats.Float](t *testing.T, g Func[T]) {
	const m, n, k = 10, 40, 37
	a, b := testbatch.Uniform[T](21, 1, m, k), testbatch.Uniform[T](22, 1, k, n)
	all := make([]T, m*n)
	g(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, all, n)
	for i := 0; i < m; i += 4 { // blocks of 4 rows, and the last 2 rows one by one
		rows := min(4, m-i)
		if rows < 4 {
			rows = 1
		}
		part := make([]T, rows*n)
		g(blas.NoTrans, blas.NoTrans, rows, n, k, 1, a[i*k:], k, b, n, 0, part, n)
		for j, v := range part {
			require.False(t, v != all[i*n+j], "row block at %d, entry %d: %g alone, %g in the whole product", i, j, v, all[i*n+j])
		}
	}
}

// TestGemvMatchesReference: NewGemv gives y ← α·op(A)·x + β·y of a float64 reference within
// the bound of TestMatchesReference (a sum of m or n products and one addition), for
// Aᵀ·x with β = 0 and 1 (the kernels), A·x with β = 0 and 1 (its own dot products: rows of 16 or
// more values, with 8 more and fewer beyond the last multiple of 16, and shorter rows) and
// through the fallback for α ≠ 1 and a strided x, on shapes with and without a tail beyond 16
// columns and with lda > n; in float64 too (rows of 8 or more, with 4 more and fewer beyond
// the last multiple of 8, and shorter rows), and through Implementation in both dtypes.
func TestGemvMatchesReference(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testGemvMatchesReference(t, 0x1p-24, NewGemv(gonum.Implementation{}.Sgemv)) })
	t.Run("float64", func(t *testing.T) { testGemvMatchesReference(t, 0x1p-53, NewGemv(gonum.Implementation{}.Dgemv)) })
	var impl Implementation
	t.Run("Implementation/float32", func(t *testing.T) { testGemvMatchesReference(t, 0x1p-24, impl.Sgemv) })
	t.Run("Implementation/float64", func(t *testing.T) { testGemvMatchesReference(t, 0x1p-53, impl.Dgemv) })
}

func testGemvMatchesReference[T floats.Float](t *testing.T, u float64, gemv GemvFunc[T]) {
	gamma := func(n int) float64 { return float64(n) * u / (1 - float64(n)*u) }
	for _, sh := range []struct{ m, n int }{{1024, 64}, {1024, 1}, {7, 16}, {33, 21}, {1, 50}, {5, 3}, {9, 29}, {3, 24}, {4, 15}, {6, 8}, {5, 13}, {3, 7}, {2, 12}} {
		for _, tc := range []struct {
			tA    blas.Transpose
			alpha T
			beta  T
			incX  int
		}{{blas.Trans, 1, 0, 1}, {blas.Trans, 1, 1, 1}, {blas.NoTrans, 1, 0, 1}, {blas.NoTrans, 1, 1, 1}, {blas.Trans, 2, 1, 1}, {blas.Trans, 1, 0, 2}} {
			t.Run(fmt.Sprintf("m=%d/n=%d/%c/alpha=%g/beta=%g/incX=%d", sh.m, sh.n, tc.tA, tc.alpha, tc.beta, tc.incX), func(t *testing.T) {
				m, n, lda := sh.m, sh.n, sh.n+3
				a := testbatch.Uniform[T](31, 1, m, lda)
				lx, ly := n, m // op(A) = A: x has n entries, y m
				if tc.tA == blas.Trans {
					lx, ly = m, n
				}
				x, y := testbatch.Uniform[T](32, 1, lx, tc.incX), testbatch.Uniform[T](33, 1, 1, ly)
				want, bound := make([]float64, ly), make([]float64, ly)
				for i := range ly {
					var s, abs float64
					for p := range lx {
						var aip T
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
					d := math.Abs(float64(y[i]) - w)
					require.LessOrEqual(t, d, bound[i], "y[%d] = %g, want %g: error %g > bound %g", i, y[i], w, d, bound[i])
				}
			})
		}
	}
}

// TestIndependentOfAddress: a product's bits do not depend on where its operands sit in
// memory. Every operand is moved by 1, 2 and 3 elements (4-byte steps, so across the 16-byte
// boundaries of SSE loads) and the product must be bit for bit the one at offset 0, for the
// products an MLP's float32 pass takes (A·B, Aᵀ·B, A·Bᵀ, Aᵀ·x and A·x, with β = 0 and 1) at
// widths below, at and above 16 columns. Gonum's float32 dot product starts its vector loop
// at a 16-byte boundary of one operand, so A·Bᵀ and A·x through it failed this test; with and
// without the kernels (-tags purego). In float64 too (8-byte steps), at widths below, at
// and above 8 columns, and through Implementation.
func TestIndependentOfAddress(t *testing.T) {
	t.Run("float32", func(t *testing.T) {
		testIndependentOfAddress(t, New(gonum.Implementation{}.Sgemm), NewGemv(gonum.Implementation{}.Sgemv))
	})
	t.Run("float64", func(t *testing.T) {
		testIndependentOfAddress(t, New(gonum.Implementation{}.Dgemm), NewGemv(gonum.Implementation{}.Dgemv))
	})
	var impl Implementation
	t.Run("Implementation/float32", func(t *testing.T) { testIndependentOfAddress(t, impl.Sgemm, impl.Sgemv) })
	t.Run("Implementation/float64", func(t *testing.T) { testIndependentOfAddress(t, impl.Dgemm, impl.Dgemv) })
}

func testIndependentOfAddress[T floats.Float](t *testing.T, g Func[T], gemv GemvFunc[T]) {
	// moved returns a copy of x starting off elements into a fresh slice.
	moved := func(x []T, off int) []T {
		return append(make([]T, off, off+len(x)), x...)[off:]
	}
	same := func(x, y T) bool { return math.Float64bits(float64(x)) == math.Float64bits(float64(y)) }
	for _, sh := range []struct{ m, n, k int }{{64, 1, 5}, {64, 5, 6}, {64, 6, 5}, {37, 15, 6}, {64, 16, 17}, {33, 17, 64}, {9, 33, 31}, {64, 7, 9}, {64, 8, 3}, {37, 9, 8}, {1024, 64, 30}} {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, beta := range []T{0, 1} {
					m, n, k := sh.m, sh.n, sh.k
					a := testbatch.Uniform[T](41, 1, m, k) // A (m × k) or Aᵀ (k × m): both m·k values
					lda := k
					if tA == blas.Trans {
						lda = m
					}
					b := testbatch.Uniform[T](42, 1, k, n) // B (k × n) or Bᵀ (n × k)
					ldb := n
					if tB == blas.Trans {
						ldb = k
					}
					c0 := testbatch.Uniform[T](43, 1, m, n)
					var want []T
					for off := range 4 {
						c := moved(c0, off)
						g(tA, tB, m, n, k, 1, moved(a, off), lda, moved(b, (off+1)%4), ldb, beta, c, n)
						if off == 0 {
							want = c
							continue
						}
						for i := range want {
							require.True(t, same(c[i], want[i]), "m=%d n=%d k=%d %c%c β=%g, operands moved by %d: C[%d] = %g, at offset 0 %g", m, n, k, tA, tB, beta, off, i, c[i], want[i])
						}
					}
				}
			}
		}
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, beta := range []T{0, 1} {
				m, n := sh.m, sh.n+sh.k // A (m × n); x and y as op(A) needs them
				lx, ly := n, m
				if tA == blas.Trans {
					lx, ly = m, n
				}
				a, x, y0 := testbatch.Uniform[T](44, 1, m, n), testbatch.Uniform[T](45, 1, 1, lx), testbatch.Uniform[T](46, 1, 1, ly)
				var want []T
				for off := range 4 {
					y := moved(y0, off)
					gemv(tA, m, n, 1, moved(a, (off+2)%4), n, moved(x, off), 1, beta, y, 1)
					if off == 0 {
						want = y
						continue
					}
					for i := range want {
						require.True(t, same(y[i], want[i]), "gemv m=%d n=%d %c β=%g, operands moved by %d: y[%d] = %g, at offset 0 %g", m, n, tA, beta, off, i, y[i], want[i])
					}
				}
			}
		}
	}
}

// BenchmarkGemv times A·x, an output layer's forward product (B rows of n hidden units
// against n weights), by NewGemv's own dot products (impl=sgemm) and by gonum's Sgemv, whose
// result depends on the alignment of x (impl=gonum). Names:
// BenchmarkGemv/m=128|1024/n=6|64/impl=sgemm|gonum.
func BenchmarkGemv(b *testing.B) {
	for _, m := range []int{128, 1024} {
		for _, n := range []int{6, 64} {
			a, x, y := testbatch.Uniform[float32](51, 1, m, n), testbatch.Uniform[float32](52, 1, 1, n), make([]float32, m)
			for _, impl := range []struct {
				name string
				f    GemvFunc[float32]
			}{{"sgemm", NewGemv(gonum.Implementation{}.Sgemv)}, {"gonum", gonum.Implementation{}.Sgemv}} {
				b.Run(fmt.Sprintf("m=%d/n=%d/impl=%s", m, n, impl.name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						impl.f(blas.NoTrans, m, n, 1, a, n, x, 1, 1, y, 1)
					}
				})
			}
		}
	}
}

// TestDot: Implementation's Sdot and Ddot of contiguous vectors are Dot, within the bound of
// TestMatchesReference of a float64 reference and the same bits wherever the vectors start,
// at lengths below, at and above the kernels' 8 and 16 terms; strided vectors are gonum's.
func TestDot(t *testing.T) {
	var impl Implementation
	t.Run("float32", func(t *testing.T) { testDot(t, 0x1p-24, impl.Sdot) })
	t.Run("float64", func(t *testing.T) { testDot(t, 0x1p-53, impl.Ddot) })
}

func testDot[T floats.Float](t *testing.T, u float64, dot func(n int, x []T, incX int, y []T, incY int) T) {
	gamma := func(n int) float64 { return float64(n) * u / (1 - float64(n)*u) }
	moved := func(x []T, off int) []T { return append(make([]T, off, off+len(x)), x...)[off:] }
	for _, n := range []int{1, 3, 4, 7, 8, 9, 12, 15, 16, 17, 31, 64, 1000} {
		for _, inc := range []int{1, 2} {
			x, y := testbatch.Uniform[T](61, 1, n, inc), testbatch.Uniform[T](62, 1, n, inc)
			var want, abs float64
			for i := range n {
				want += float64(x[i*inc]) * float64(y[i*inc])
				abs += math.Abs(float64(x[i*inc]) * float64(y[i*inc]))
			}
			got := dot(n, x, inc, y, inc)
			d := math.Abs(float64(got) - want)
			require.LessOrEqual(t, d, gamma(n+1)*abs, "n=%d inc=%d: %g, want %g: error %g > bound %g", n, inc, got, want, d, gamma(n+1)*abs)
			require.False(t, inc == 1 && got != Dot(x, y), "n=%d: %g, Dot %g", n, got, Dot(x, y))
			for off := 1; off < 4; off++ {
				g := dot(n, moved(x, off), inc, moved(y, (off+1)%4), inc)
				require.Equal(t, math.Float64bits(float64(got)), math.Float64bits(float64(g)), "n=%d inc=%d, moved by %d: %g, at offset 0 %g", n, inc, off, g, got)
			}
		}
	}
}

// TestImplementationConcurrent: Implementation's products with a transposed B, whose buffers
// come from a pool, give every goroutine its own product when run concurrently (as graphs
// on several goroutines run them): 8 goroutines × 20 products of different operands, each
// the bits of the same product run alone.
func TestImplementationConcurrent(t *testing.T) {
	var impl Implementation
	const m, n, k = 33, 24, 17
	want := make([][]float64, 8)
	for w := range want {
		a, b := testbatch.Uniform[float64](uint64(70+w), 1, m, k), testbatch.Uniform[float64](uint64(80+w), 1, n, k)
		want[w] = make([]float64, m*n)
		impl.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, b, k, 0, want[w], n)
	}
	errs := make(chan error, len(want))
	for w := range want {
		go func() {
			a, b := testbatch.Uniform[float64](uint64(70+w), 1, m, k), testbatch.Uniform[float64](uint64(80+w), 1, n, k)
			c := make([]float64, m*n)
			for range 20 {
				impl.Dgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, b, k, 0, c, n)
				for i := range c {
					if math.Float64bits(c[i]) != math.Float64bits(want[w][i]) {
						errs <- fmt.Errorf("goroutine %d: C[%d] = %g, alone %g", w, i, c[i], want[w][i])
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range want {
		require.NoError(t, <-errs)
	}
}
