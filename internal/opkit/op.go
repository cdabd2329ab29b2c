package opkit

import (
	"errors"
	"fmt"
	"hash"
	"slices"
	"sync"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
)

// Kernel is a scalar function s(f, y) of a score vector f and its 0/1 labels y, together with
// its gradient ∂s/∂f, computed at once: the forward node of [Apply] computes both and its
// backward node reuses the gradient (see Apply). ValueGrad receives float64 slices of equal
// length (whatever the graph's dtype) and must not modify or keep them.
type Kernel interface {
	// Package is the prefix of the errors Apply returns, such as "kdequantile".
	Package() string
	// String names the function and every parameter that changes its result, such as
	// "PairwiseLoss{surrogate=sqhinge, margin=1, pairs=0, seed=0}". It is the op's hash: two
	// nodes whose kernels print the same on the same inputs are merged by the graph.
	String() string
	// ValueGrad returns s(f, y) and ∂s/∂f_i for every i (zero where s does not depend on
	// f_i), the gradient in a new slice that the caller owns.
	ValueGrad(scores, labels []float64) (float64, []float64, error)
}

// IntoKernel is a Kernel that can also write its gradient into a slice of the caller's: the
// forward node then computes every run's gradient into one buffer of its own instead of a new
// slice. ValueGradInto returns what ValueGrad does, its gradient in grad (of the scores'
// length), bit for bit.
type IntoKernel interface {
	Kernel
	ValueGradInto(grad, scores, labels []float64) (float64, error)
}

// Apply returns the scalar node k(scores, labels). scores and labels must be of one dtype,
// float32 or float64, and each a vector of shape (n) or a one-column or one-row matrix of
// shape (n, 1) or (1, n), as gorgonia.Mul(x, W) returns for an (n, d) x and a (d, 1) W; the
// lengths n must be equal where they are known. The scores' gradient has the scores' shape.
// The node is
// differentiable with respect to scores (labels get no gradient) by gorgonia.Grad with a
// TapeMachine and by a LispMachine. A value or gradient that is finite in float64 but does not
// fit the graph's dtype (float32), or overflows when scaled by the upstream gradient, makes
// the run fail with [rocops.ErrRange] prefixed by the kernel's Package, instead of passing ±Inf
// on to the graph.
//
// The forward node computes the value and the gradient in one ValueGrad call and keeps the
// gradient with a copy of the scores and labels it came from. The backward node — of a
// TapeMachine's gorgonia.Grad, or a LispMachine's DoDiff — takes that gradient when the
// scores and labels it receives are bit for bit the ones kept, which holds whenever it runs
// after its own forward on unchanged inputs, and calls ValueGrad again otherwise; a kept
// gradient is taken at most once. So a training step costs one kernel call, and no input
// change between the two passes (new values, Reset, another machine) can serve a gradient of
// other inputs.
//
// Run again, the nodes allocate nothing of the batch's size: the forward reads float32 inputs
// into float64 buffers of its own, writes an [IntoKernel]'s gradient into another, and both
// nodes return a value of their own, overwritten by the next run (a node's value holds until
// then). The nodes of one graph must not run concurrently.
func Apply(k Kernel, scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	if err := CheckPair(k.Package(), scores, labels); err != nil {
		return nil, err
	}
	n, err := gorgonia.ApplyOp(&forwardOp{k: k, dims: [2]int{scores.Dims(), labels.Dims()}}, scores, labels)
	if err != nil {
		return nil, check.Errorf(k.Package(), rocops.ErrNode, "%v", err)
	}
	return n, nil
}

// CheckPair reports, with errors prefixed by pkg, why scores and labels cannot feed a loss
// node. Every error wraps a sentinel of package check: [rocops.ErrNode] for a nil node, nodes
// of two graphs, a dtype other than float32/float64, mismatched dtypes, a shape other than
// (n), (n, 1) or (1, n), or a vector of unknown or zero length (such as gorgonia.NewVector
// without a shape); and [rocops.ErrLength] for inputs of different lengths.
func CheckPair(pkg string, scores, labels *gorgonia.Node) error {
	if scores == nil || labels == nil {
		return check.Errorf(pkg, rocops.ErrNode, "scores and labels nodes must not be nil")
	}
	if scores.Graph() != labels.Graph() {
		return check.Errorf(pkg, rocops.ErrNode, "scores and labels belong to different graphs")
	}
	dt, lt := scores.Dtype(), labels.Dtype()
	if dt != tensor.Float64 && dt != tensor.Float32 {
		return check.Errorf(pkg, rocops.ErrNode, "scores have dtype %v, want float32 or float64", dt)
	}
	if dt != lt {
		return check.Errorf(pkg, rocops.ErrNode, "scores are %v but labels are %v; labels must use the scores' dtype", dt, lt)
	}
	ns, err := vectorLength(scores)
	if err != nil {
		return check.Errorf(pkg, rocops.ErrNode, "scores: %v", err)
	}
	nl, err := vectorLength(labels)
	if err != nil {
		return check.Errorf(pkg, rocops.ErrNode, "labels: %v", err)
	}
	if ns != nl {
		return check.Errorf(pkg, rocops.ErrLength, "%d scores, %d labels", ns, nl)
	}
	return nil
}

// vectorLength returns the length n of a node of shape (n), (n, 1) or (1, n), or why the node
// is not one of known, positive length. A node built without a shape reports Dims() = 1 but
// an empty shape.
func vectorLength(n *gorgonia.Node) (int, error) {
	s := n.Shape()
	if n.Dims() == 2 && len(s) == 2 && (s[0] == 1 || s[1] == 1) {
		s = tensor.Shape{s[0] * s[1]}
	}
	switch {
	case n.Dims() > 2 || len(s) > 1:
		return 0, fmt.Errorf("want a vector of shape (n), or a matrix of shape (n, 1) or (1, n), got shape %v", n.Shape())
	case len(s) == 0:
		return 0, fmt.Errorf("the vector has no shape; give it one, as with gorgonia.WithShape(n)")
	case s[0] <= 0:
		return 0, fmt.Errorf("the vector has length %d", s[0])
	}
	return s[0], nil
}

// errNoSymDiff is returned by the backward op: gradients of gradients are not provided.
var errNoSymDiff = errors.New("opkit: the backward op of a loss is not differentiable")

// types returns the types of the scores and labels, tensors of d[0] and d[1] dimensions (1 or
// 2; 0 means 1), and the bare scalar type variable: following Gorgonia's conventions, a scalar
// output is typed as the element type itself.
func types(d [2]int) (scores, labels hm.Type, scalar hm.TypeVariable) {
	a := hm.TypeVariable('a')
	return gorgonia.TensorType{Dims: max(d[0], 1), Of: a}, gorgonia.TensorType{Dims: max(d[1], 1), Of: a}, a
}

// forwardOp computes the kernel's scalar, and its gradient for the backward node.
type forwardOp struct {
	k    Kernel
	dims [2]int // the dimensions of the scores and the labels: 1 for (n), 2 for (n, 1) or (1, n)
	kept kept
	lisp LastMachine
	// in: the float64 copies of float32 scores and labels read last; grad: an IntoKernel's
	// gradient; out: the value Do returned last.
	in   [2][]float64
	grad []float64
	out  gorgonia.Value
}

// kept is the last forward gradient and the inputs it was computed from.
type kept struct {
	mu             sync.Mutex
	scores, labels []float64 // copies of the forward's inputs
	grad           []float64 // nil when there is none, or once it has been taken
}

// keep records the gradient grad of (scores, labels).
func (k *kept) keep(scores, labels, grad []float64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.scores = append(k.scores[:0], scores...)
	k.labels = append(k.labels[:0], labels...)
	k.grad = grad
}

// take returns the kept gradient if it was computed from exactly (scores, labels), else nil;
// either way nothing is kept afterwards.
func (k *kept) take(scores, labels []float64) []float64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	g := k.grad
	k.grad = nil
	if g == nil || !SameBits(k.scores, scores) || !SameBits(k.labels, labels) {
		return nil
	}
	return g
}

// gradient returns ∂s/∂f at (scores, labels): the kept forward gradient if it is theirs,
// else a new ValueGrad call.
func (op *forwardOp) gradient(scores, labels []float64) ([]float64, error) {
	if g := op.kept.take(scores, labels); g != nil {
		return g, nil
	}
	_, g, err := op.k.ValueGrad(scores, labels)
	return g, err
}

func (op *forwardOp) Arity() int { return 2 }

func (op *forwardOp) Type() hm.Type {
	s, l, a := types(op.dims)
	return hm.NewFnType(s, l, a)
}

func (op *forwardOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.ScalarShape(), nil
}

func (op *forwardOp) Do(inputs ...gorgonia.Value) (gorgonia.Value, error) {
	scores, labels, dt, err := op.read(inputs)
	if err != nil {
		return nil, err
	}
	v, g, err := op.valueGrad(scores, labels)
	if err != nil {
		op.kept.keep(nil, nil, nil)
		return nil, err
	}
	op.kept.keep(scores, labels, g)
	out, err := op.scalar(dt, v)
	return out, overflow(op.k, "value", err)
}

// valueGrad returns the kernel's value and gradient, the gradient in op.grad for an
// IntoKernel.
func (op *forwardOp) valueGrad(scores, labels []float64) (float64, []float64, error) {
	k, ok := op.k.(IntoKernel)
	if !ok {
		return op.k.ValueGrad(scores, labels)
	}
	op.grad = grow(op.grad, len(scores))
	v, err := k.ValueGradInto(op.grad, scores, labels)
	return v, op.grad, err
}

// scalar returns v as NewScalar does, in the value the last run returned when it has dtype
// dt.
func (op *forwardOp) scalar(dt tensor.Dtype, v float64) (gorgonia.Value, error) {
	switch out := op.out.(type) {
	case *gorgonia.F64:
		if dt == tensor.Float64 {
			*out = gorgonia.F64(v)
			return out, nil
		}
	case *gorgonia.F32:
		if dt == tensor.Float32 && floats.Fits[float32](v) {
			*out = gorgonia.F32(float32(v))
			return out, nil
		}
	}
	out, err := NewScalar(dt, v)
	if err == nil {
		op.out = out
	}
	return out, err
}

// grow returns s resliced to length n, reallocated if its capacity is smaller.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// overflow returns err, a *RangeError met while writing what, as rocops.ErrRange prefixed by
// k's package.
func overflow(k Kernel, what string, err error) error {
	if err == nil {
		return nil
	}
	var re *RangeError
	if !errors.As(err, &re) {
		return err
	}
	return check.Errorf(k.Package(), rocops.ErrRange, "%v %s: %s", k, what, re.Detail())
}

// read returns the scores and labels as float64: a float64 tensor's own data, or float32
// values copied into op's buffers (valid until the next read).
func (op *forwardOp) read(inputs []gorgonia.Value) (scores, labels []float64, dt tensor.Dtype, err error) {
	if len(inputs) < 2 {
		return nil, nil, dt, fmt.Errorf("%s: %v needs scores and labels, got %d inputs", op.k.Package(), op.k, len(inputs))
	}
	dt = inputs[0].Dtype()
	if scores, err = op.floats(0, inputs[0]); err != nil {
		return nil, nil, dt, fmt.Errorf("%s: scores: %w", op.k.Package(), err)
	}
	if labels, err = op.floats(1, inputs[1]); err != nil {
		return nil, nil, dt, fmt.Errorf("%s: labels: %w", op.k.Package(), err)
	}
	return scores, labels, dt, nil
}

// floats is Floats(v) with float32 values converted into op.in[i].
func (op *forwardOp) floats(i int, v gorgonia.Value) ([]float64, error) {
	if d, ok := v.(*tensor.Dense); ok && d != nil && d.Dtype() == tensor.Float32 {
		f := d.Float32s()
		op.in[i] = grow(op.in[i], len(f))
		for j, x := range f {
			op.in[i][j] = float64(x)
		}
		return op.in[i], nil
	}
	return Floats(v)
}

func (op *forwardOp) ReturnsPtr() bool     { return false }
func (op *forwardOp) CallsExtern() bool    { return false }
func (op *forwardOp) OverwritesInput() int { return -1 }
func (op *forwardOp) String() string       { return op.k.String() }
func (op *forwardOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "opkit.forward%v:%s", op.dims, op.k)
}
func (op *forwardOp) Hashcode() uint32 { return HashOf(op) }

// DiffWRT: differentiable in the scores, not in the labels.
func (op *forwardOp) DiffWRT(inputs int) []bool {
	d := make([]bool, inputs)
	if inputs > 0 {
		d[0] = true
	}
	return d
}

// SymDiff returns one node per input: the gradient for the scores and nil for the labels. The
// forward output is an input of the backward node so that it is scheduled after the forward.
func (op *forwardOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	if len(inputs) != 2 {
		return nil, fmt.Errorf("%s: %v has 2 inputs, SymDiff got %d", op.k.Package(), op.k, len(inputs))
	}
	g, err := gorgonia.ApplyOp(&backwardOp{fwd: op}, inputs[0], inputs[1], output, grad)
	if err != nil {
		return nil, err
	}
	return gorgonia.Nodes{g, nil}, nil
}

// DoDiff accumulates upstream·∂s/∂f into the scores' gradient (LispMachine). A machine that
// runs it a second time, a LispMachine reused after Reset, gets graph.ErrMachineReused.
func (op *forwardOp) DoDiff(ctx gorgonia.ExecutionContext, inputs gorgonia.Nodes, output *gorgonia.Node) error {
	if len(inputs) != 2 {
		return fmt.Errorf("%s: %v has 2 inputs, DoDiff got %d", op.k.Package(), op.k, len(inputs))
	}
	if op.lisp.Again(ctx.External) {
		return check.Errorf(op.k.Package(), graph.ErrMachineReused,
			"%v differentiated twice by one LispMachine, which after Reset recomputes only the last node; build a new LispMachine for every run (or reuse a TapeMachine)", op.k)
	}
	scores, labels, _, err := op.read([]gorgonia.Value{inputs[0].Value(), inputs[1].Value()})
	if err != nil {
		return err
	}
	upV, err := output.Grad()
	if err != nil {
		return fmt.Errorf("%s: upstream gradient: %w", op.k.Package(), err)
	}
	up, err := Scalar(upV)
	if err != nil {
		return fmt.Errorf("%s: upstream gradient: %w", op.k.Package(), err)
	}
	g, err := op.gradient(scores, labels)
	if err != nil {
		return err
	}
	dst, err := inputs[0].Grad()
	if err != nil {
		return fmt.Errorf("%s: scores gradient: %w", op.k.Package(), err)
	}
	return overflow(op.k, "gradient", AddScaled(dst, g, up))
}

// backwardOp computes upstream·∂s/∂f from (scores, labels, forward output, upstream), with
// the gradient its forward op kept when it can.
type backwardOp struct {
	fwd *forwardOp
	out *tensor.Dense // the value Do returned last
}

func (op *backwardOp) Arity() int { return 4 }

func (op *backwardOp) Type() hm.Type {
	s, l, a := types(op.fwd.dims)
	return hm.NewFnType(s, l, a, a, s)
}

func (op *backwardOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("%s: backward of %v got no shapes", op.fwd.k.Package(), op.fwd.k)
	}
	s, ok := in[0].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("%s: backward of %v: scores shape is %T", op.fwd.k.Package(), op.fwd.k, in[0])
	}
	return s.Clone(), nil
}

func (op *backwardOp) Do(inputs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(inputs) != 4 {
		return nil, fmt.Errorf("%s: backward of %v needs 4 inputs, got %d", op.fwd.k.Package(), op.fwd.k, len(inputs))
	}
	scores, labels, dt, err := op.fwd.read(inputs[:2])
	if err != nil {
		return nil, err
	}
	up, err := Scalar(inputs[3])
	if err != nil {
		return nil, fmt.Errorf("%s: upstream gradient: %w", op.fwd.k.Package(), err)
	}
	g, err := op.fwd.gradient(scores, labels)
	if err != nil {
		return nil, err
	}
	if up != 1 {
		for i, x := range g {
			g[i] *= up
			if finite(x) && finite(up) && !finite(g[i]) {
				return nil, overflow(op.fwd.k, "gradient", &RangeError{Index: i, Value: g[i], Dtype: tensor.Float64})
			}
		}
	}
	out, err := op.vector(dt, g, inputs[0].Shape())
	if err != nil {
		return nil, overflow(op.fwd.k, "gradient", err)
	}
	return out, nil
}

// vector returns g as a tensor of dtype dt and the scores' shape: NewVector(dt, g), reshaped
// to an (n, 1) or (1, n) shape, written into the tensor the last run returned when that has
// g's length and dtype (a node downstream may have reshaped it in place).
func (op *backwardOp) vector(dt tensor.Dtype, g []float64, shape tensor.Shape) (*tensor.Dense, error) {
	out := op.out
	if out == nil || out.Dtype() != dt || out.Len() != len(g) {
		var err error
		if out, err = NewVector(dt, slices.Clone(g)); err != nil {
			return nil, err
		}
		op.out = out
	} else {
		switch dt {
		case tensor.Float64:
			copy(out.Float64s(), g)
		case tensor.Float32:
			b := out.Float32s()
			for i, x := range g {
				if !floats.Fits[float32](x) {
					return nil, &RangeError{Index: i, Value: x, Dtype: dt}
				}
				b[i] = float32(x)
			}
		}
	}
	if len(shape) != 2 { // (n) scores
		shape = nil
	}
	if got := out.Shape(); shape == nil && (len(got) != 1 || got[0] != len(g)) || shape != nil && !slices.Equal(got, shape) {
		if shape == nil {
			shape = tensor.Shape{len(g)}
		}
		if err := out.Reshape(shape...); err != nil {
			return nil, fmt.Errorf("%s: backward of %v: %w", op.fwd.k.Package(), op.fwd.k, err)
		}
	}
	return out, nil
}

func (op *backwardOp) ReturnsPtr() bool     { return false }
func (op *backwardOp) CallsExtern() bool    { return false }
func (op *backwardOp) OverwritesInput() int { return -1 }
func (op *backwardOp) String() string       { return op.fwd.k.String() + "Grad" }
func (op *backwardOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "opkit.backward%v:%s", op.fwd.dims, op.fwd.k)
}
func (op *backwardOp) Hashcode() uint32 { return HashOf(op) }

func (op *backwardOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }

func (op *backwardOp) SymDiff(gorgonia.Nodes, *gorgonia.Node, *gorgonia.Node) (gorgonia.Nodes, error) {
	return nil, errNoSymDiff
}
