package nn

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"unsafe"

	"github.com/chewxy/hm"
	"github.com/chewxy/math32"
	"gonum.org/v1/gonum/blas"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/relu"
	"github.com/rocops/rocops/internal/sgemm"
)

// The Gorgonia ops of a network's graph (see Build). Each layer is one node for the affine
// map z = h·W + b (the bias added to every row) and, in a hidden layer, one for its activation
// h′ = φ(z). Their gradients are nodes of their own, from δ = ∂L/∂z:
//
//	∂L/∂h = δ·Wᵀ,   ∂L/∂W = hᵀ·δ,   ∂L/∂b = Σ_rows δ,   ∂L/∂z = ∂L/∂h′ ⊙ φ′(z),
//
// with h the layer's input (B × n_in), W its weights (n_in × n_out), b its bias (n_out) and
// δ, z and h′ B × n_out. They compute what the graph of Gorgonia's own ops computes — x·W
// (gorgonia.Mul), + b (gorgonia.BroadcastAdd), gorgonia.Rectify or gorgonia.Tanh, and their
// gradients, the graph Build made before its layers were ops of this package — operation for
// operation, with the same bits: the products are the installed BLAS's, called as
// tensor.MatMul calls them; the ReLU multiplies by the mask [z ≥ 0], as Rectify does, and
// its gradient multiplies by the same mask; tanh is math.Tanh in float64 and math32.Tanh in
// float32, its gradient (1 − h′⊙h′)⊙∂L/∂h′; the bias gradient sums the rows in order, as
// tensor's Sum along the first axis does. A product narrower than sgemm.Implementation's
// kernels (a one-column output layer, or a layer of fewer than 8 units in float64, 16 in
// float32), which that BLAS hands whole to gonum's and gonum splits across goroutines, is
// computed here in gonum's order (see gonumProduct), serially.
//
// Every op writes its result into a tensor of its own, allocated at its first run and
// returned by every run after, so a TapeMachine running the graph again allocates no value of
// the batch's size (its own machinery still allocates a little per instruction). A node's
// value is therefore valid until the next run of the graph; the ops of one graph must not run
// concurrently. They implement DoDiff for a LispMachine as well.

// graphOps holds what the ops of one graph share: the matrix product.
type graphOps[T floats.Float] struct {
	rows int
	gemm sgemm.Func[T] // the installed BLAS's Sgemm or Dgemm
	// own: the BLAS is sgemm.Implementation, whose products narrower than its kernels are
	// gonum's, which gonumProduct computes without goroutines.
	own bool
}

func newGraphOps[T floats.Float](rows int) *graphOps[T] {
	bl := gorgonia.WhichBLAS()
	_, own := bl.(sgemm.Implementation)
	var gemm any = sgemm.Func[float64](bl.Dgemm)
	if unsafe.Sizeof(T(0)) == 4 {
		gemm = sgemm.Func[float32](bl.Sgemm)
	}
	return &graphOps[T]{rows: rows, gemm: gemm.(sgemm.Func[T]), own: own}
}

// product sets the m × n matrix c (row stride ldc) to op(A)·op(B), op(A) = A or Aᵀ (m × k),
// op(B) = B or Bᵀ (k × n), row-major with strides lda and ldb: the BLAS product with α = 1
// and β = 0, as tensor.MatMul calls it for a Gorgonia product.
func (ops *graphOps[T]) product(tA, tB blas.Transpose, m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int) {
	if ops.own && n < 64/int(unsafe.Sizeof(T(0))) {
		gonumProduct(tA, tB, m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	ops.gemm(tA, tB, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
}

// gonumProduct is the product of gonum's Sgemm and Dgemm with α = 1 and β = 0 after
// sgemm.Implementation's preparation (a transposed B copied, transposed, so gonum multiplies
// by B): every entry c_ij = Σ_l op(A)_il·op(B)_lj starts at +0 and adds the products one at a
// time, l = 0, 1, …, k−1, each rounded before it is added, skipping the l where op(A)_il = 0.
// Adding such a term (±0 when op(B)_lj is finite) could not change the sum (a sum that
// starts at +0 is never −0), so the skip is kept only where op(B) holds ±Inf or NaN, which
// would make the term NaN; elsewhere every term is added, without a branch. The same entry
// sums are formed in whichever order the loops visit the entries.
func gonumProduct[T floats.Float](tA, tB blas.Transpose, m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int) {
	ta, sa := lda, 1 // op(A)_il = a[i*ta + l*sa]
	if tA != blas.NoTrans {
		ta, sa = 1, lda
	}
	tb, sb := ldb, 1 // op(B)_lj = b[l*tb + j*sb]
	if tB != blas.NoTrans {
		tb, sb = 1, ldb
	}
	all := true // every op(B)_lj finite: no term needs skipping
	for l := range k {
		for j := range n {
			if v := float64(b[l*tb+j*sb]); math.IsInf(v, 0) || math.IsNaN(v) {
				all = false
			}
		}
	}
	for i := range m {
		clear(c[i*ldc : i*ldc+n])
	}
	if tA != blas.NoTrans && all && n == 1 && k >= 4 { // c_i = Σ_l A_li·b_l, four l at a time
		l := 0
		for ; l+4 <= k; l += 4 {
			b0, b1, b2, b3 := b[l*tb], b[(l+1)*tb], b[(l+2)*tb], b[(l+3)*tb]
			r0, r1, r2, r3 := a[l*lda:l*lda+m], a[(l+1)*lda:(l+1)*lda+m], a[(l+2)*lda:(l+2)*lda+m], a[(l+3)*lda:(l+3)*lda+m]
			r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
			for i, v := range r0 {
				s := c[i*ldc]
				s += T(v * b0)
				s += T(r1[i] * b1)
				s += T(r2[i] * b2)
				s += T(r3[i] * b3)
				c[i*ldc] = s
			}
		}
		for ; l < k; l++ {
			bl := b[l*tb]
			for i, v := range a[l*lda : l*lda+m] {
				c[i*ldc] += T(v * bl)
			}
		}
		return
	}
	if tA != blas.NoTrans { // A stored k × m: visit it row by row, accumulating in c
		for l := range k {
			for i := range m {
				v := a[l*lda+i]
				if !all && v == 0 {
					continue
				}
				for j := range n {
					c[i*ldc+j] += T(v * b[l*tb+j*sb])
				}
			}
		}
		return
	}
	i := 0
	if all && n == 1 { // four rows at a time: four independent sums in flight
		for ; i+4 <= m; i += 4 {
			a0, a1, a2, a3 := a[i*ta:i*ta+k], a[(i+1)*ta:(i+1)*ta+k], a[(i+2)*ta:(i+2)*ta+k], a[(i+3)*ta:(i+3)*ta+k]
			var s0, s1, s2, s3 T
			for l := range k {
				w := b[l*tb]
				s0 += T(a0[l] * w)
				s1 += T(a1[l] * w)
				s2 += T(a2[l] * w)
				s3 += T(a3[l] * w)
			}
			c[i*ldc], c[(i+1)*ldc], c[(i+2)*ldc], c[(i+3)*ldc] = s0, s1, s2, s3
		}
	}
	for ; i < m; i++ {
		for j := range n {
			var s T
			for l := range k {
				v := a[i*ta+l*sa]
				if all || v != 0 {
					s += T(v * b[l*tb+j*sb])
				}
			}
			c[i*ldc+j] = s
		}
	}
}

// output is an op's result: a tensor of a fixed shape over a slice allocated at the first run.
type output[T floats.Float] struct {
	shape tensor.Shape
	data  []T
	t     *tensor.Dense
}

// next returns the slice and the tensor to write the run's result into. A tensor whose shape a
// node downstream changed in place (a Reshape reshapes its input when nothing else reads it)
// is replaced by a new one over the same slice.
func (o *output[T]) next() ([]T, *tensor.Dense) {
	switch {
	case o.t == nil:
		o.data = make([]T, o.shape.TotalSize())
		fallthrough
	case !sameShape(o.t.Shape(), o.shape):
		o.t = tensor.New(tensor.WithShape(o.shape.Clone()...), tensor.WithBacking(o.data))
	}
	return o.data, o.t
}

// sameShape reports whether a and b have the same dimensions (tensor.Shape.Eq holds a vector
// of n equal to an n × 1 matrix).
func sameShape(a, b tensor.Shape) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// values returns the data of vs as []T, each of the length of want's entry, or why not (what
// names the op). It allocates nothing: an op calls it on every run.
func values[T floats.Float](what fmt.Stringer, vs []gorgonia.Value, want ...int) ([3][]T, error) {
	var out [3][]T
	if len(vs) != len(want) || len(vs) > len(out) {
		return out, fmt.Errorf("%w: %v takes %d inputs, got %d", ErrInput, what, len(want), len(vs))
	}
	for i, v := range vs {
		d, ok := dataOf[T](v)
		if !ok || len(d) != want[i] {
			return out, fmt.Errorf("%w: %v: input %d holds %T of %d values, want %d of %T", ErrInput, what, i, v.Data(), len(d), want[i], T(0))
		}
		out[i] = d
	}
	return out, nil
}

// dataOf returns the values of v, a *tensor.Dense of T, without the allocation of v.Data().
func dataOf[T floats.Float](v gorgonia.Value) ([]T, bool) {
	d, ok := v.(*tensor.Dense)
	if !ok || d == nil {
		return nil, false
	}
	if unsafe.Sizeof(T(0)) == 4 {
		if d.Dtype() != tensor.Float32 {
			return nil, false
		}
		f := d.Float32s()
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(f))), len(f)), true
	}
	if d.Dtype() != tensor.Float64 {
		return nil, false
	}
	f := d.Float64s()
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(f))), len(f)), true
}

// tensorType is the type of a tensor of dims dimensions of the type variable a.
func tensorType(dims int) gorgonia.TensorType {
	return gorgonia.TensorType{Dims: dims, Of: hm.TypeVariable('a')}
}

// hashOf is an op's Hashcode: the FNV-1a hash of its WriteHash.
func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}

// affineOp is z = h·W + b of layer k, for B rows of n_in inputs and n_out outputs; z is a
// vector of B scores when vector is set (the one-column output layer of a model of one
// score, whose graph of Gorgonia's ops reshaped it to (B)), a B × n_out matrix otherwise.
type affineOp[T floats.Float] struct {
	*graphOps[T]
	k, in, out int
	vector     bool
	z          output[T]
	lisp       [3]*affineGradOp[T] // the gradients DoDiff computes
}

func newAffineOp[T floats.Float](ops *graphOps[T], k, in, out int, vector bool) *affineOp[T] {
	op := &affineOp[T]{graphOps: ops, k: k, in: in, out: out, vector: vector}
	op.z.shape = tensor.Shape{op.rows, op.out}
	if vector {
		op.z.shape = tensor.Shape{op.rows}
	}
	return op
}

func (op *affineOp[T]) Arity() int { return 3 }
func (op *affineOp[T]) Type() hm.Type {
	return hm.NewFnType(tensorType(2), tensorType(2), tensorType(1), tensorType(op.z.shape.Dims()))
}
func (op *affineOp[T]) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return op.z.shape.Clone(), nil
}

// Do computes h·W, then adds b to every row.
func (op *affineOp[T]) Do(inputs ...gorgonia.Value) (gorgonia.Value, error) {
	v, err := values[T](op, inputs, op.rows*op.in, op.in*op.out, op.out)
	if err != nil {
		return nil, err
	}
	h, w, b := v[0], v[1], v[2]
	z, t := op.z.next()
	op.product(blas.NoTrans, blas.NoTrans, op.rows, op.out, op.in, h, op.in, w, op.out, z, op.out)
	for r := range op.rows {
		row := z[r*op.out : (r+1)*op.out]
		for j, bj := range b {
			row[j] += bj
		}
	}
	return t, nil
}

func (op *affineOp[T]) ReturnsPtr() bool     { return false }
func (op *affineOp[T]) CallsExtern() bool    { return false }
func (op *affineOp[T]) OverwritesInput() int { return -1 }
func (op *affineOp[T]) String() string {
	return fmt.Sprintf("layer%d.affine(%d×%d→%v)", op.k, op.rows, op.in, op.z.shape)
}
func (op *affineOp[T]) WriteHash(h hash.Hash) { fmt.Fprintf(h, "nn.%v:%T", op, T(0)) }
func (op *affineOp[T]) Hashcode() uint32      { return hashOf(op) }

// DiffWRT: differentiable in h, W and b.
func (op *affineOp[T]) DiffWRT(int) []bool { return []bool{true, true, true} }

// grad returns the op of the gradient with respect to input wrt.
func (op *affineOp[T]) grad(wrt int) *affineGradOp[T] {
	g := &affineGradOp[T]{fwd: op, wrt: wrt}
	g.d.shape = [3]tensor.Shape{{op.rows, op.in}, {op.in, op.out}, {op.out}}[wrt]
	return g
}

// SymDiff returns the nodes of ∂L/∂h = δ·Wᵀ, ∂L/∂W = hᵀ·δ and ∂L/∂b = Σ_rows δ for δ = grad.
func (op *affineOp[T]) SymDiff(inputs gorgonia.Nodes, _, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%w: %v has 3 inputs, SymDiff got %d", ErrInput, op, len(inputs))
	}
	out := make(gorgonia.Nodes, 3)
	for i, in := range []gorgonia.Nodes{{grad, inputs[1]}, {inputs[0], grad}, {grad}} {
		var err error
		if out[i], err = gorgonia.ApplyOp(op.grad(i), in...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DoDiff adds ∂L/∂h, ∂L/∂W and ∂L/∂b to the gradients of the inputs (LispMachine).
func (op *affineOp[T]) DoDiff(_ gorgonia.ExecutionContext, inputs gorgonia.Nodes, output *gorgonia.Node) error {
	if len(inputs) != 3 {
		return fmt.Errorf("%w: %v has 3 inputs, DoDiff got %d", ErrInput, op, len(inputs))
	}
	dz, err := output.Grad()
	if err != nil {
		return fmt.Errorf("%w: %v: the upstream gradient: %v", ErrInput, op, err)
	}
	for i, in := range [][]gorgonia.Value{{dz, inputs[1].Value()}, {inputs[0].Value(), dz}, {dz}} {
		if op.lisp[i] == nil {
			op.lisp[i] = op.grad(i)
		}
		g, err := op.lisp[i].Do(in...)
		if err != nil {
			return err
		}
		if err := addGrad[T](op, inputs[i], g); err != nil {
			return err
		}
	}
	return nil
}

// addGrad adds g to the gradient (dual value) of n.
func addGrad[T floats.Float](what fmt.Stringer, n *gorgonia.Node, g gorgonia.Value) error {
	dv, err := n.Grad()
	if err != nil {
		return fmt.Errorf("%w: %v: the gradient of %v: %v", ErrInput, what, n.Name(), err)
	}
	d, err := values[T](what, []gorgonia.Value{dv, g}, n.Shape().TotalSize(), n.Shape().TotalSize())
	if err != nil {
		return err
	}
	for i, x := range d[1] {
		d[0][i] += x
	}
	return nil
}

// affineGradOp is the gradient of an affineOp with respect to its input wrt: ∂L/∂h from
// (δ, W), ∂L/∂W from (h, δ) or ∂L/∂b from (δ).
type affineGradOp[T floats.Float] struct {
	fwd *affineOp[T]
	wrt int // 0: h, 1: W, 2: b
	d   output[T]
}

func (op *affineGradOp[T]) Arity() int { return [3]int{2, 2, 1}[op.wrt] }
func (op *affineGradOp[T]) Type() hm.Type {
	dz := tensorType(op.fwd.z.shape.Dims())
	switch op.wrt {
	case 0:
		return hm.NewFnType(dz, tensorType(2), tensorType(2))
	case 1:
		return hm.NewFnType(tensorType(2), dz, tensorType(2))
	}
	return hm.NewFnType(dz, tensorType(1))
}
func (op *affineGradOp[T]) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return op.d.shape.Clone(), nil
}

func (op *affineGradOp[T]) Do(inputs ...gorgonia.Value) (gorgonia.Value, error) {
	f := op.fwd
	rows, in, out := f.rows, f.in, f.out
	want := [3][]int{{rows * out, in * out}, {rows * in, rows * out}, {rows * out}}[op.wrt]
	v, err := values[T](op, inputs, want...)
	if err != nil {
		return nil, err
	}
	d, t := op.d.next()
	switch op.wrt {
	case 0: // ∂L/∂h = δ·Wᵀ
		f.product(blas.NoTrans, blas.Trans, rows, in, out, v[0], out, v[1], out, d, in)
	case 1: // ∂L/∂W = hᵀ·δ
		f.product(blas.Trans, blas.NoTrans, in, out, rows, v[0], in, v[1], out, d, out)
	default: // ∂L/∂b = Σ_rows δ: the first row, then every other added in turn
		dz := v[0]
		copy(d, dz[:out])
		for r := 1; r < rows; r++ {
			for j, x := range dz[r*out : (r+1)*out] {
				d[j] += x
			}
		}
	}
	return t, nil
}

func (op *affineGradOp[T]) ReturnsPtr() bool     { return false }
func (op *affineGradOp[T]) CallsExtern() bool    { return false }
func (op *affineGradOp[T]) OverwritesInput() int { return -1 }
func (op *affineGradOp[T]) String() string {
	return fmt.Sprintf("∂%v/∂%s", op.fwd, [3]string{"h", "W", "b"}[op.wrt])
}
func (op *affineGradOp[T]) WriteHash(h hash.Hash) { fmt.Fprintf(h, "nn.%v:%T", op, T(0)) }
func (op *affineGradOp[T]) Hashcode() uint32      { return hashOf(op) }
func (op *affineGradOp[T]) DiffWRT(inputs int) []bool {
	return make([]bool, inputs)
}
func (op *affineGradOp[T]) SymDiff(gorgonia.Nodes, *gorgonia.Node, *gorgonia.Node) (gorgonia.Nodes, error) {
	return nil, fmt.Errorf("nn: %v is not differentiable", op)
}

// activationOp is h′ = φ(z) of a hidden layer k, φ ReLU or Tanh, on a B × n_out matrix.
type activationOp[T floats.Float] struct {
	k    int
	act  Activation
	h    output[T]
	lisp *activationGradOp[T] // the gradient DoDiff computes
}

func newActivationOp[T floats.Float](k int, act Activation, shape tensor.Shape) *activationOp[T] {
	op := &activationOp[T]{k: k, act: act}
	op.h.shape = shape.Clone()
	return op
}

func (op *activationOp[T]) Arity() int    { return 1 }
func (op *activationOp[T]) Type() hm.Type { return hm.NewFnType(tensorType(2), tensorType(2)) }
func (op *activationOp[T]) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return op.h.shape.Clone(), nil
}

// Do computes ReLU as z·[z ≥ 0] (Rectify's z ⊙ (z ≥ 0), so a negative z gives −0) and tanh
// as Gorgonia's Tanh does.
func (op *activationOp[T]) Do(inputs ...gorgonia.Value) (gorgonia.Value, error) {
	v, err := values[T](op, inputs, op.h.shape.TotalSize())
	if err != nil {
		return nil, err
	}
	h, t := op.h.next()
	z := v[0]
	h = h[:len(z)]
	switch op.act {
	case ReLU:
		rectify(h, z)
	case Tanh:
		if hf, ok := any(h).([]float32); ok {
			for i, x := range any(z).([]float32) {
				hf[i] = math32.Tanh(x)
			}
			break
		}
		for i, x := range z {
			h[i] = T(math.Tanh(float64(x)))
		}
	}
	return t, nil
}

// rectify sets h[i] = z[i]·[z[i] ≥ 0], Gorgonia's Rectify: z[i] where z[i] ≥ 0 (±0
// included), −0 for a negative finite z[i], and the product itself (NaN) for −Inf and NaN.
// The finite values are formed on their bits (z[i], or its sign alone for a negative z[i]),
// with no branch on the sign, which half the units would mispredict, and no multiplication.
func rectify[T floats.Float](h, z []T) {
	if unsafe.Sizeof(T(0)) == 4 {
		rectifyBits(bitsOf[uint32](h), bitsOf[uint32](z), 0x7f800000, 0x3f800000)
	} else {
		rectifyBits(bitsOf[uint64](h), bitsOf[uint64](z), 0x7ff0000000000000, 0x3ff0000000000000)
	}
}

// rectifyGrad sets d[i] = [z[i] ≥ 0]·dh[i], the gradient of Gorgonia's Rectify: dh[i] where
// z[i] ≥ 0, +0 with dh[i]'s sign (+0·dh[i]) elsewhere, and the product itself where dh[i] is
// ±Inf or NaN. As rectify, on the bits.
func rectifyGrad[T floats.Float](d, z, dh []T) {
	if unsafe.Sizeof(T(0)) == 4 {
		rectifyGradBits(bitsOf[uint32](d), bitsOf[uint32](z), bitsOf[uint32](dh), 0x7f800000, 0x3f800000)
	} else {
		rectifyGradBits(bitsOf[uint64](d), bitsOf[uint64](z), bitsOf[uint64](dh), 0x7ff0000000000000, 0x3ff0000000000000)
	}
}

// rectifyBits is rectify on IEEE 754 bits: inf is the bits of +Inf and one those of 1. The
// finite values come from internal/relu's kernels; ±Inf and NaN, which they report, take
// the product itself.
func rectifyBits[U uint32 | uint64](h, z []U, inf, one U) {
	var special bool
	if h32, ok := any(h).([]uint32); ok {
		special = relu.Forward32(h32, any(z).([]uint32))
	} else {
		special = relu.Forward64(any(h).([]uint64), any(z).([]uint64))
	}
	if !special {
		return
	}
	shift := 8*unsafe.Sizeof(U(0)) - 1
	for i, b := range z {
		if b&^(1<<shift) >= inf {
			h[i] = mulBits(b, maskBits(b, inf)*one)
		}
	}
}

// rectifyGradBits is rectifyGrad on IEEE 754 bits, as rectifyBits.
func rectifyGradBits[U uint32 | uint64](d, z, dh []U, inf, one U) {
	var special bool
	if d32, ok := any(d).([]uint32); ok {
		special = relu.Backward32(d32, any(z).([]uint32), any(dh).([]uint32))
	} else {
		special = relu.Backward64(any(d).([]uint64), any(z).([]uint64), any(dh).([]uint64))
	}
	if !special {
		return
	}
	shift := 8*unsafe.Sizeof(U(0)) - 1
	for i, b := range z {
		if g := dh[i]; b&^(1<<shift) >= inf || g&^(1<<shift) >= inf {
			d[i] = mulBits(maskBits(b, inf)*one, g)
		}
	}
}

// maskBits returns 1 where the float of bits b is ≥ 0 (+0 and −0 included) and 0 elsewhere
// (NaN included), the mask of Gorgonia's Rectify, by integer arithmetic alone; inf is the
// bits of +Inf.
func maskBits[U uint32 | uint64](b, inf U) U {
	shift := 8*unsafe.Sizeof(U(0)) - 1
	abs := b &^ (1 << shift)
	neg := b >> shift          // 1 for a set sign bit
	zero := (abs - 1) >> shift // 1 for ±0
	nan := (inf - abs) >> shift
	return ((neg ^ 1) | zero) &^ nan
}

// mulBits returns the bits of the product of the floats of bits a and b.
func mulBits[U uint32 | uint64](a, b U) U {
	if unsafe.Sizeof(a) == 4 {
		return U(math.Float32bits(math.Float32frombits(uint32(a)) * math.Float32frombits(uint32(b))))
	}
	return U(math.Float64bits(math.Float64frombits(uint64(a)) * math.Float64frombits(uint64(b))))
}

func (op *activationOp[T]) ReturnsPtr() bool     { return false }
func (op *activationOp[T]) CallsExtern() bool    { return false }
func (op *activationOp[T]) OverwritesInput() int { return -1 }
func (op *activationOp[T]) String() string {
	return fmt.Sprintf("layer%d.%v%v", op.k, op.act, op.h.shape)
}
func (op *activationOp[T]) WriteHash(h hash.Hash) { fmt.Fprintf(h, "nn.%v:%T", op, T(0)) }
func (op *activationOp[T]) Hashcode() uint32      { return hashOf(op) }
func (op *activationOp[T]) DiffWRT(int) []bool    { return []bool{true} }

// grad returns the op of the gradient.
func (op *activationOp[T]) grad() *activationGradOp[T] {
	g := &activationGradOp[T]{fwd: op}
	g.d.shape = op.h.shape.Clone()
	return g
}

// SymDiff returns the node of ∂L/∂z = ∂L/∂h′ ⊙ φ′(z), from z for ReLU and from h′ for Tanh
// (φ′ = 1 − h′²).
func (op *activationOp[T]) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%w: %v has 1 input, SymDiff got %d", ErrInput, op, len(inputs))
	}
	at := inputs[0]
	if op.act == Tanh {
		at = output
	}
	n, err := gorgonia.ApplyOp(op.grad(), at, grad)
	return gorgonia.Nodes{n}, err
}

// DoDiff adds ∂L/∂z to the gradient of z (LispMachine).
func (op *activationOp[T]) DoDiff(_ gorgonia.ExecutionContext, inputs gorgonia.Nodes, output *gorgonia.Node) error {
	if len(inputs) != 1 {
		return fmt.Errorf("%w: %v has 1 input, DoDiff got %d", ErrInput, op, len(inputs))
	}
	dh, err := output.Grad()
	if err != nil {
		return fmt.Errorf("%w: %v: the upstream gradient: %v", ErrInput, op, err)
	}
	at := inputs[0].Value()
	if op.act == Tanh {
		at = output.Value()
	}
	if op.lisp == nil {
		op.lisp = op.grad()
	}
	g, err := op.lisp.Do(at, dh)
	if err != nil {
		return err
	}
	return addGrad[T](op, inputs[0], g)
}

// activationGradOp is ∂L/∂z = ∂L/∂h′ ⊙ φ′ of an activationOp, from (z, ∂L/∂h′) for ReLU,
// [z ≥ 0]·∂L/∂h′, and (h′, ∂L/∂h′) for Tanh, (1 − h′·h′)·∂L/∂h′, as Gorgonia's gradients of
// Rectify and Tanh compute them.
type activationGradOp[T floats.Float] struct {
	fwd *activationOp[T]
	d   output[T]
}

func (op *activationGradOp[T]) Arity() int { return 2 }
func (op *activationGradOp[T]) Type() hm.Type {
	return hm.NewFnType(tensorType(2), tensorType(2), tensorType(2))
}
func (op *activationGradOp[T]) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return op.d.shape.Clone(), nil
}

func (op *activationGradOp[T]) Do(inputs ...gorgonia.Value) (gorgonia.Value, error) {
	n := op.d.shape.TotalSize()
	v, err := values[T](op, inputs, n, n)
	if err != nil {
		return nil, err
	}
	d, t := op.d.next()
	at, dh := v[0], v[1]
	switch op.fwd.act {
	case ReLU:
		rectifyGrad(d, at, dh)
	case Tanh:
		for i, h := range at {
			hh := T(h * h)
			d[i] = (1 - hh) * dh[i]
		}
	}
	return t, nil
}

func (op *activationGradOp[T]) ReturnsPtr() bool      { return false }
func (op *activationGradOp[T]) CallsExtern() bool     { return false }
func (op *activationGradOp[T]) OverwritesInput() int  { return -1 }
func (op *activationGradOp[T]) String() string        { return fmt.Sprintf("∂%v", op.fwd) }
func (op *activationGradOp[T]) WriteHash(h hash.Hash) { fmt.Fprintf(h, "nn.%v:%T", op, T(0)) }
func (op *activationGradOp[T]) Hashcode() uint32      { return hashOf(op) }
func (op *activationGradOp[T]) DiffWRT(inputs int) []bool {
	return make([]bool, inputs)
}
func (op *activationGradOp[T]) SymDiff(gorgonia.Nodes, *gorgonia.Node, *gorgonia.Node) (gorgonia.Nodes, error) {
	return nil, fmt.Errorf("nn: %v is not differentiable", op)
}
