package nn

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/sgemm"
)

// ErrNoPass is returned (wrapped) by NewPass for a model that is not one of this package's
// networks ([MLP]); such a model is trained and scored through its Gorgonia graph.
var ErrNoPass = errors.New("nn: no direct pass for this model")

// Pass is the forward and backward pass of an [MLP] over batches of a fixed
// number of rows B, computed with BLAS matrix products (the one gorgonia.WhichBLAS returns
// when the pass is made) into buffers allocated once. Under the default build's BLAS (gonum's
// pure-Go BLAS with its products routed to this module's kernels, installed by this package),
// a pass of either dtype multiplies with this module's AVX2 kernels where the processor has
// them, and a float32 pass does under gonum's own BLAS too: gonum's products add one scaled
// row at a time, which at these shapes made its float32 product no faster than its float64
// one and its float64 training step 2–3× slower than on the kernels (docs/benchmarks.md).
// There its results depend on the values alone, not on where the parameters and buffers are
// allocated, so a model trains to the same bits every time (gonum's own float32 dot product
// rounds by the alignment of its operands).
// It builds no graph, runs no machine and computes no gradient for the input rows. For the
// network of the package doc, with zˡ = hˡ⁻¹·Wˡ + bˡ and hˡ = φ(zˡ), a backward pass from
// δ = ∂L/∂s computes
//
//	∂L/∂zᴸ⁺¹ = δ,   ∂L/∂Wˡ = (hˡ⁻¹)ᵀ·∂L/∂zˡ,   ∂L/∂bˡ = Σ_rows ∂L/∂zˡ,
//	∂L/∂zˡ⁻¹ = (∂L/∂zˡ·(Wˡ)ᵀ) ∘ φ′(zˡ⁻¹)
//
// (φ′ of ReLU is 1 at 0, as in Gorgonia's graphs). A layer with a LoRA adapter ([Transfer])
// adds uˡ·(Bˡ)ᵀ to zˡ, uˡ = s·hˡ⁻¹·(Aˡ)ᵀ, and its backward pass computes
//
//	∂L/∂Bˡ = (∂L/∂zˡ)ᵀ·uˡ,   ∂L/∂cˡ = s·∂L/∂zˡ·Bˡ,   ∂L/∂Aˡ = (∂L/∂cˡ)ᵀ·hˡ⁻¹,
//
// with cˡ = hˡ⁻¹·(Aˡ)ᵀ, and adds ∂L/∂cˡ·Aˡ to ∂L/∂hˡ⁻¹. No gradient is computed for frozen
// parameters, nor for any layer below the lowest one with a trainable parameter. The pass
// reads the model's parameter tensors in place, so an update of the model is seen by the next
// Forward; it must not run concurrently with one. A Pass is not safe for concurrent use.
type Pass struct {
	rows   int
	input  *tensor.Dense
	scores []float64
	grads  []*tensor.Dense
	run    passRunner
}

// passRunner is the dtype-specific part of a Pass.
type passRunner interface {
	forward(scores []float64)
	backward(dscores []float64)
}

// NewPass returns the pass of m for batches of rows rows. m must be a *MLP or an *MLP
// (otherwise the error wraps ErrNoPass) and rows at least 1.
func NewPass(m Model, rows int) (*Pass, error) {
	var n *network
	switch m := m.(type) {
	case *MLP: // and *MLP, the same type
		n = &m.network
	default:
		return nil, fmt.Errorf("%w: %T", ErrNoPass, m)
	}
	width := max(1, n.in) // the widest matrix of a row: the input, a layer's output or an adapter's rank
	for _, l := range n.layers {
		width = max(width, l.weight.Shape()[1])
		if l.lora != nil {
			width = max(width, l.lora.rank())
		}
	}
	switch {
	case rows < 1:
		return nil, fmt.Errorf("%w: a pass needs at least one row, got %d", ErrInput, rows)
	case rows > math.MaxInt/width:
		return nil, fmt.Errorf("%w: a pass of %d rows of %d values overflows a slice", ErrInput, rows, width)
	case len(n.layers) == 0:
		return nil, fmt.Errorf("%w: a network without layers (make it with NewMLP)", ErrInput)
	case n.dtype != tensor.Float64 && n.dtype != tensor.Float32:
		return nil, fmt.Errorf("%w: model dtype %v (want float32 or float64)", ErrInput, n.dtype)
	}
	p := &Pass{rows: rows, scores: make([]float64, rows*n.Outputs())}
	p.input = tensor.New(tensor.Of(n.dtype), tensor.WithShape(rows, n.in))
	for _, prm := range n.Params() {
		p.grads = append(p.grads, tensor.New(tensor.Of(n.dtype), tensor.WithShape(prm.Value.Shape()...)))
	}
	// Under the default build's sgemm.Implementation, the pass takes sgemm's kernels with
	// buffers of its own (gonum's routines as their fallback) in both dtypes; under gonum's
	// own BLAS, in float32 only, so that gorgonia.Use(gonum.Implementation{}) gives the
	// float64 products of gonum, bit for bit.
	bl, own32, own64 := gorgonia.WhichBLAS(), false, false
	switch b := bl.(type) {
	case sgemm.Implementation:
		bl, own32, own64 = b.Implementation, true, true
	case gonum.Implementation:
		own32 = true
	}
	switch n.dtype {
	case tensor.Float64:
		p.run = newPassOf(n, rows, p.input.Float64s(), p.grads, passBLAS(own64, bl.Dgemm, bl.Dgemv, bl.Dger), (*tensor.Dense).Float64s)
	case tensor.Float32:
		p.run = newPassOf(n, rows, p.input.Float32s(), p.grads, passBLAS(own32, bl.Sgemm, bl.Sgemv, bl.Sger), (*tensor.Dense).Float32s)
	}
	return p, nil
}

// passBLAS returns a pass's routines: gemm, gemv and ger as they are, or, with own, sgemm's
// New and NewGemv over gemm and gemv.
func passBLAS[T floats.Float](own bool, gemm sgemm.Func[T], gemv sgemm.GemvFunc[T], ger func(m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int)) blasOf[T] {
	if own {
		gemm, gemv = sgemm.New(gemm), sgemm.NewGemv(gemv)
	}
	return blasOf[T]{gemm, gemv, ger}
}

// Rows returns the batch size B.
func (p *Pass) Rows() int { return p.rows }

// Input returns the input matrix, B × InputSize() in the model's dtype, row-major. Fill it
// before Forward.
func (p *Pass) Input() *tensor.Dense { return p.input }

// copyInto copies x into the float32 or float64 tensor d of the same length, converting
// (rounding to nearest for a float64 x and a float32 d).
func copyInto[T floats.Float](d *tensor.Dense, x []T) {
	switch d := d.Data().(type) {
	case []float64:
		if x64, ok := any(x).([]float64); ok {
			copy(d, x64)
			return
		}
		for i, v := range x {
			d[i] = float64(v)
		}
	case []float32:
		for i, v := range x {
			d[i] = float32(v)
		}
	}
}

// Forward computes the scores of the input rows: B values, or B·k row-major (row i's k scores
// at [i·k, (i+1)·k)) for a model of k outputs. The returned slice belongs to the pass and is
// overwritten by the next Forward.
func (p *Pass) Forward() []float64 {
	p.run.forward(p.scores)
	return p.scores
}

// Backward computes the gradient of a loss L with respect to every parameter that is not
// frozen from dscores = ∂L/∂s for the scores of the last Forward, and stores it in Grads
// (overwriting, not accumulating); a frozen parameter's gradient stays zero. It goes down the
// layers no further than the lowest one with a trainable parameter, so a frozen body under a
// trainable head costs the head's backward work alone. dscores must hold B values, or B·k
// row-major for k outputs, in the layout of Forward.
func (p *Pass) Backward(dscores []float64) error {
	if len(dscores) != len(p.scores) {
		return fmt.Errorf("%w: %d score gradients for a pass of %d rows of %d scores",
			ErrInput, len(dscores), p.rows, len(p.scores)/p.rows)
	}
	p.run.backward(dscores)
	return nil
}

// Grads returns the gradient tensors of the last Backward, in Params order and with the
// parameters' shapes and dtype; those of frozen parameters hold zeros. They belong to the pass.
func (p *Pass) Grads() []*tensor.Dense { return p.grads }

// blasOf holds the BLAS routines a pass uses, row-major: the matrix product
// C ← α·op(A)·op(B) + β·C, the matrix–vector product y ← α·op(A)·x + β·y and the rank-one
// update A ← α·x·yᵀ + A. The output layer, one column wide, takes the last two: they are
// serial and allocate nothing, where a matrix product may start goroutines.
type blasOf[T floats.Float] struct {
	gemm func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
	gemv func(tA blas.Transpose, m, n int, alpha T, a []T, lda int, x []T, incX int, beta T, y []T, incY int)
	ger  func(m, n int, alpha T, x []T, incX int, y []T, incY int, a []T, lda int)
}

// passOf is the pass for element type T.
type passOf[T floats.Float] struct {
	rows   int
	x      []T
	ones   []T // B ones, to sum columns with a matrix–vector product
	layers []passLayer[T]
	lowest int // the lowest layer with a trainable parameter: Backward stops there
	blas   blasOf[T]
}

// passLayer holds one layer's parameters (the model's own), gradients and buffers.
type passLayer[T floats.Float] struct {
	in, out int
	act     Activation
	frozen  bool // W and b are frozen: their gradients stay zero
	w, b    []T  // the parameters: W (in × out) and b (out)
	dw, db  []T  // their gradients
	z, h    []T  // B × out: the affine output and the activation (h aliases z for Identity)
	dz      []T  // B × out: ∂L/∂z
	lora    *passAdapter[T]
}

// passAdapter holds a LoRA adapter's parameters (the model's own), gradients and buffers, for
// z += s·(h·Aᵀ)·Bᵀ. The products of width r are formed transposed, r × B, so that none of
// them is r columns wide: a float32 product narrower than 16 columns misses the fast kernels.
type passAdapter[T floats.Float] struct {
	r      int
	scale  T   // s = α/r
	a, b   []T // A (r × in) and B (out × r)
	da, db []T // their gradients
	u      []T // r × B: s·(h·Aᵀ)ᵀ = s·A·hᵀ
	du     []T // r × B: (∂L/∂(h·Aᵀ))ᵀ
	dbT    []T // r × out: (∂L/∂B)ᵀ
}

func newPassOf[T floats.Float](n *network, rows int, x []T, grads []*tensor.Dense, bl blasOf[T], data func(*tensor.Dense) []T) *passOf[T] {
	p := &passOf[T]{rows: rows, x: x, blas: bl, ones: make([]T, rows), layers: make([]passLayer[T], len(n.layers)),
		lowest: n.lowestTrainable()}
	for i := range p.ones {
		p.ones[i] = 1
	}
	in, g := n.in, 0 // g: the layer's first gradient
	for k, l := range n.layers {
		out := l.weight.Shape()[1]
		pl := passLayer[T]{
			in: in, out: out, act: l.act, frozen: l.frozen,
			w: data(l.weight), b: data(l.bias),
			dw: data(grads[g]), db: data(grads[g+1]),
			z: make([]T, rows*out), dz: make([]T, rows*out),
		}
		g += 2
		pl.h = pl.z
		if l.act != Identity {
			pl.h = make([]T, rows*out)
		}
		if ad := l.lora; ad != nil {
			r := ad.rank()
			pl.lora = &passAdapter[T]{r: r, scale: T(ad.scale()), a: data(ad.a), b: data(ad.b),
				da: data(grads[g]), db: data(grads[g+1]), u: make([]T, r*rows), du: make([]T, r*rows), dbT: make([]T, r*out)}
			g += 2
		}
		p.layers[k] = pl
		in = out
	}
	return p
}

func (p *passOf[T]) forward(scores []float64) {
	src := p.x
	for k := range p.layers {
		l := &p.layers[k]
		for r := range p.rows {
			copy(l.z[r*l.out:(r+1)*l.out], l.b)
		}
		if l.out == 1 {
			p.blas.gemv(blas.NoTrans, p.rows, l.in, 1, src, l.in, l.w, 1, 1, l.z, 1)
		} else {
			p.blas.gemm(blas.NoTrans, blas.NoTrans, p.rows, l.out, l.in, 1, src, l.in, l.w, l.out, 1, l.z, l.out)
		}
		if ad := l.lora; ad != nil { // uᵀ = s·A·hᵀ, z += u·Bᵀ
			for q := range ad.r { // row q of uᵀ is h·(row q of A)
				p.blas.gemv(blas.NoTrans, p.rows, l.in, 1, src, l.in, ad.a[q*l.in:(q+1)*l.in], 1, 0, ad.u[q*p.rows:(q+1)*p.rows], 1)
			}
			if ad.scale != 1 {
				for i := range ad.u {
					ad.u[i] *= ad.scale
				}
			}
			p.blas.gemm(blas.Trans, blas.Trans, p.rows, l.out, ad.r, 1, ad.u, p.rows, ad.b, ad.r, 1, l.z, l.out)
		}
		z, h := l.z, l.h[:len(l.z)] // locals: the compiler reloads fields after every store
		switch l.act {
		case ReLU:
			for i, v := range z {
				h[i] = max(v, 0)
			}
		case Tanh:
			for i, v := range z {
				h[i] = T(math.Tanh(float64(v)))
			}
		}
		src = l.h
	}
	for i, v := range src { // the output layer's B × k values, row-major
		scores[i] = float64(v)
	}
}

// backward runs from the output layer down to the lowest layer with a trainable parameter,
// computing the gradients of the trainable parameters only and ∂L/∂z of the layers above that
// one.
func (p *passOf[T]) backward(dscores []float64) {
	if p.lowest == len(p.layers) {
		return // every parameter is frozen
	}
	top := &p.layers[len(p.layers)-1]
	dz := top.dz[:len(dscores)]
	for i, d := range dscores {
		dz[i] = T(d)
	}
	for k := len(p.layers) - 1; k >= p.lowest; k-- {
		l := &p.layers[k]
		src := p.x
		if k > 0 {
			src = p.layers[k-1].h
		}
		if !l.frozen {
			if l.out == 1 {
				p.blas.gemv(blas.Trans, p.rows, l.in, 1, src, l.in, l.dz, 1, 0, l.dw, 1)
			} else {
				p.blas.gemm(blas.Trans, blas.NoTrans, l.in, l.out, p.rows, 1, src, l.in, l.dz, l.out, 0, l.dw, l.out)
			}
			p.blas.gemv(blas.Trans, p.rows, l.out, 1, l.dz, l.out, p.ones, 1, 0, l.db, 1) // column sums
		}
		ad := l.lora
		if ad != nil {
			// (∂L/∂B)ᵀ = uᵀ·∂L/∂z with u = s·(h·Aᵀ); (∂L/∂(h·Aᵀ))ᵀ = s·Bᵀ·(∂L/∂z)ᵀ;
			// ∂L/∂A = (∂L/∂(h·Aᵀ))ᵀ·h.
			p.blas.gemm(blas.NoTrans, blas.NoTrans, ad.r, l.out, p.rows, 1, ad.u, p.rows, l.dz, l.out, 0, ad.dbT, l.out)
			for j := range ad.r {
				for o, v := range ad.dbT[j*l.out : (j+1)*l.out] {
					ad.db[o*ad.r+j] = v
				}
			}
			p.blas.gemm(blas.Trans, blas.Trans, ad.r, p.rows, l.out, 1, ad.b, ad.r, l.dz, l.out, 0, ad.du, p.rows)
			if ad.scale != 1 {
				for i := range ad.du {
					ad.du[i] *= ad.scale
				}
			}
			p.blas.gemm(blas.NoTrans, blas.NoTrans, ad.r, l.in, p.rows, 1, ad.du, p.rows, src, l.in, 0, ad.da, l.in)
		}
		if k == p.lowest {
			break // no gradient below: for the input rows, or for frozen layers
		}
		below := &p.layers[k-1]
		if l.out == 1 {
			clear(below.dz)
			p.blas.ger(p.rows, l.in, 1, l.dz, 1, l.w, 1, below.dz, l.in)
		} else {
			p.blas.gemm(blas.NoTrans, blas.Trans, p.rows, l.in, l.out, 1, l.dz, l.out, l.w, l.out, 0, below.dz, l.in)
		}
		if ad != nil { // ∂L/∂h += ∂L/∂(h·Aᵀ)·A
			p.blas.gemm(blas.Trans, blas.NoTrans, p.rows, l.in, ad.r, 1, ad.du, p.rows, ad.a, l.in, 1, below.dz, l.in)
		}
		switch below.act {
		case ReLU:
			reluBackward(below.dz, below.z)
		case Tanh:
			dz := below.dz[:len(below.h)]
			for i, h := range below.h {
				dz[i] *= 1 - h*h
			}
		}
	}
}

// reluBackward multiplies dz by the ReLU's derivative at z: it zeroes dz[i] where z[i] < 0
// and keeps it where z[i] ≥ 0, ±0 included (φ′(0) = 1, as in Gorgonia's graphs). It works on
// the bits — clear every bit of dz[i] where z[i]'s sign bit is set and z[i] is not ±0 — so
// there is no branch on the sign, which half the units would mispredict, nor a conversion.
// A zeroed entry is +0 (dz·0 would give −0 for a negative dz; the sums it enters are the
// same).
func reluBackward[T floats.Float](dz, z []T) {
	if unsafe.Sizeof(T(0)) == 4 {
		clearNegative(bitsOf[uint32](dz), bitsOf[uint32](z))
	} else {
		clearNegative(bitsOf[uint64](dz), bitsOf[uint64](z))
	}
}

// bitsOf returns x's memory as a slice of unsigned integers of T's size.
func bitsOf[U uint32 | uint64, T floats.Float](x []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
}

// clearNegative is reluBackward on the bits of IEEE 754 numbers.
func clearNegative[U uint32 | uint64](dz, z []U) {
	const one = 1
	shift := 8*unsafe.Sizeof(U(0)) - 1
	z = z[:len(dz)]
	for i, b := range z {
		m := -(b >> shift) // every bit set where the sign bit is
		if b<<one == 0 {   // ±0: a branch almost never taken
			m = 0
		}
		dz[i] &^= m
	}
}
