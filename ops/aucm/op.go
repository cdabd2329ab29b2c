package aucm

import (
	"errors"
	"fmt"
	"hash"
	"math"
	"sync"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/opkit"
)

// Loss returns the scalar node f(scores, labels, a, b, α) of [Evaluate]: scores are the raw
// model outputs z (the op applies the sigmoid), labels their labels, in the shapes of cfg.Task,
// and a, b and α the auxiliary variables, all of one dtype, float32 or float64. For a binary
// task scores and labels are vectors of one length (or one-column matrices) and a, b and α
// scalar nodes (or (1) vectors); for Classes(k) scores are an (n, k) matrix, one row per example, labels an (n)
// vector of class indices and a, b and α (k) vectors, one variable per column; for Labels(k)
// labels are the (n, k) matrix of 0/1 labels. The node is differentiable with respect to
// scores, a, b and α (not labels) by gorgonia.Grad with a TapeMachine and by a LispMachine. The
// forward pass runs [Gradient] once and keeps the four derivatives for the backward nodes,
// which reuse them when their inputs are bit for bit the forward's (and recompute otherwise).
// The sums run in float64; the result has the graph's dtype, and a value or gradient beyond
// float32 in a float32 graph fails with rocops.ErrRange.
//
// Training follows Yuan et al.: descend on the model, a and b and ascend on α, which is
// what the PESG optimiser of package train does with this node's gradients (it uses its
// own ascent form for α).
//
// cfg and the nodes are checked here (rocops.ErrConfig, rocops.ErrNode for a node of another shape
// than the task's, rocops.ErrLength); the batch and a, b, α are checked when the graph runs (see
// Evaluate).
func Loss(scores, labels, a, b, alpha *gorgonia.Node, cfg Config) (*gorgonia.Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := opkit.CheckTask(pkg, cfg.Task, scores, labels); err != nil {
		return nil, err
	}
	k, scalar := cfg.Task.K(), a != nil && a.IsScalar() && cfg.Task.Kind() == rocops.Binary
	for _, s := range []struct {
		name string
		n    *gorgonia.Node
	}{{"a", a}, {"b", b}, {"alpha", alpha}} {
		switch {
		case s.n == nil:
			return nil, check.Errorf(pkg, rocops.ErrNode, "%s must not be nil", s.name)
		case s.n.Graph() != scores.Graph():
			return nil, check.Errorf(pkg, rocops.ErrNode, "%s belongs to another graph than the scores", s.name)
		case scalar && !s.n.IsScalar():
			return nil, check.Errorf(pkg, rocops.ErrNode, "%s has type %v, want a scalar as a", s.name, s.n.Type())
		case !scalar && (s.n.IsScalar() || s.n.Dims() != 1 || len(s.n.Shape()) != 1):
			want := "a (k) vector"
			if cfg.Task.Kind() == rocops.Binary {
				want = "a scalar or a (1) vector, as a"
			}
			return nil, check.Errorf(pkg, rocops.ErrNode, "%s has shape %v, want %s", s.name, s.n.Shape(), want)
		case !scalar && s.n.Shape()[0] != k:
			return nil, check.Errorf(pkg, rocops.ErrLength, "%s has %d elements for k = %d columns", s.name, s.n.Shape()[0], k)
		case s.n.Dtype() != scores.Dtype():
			return nil, check.Errorf(pkg, rocops.ErrNode, "%s is %v but the scores are %v",
				s.name, s.n.Dtype(), scores.Dtype())
		}
	}
	op := &lossOp{cfg: cfg, dims: [2]int{scores.Dims(), labels.Dims()}, scalarAux: scalar}
	n, err := gorgonia.ApplyOp(op, scores, labels, a, b, alpha)
	if err != nil {
		return nil, check.Errorf(pkg, rocops.ErrNode, "%v", err)
	}
	return n, nil
}

// The op's inputs, in order.
const (
	inScores = iota
	inLabels
	inA
	inB
	inAlpha
	nInputs
)

// lossOp is the forward op: f and, kept for the backward ops, its derivatives. a, b and α are
// scalars or (K) vectors.
type lossOp struct {
	cfg       Config
	dims      [2]int // of the scores and the labels: 1 for (n), 2 for (n, 1), (1, n) or (n, k)
	scalarAux bool   // a, b and α are scalars (binary data), not (K) vectors

	mu   sync.Mutex
	in   []float64 // the forward's inputs, flattened: scores, labels, a, b, α
	grad *aux      // nil when none is kept

	lisp opkit.LastMachine
}

// wrt returns the derivative with respect to input k as a slice: of the scores, or of a, b or
// α (one element for a binary task, k for k columns).
func (d *aux) wrt(k int) []float64 {
	switch k {
	case inA:
		return d.a
	case inB:
		return d.b
	case inAlpha:
		return d.alpha
	}
	return d.z
}

func (op *lossOp) String() string {
	if op.cfg.Task.Kind() == rocops.Binary {
		return fmt.Sprintf("AUCMLoss{margin=%v}", op.cfg.margin())
	}
	return fmt.Sprintf("AUCMLoss{margin=%v, task=%v}", op.cfg.margin(), op.cfg.Task)
}

// inputs reads the op's five values as float64: the scores, the labels and a, b, α (one
// element each for the binary loss, k for the k-column one).
func (op *lossOp) inputs(vals []gorgonia.Value) (scores, labels []float64, p aux, dt tensor.Dtype, err error) {
	if len(vals) < nInputs {
		return nil, nil, p, dt, fmt.Errorf("%s: the loss needs 5 inputs, got %d", pkg, len(vals))
	}
	dt = vals[inScores].Dtype()
	if scores, err = opkit.Floats(vals[inScores]); err != nil {
		return nil, nil, p, dt, fmt.Errorf("%s: scores: %w", pkg, err)
	}
	if labels, err = opkit.Floats(vals[inLabels]); err != nil {
		return nil, nil, p, dt, fmt.Errorf("%s: labels: %w", pkg, err)
	}
	var xs [3][]float64
	for k := range xs {
		if op.scalarAux {
			var x float64
			x, err = opkit.Scalar(vals[inA+k])
			xs[k] = []float64{x}
		} else {
			xs[k], err = opkit.Floats(vals[inA+k])
		}
		if err != nil {
			return nil, nil, p, dt, fmt.Errorf("%s: %s: %w", pkg, []string{"a", "b", "alpha"}[k], err)
		}
	}
	return scores, labels, aux{a: xs[0], b: xs[1], alpha: xs[2]}, dt, nil
}

// flat is the inputs as one slice, for comparing bit patterns.
func flat(scores, labels []float64, p aux) []float64 {
	out := make([]float64, 0, len(scores)+len(labels)+3*len(p.a))
	out = append(append(out, scores...), labels...)
	return append(append(append(out, p.a...), p.b...), p.alpha...)
}

// run returns the derivatives at the inputs: the kept ones when the inputs are bit for bit
// the forward's, else from a new Gradient call.
func (op *lossOp) run(scores, labels []float64, p aux) (*aux, error) {
	in := flat(scores, labels, p)
	op.mu.Lock()
	kept, keptIn := op.grad, op.in
	op.mu.Unlock()
	if kept != nil && opkit.SameBits(keptIn, in) {
		return kept, nil
	}
	r, _, err := op.eval(scores, labels, p)
	return r, err
}

func (op *lossOp) eval(scores, labels []float64, p aux) (*aux, float64, error) {
	v, d, err := compute(scores, labels, p, op.cfg, true)
	if err != nil {
		return nil, 0, err
	}
	return &d, v, nil
}

// overflow turns a float32 range error into rocops.ErrRange.
func overflow(what string, err error) error {
	var re *opkit.RangeError
	if errors.As(err, &re) {
		return check.Errorf(pkg, rocops.ErrRange, "%s: %s", what, re.Detail())
	}
	return err
}

func (op *lossOp) Arity() int { return nInputs }

// types follow Gorgonia's conventions: the scores' and the labels' tensor types of element
// type a, the type of a, b and α (a scalar typed as a itself for the binary loss, a vector of
// a for the k-column one), and the loss's scalar type.
func (op *lossOp) types() (scores, labels, auxT hm.Type, scalar hm.TypeVariable) {
	a := hm.TypeVariable('a')
	auxT = a
	if !op.scalarAux {
		auxT = gorgonia.TensorType{Dims: 1, Of: a}
	}
	return gorgonia.TensorType{Dims: max(op.dims[0], 1), Of: a}, gorgonia.TensorType{Dims: max(op.dims[1], 1), Of: a}, auxT, a
}

func (op *lossOp) Type() hm.Type {
	v, l, x, s := op.types()
	return hm.NewFnType(v, l, x, x, x, s)
}

func (op *lossOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.ScalarShape(), nil
}

func (op *lossOp) Do(vals ...gorgonia.Value) (gorgonia.Value, error) {
	scores, labels, p, dt, err := op.inputs(vals)
	if err != nil {
		return nil, err
	}
	r, v, err := op.eval(scores, labels, p)
	op.mu.Lock()
	op.grad, op.in = r, nil
	if err == nil {
		op.in = flat(scores, labels, p)
	}
	op.mu.Unlock()
	if err != nil {
		return nil, err
	}
	out, err := opkit.NewScalar(dt, v)
	return out, overflow("value", err)
}

func (op *lossOp) ReturnsPtr() bool     { return false }
func (op *lossOp) CallsExtern() bool    { return false }
func (op *lossOp) OverwritesInput() int { return -1 }
func (op *lossOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "aucm.forward%v:%v:%s", op.dims, op.scalarAux, op)
}
func (op *lossOp) Hashcode() uint32 { return opkit.HashOf(op) }

// DiffWRT: differentiable in the scores, a, b and α, not in the labels.
func (op *lossOp) DiffWRT(n int) []bool {
	d := make([]bool, n)
	for k := range d {
		d[k] = k != inLabels
	}
	return d
}

// SymDiff returns one node per input: a backward node for the scores, a, b and α each, nil for
// the labels. Each backward node takes the forward's inputs, its output (so that it runs after
// it) and the upstream gradient.
func (op *lossOp) SymDiff(in gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	if len(in) != nInputs {
		return nil, fmt.Errorf("%s: %v has 5 inputs, SymDiff got %d", pkg, op, len(in))
	}
	out := make(gorgonia.Nodes, nInputs)
	for k := range in {
		if k == inLabels {
			continue
		}
		args := append(append(gorgonia.Nodes{}, in...), output, grad)
		g, err := gorgonia.ApplyOp(&gradOp{fwd: op, wrt: k}, args...)
		if err != nil {
			return nil, err
		}
		out[k] = g
	}
	return out, nil
}

// DoDiff adds upstream·∂f/∂x into the gradient of every differentiable input x
// (LispMachine). A machine that runs it a second time gets graph.ErrMachineReused.
func (op *lossOp) DoDiff(ctx gorgonia.ExecutionContext, in gorgonia.Nodes, output *gorgonia.Node) error {
	if len(in) != nInputs {
		return fmt.Errorf("%s: %v has 5 inputs, DoDiff got %d", pkg, op, len(in))
	}
	if op.lisp.Again(ctx.External) {
		return check.Errorf(pkg, graph.ErrMachineReused,
			"%v differentiated twice by one LispMachine, which after Reset recomputes only the last node; "+
				"build a new LispMachine for every run (or reuse a TapeMachine)", op)
	}
	vals := make([]gorgonia.Value, nInputs)
	for k, n := range in {
		vals[k] = n.Value()
	}
	scores, labels, p, _, err := op.inputs(vals)
	if err != nil {
		return err
	}
	upV, err := output.Grad()
	if err != nil {
		return fmt.Errorf("%s: upstream gradient: %w", pkg, err)
	}
	up, err := opkit.Scalar(upV)
	if err != nil {
		return fmt.Errorf("%s: upstream gradient: %w", pkg, err)
	}
	r, err := op.run(scores, labels, p)
	if err != nil {
		return err
	}
	for k, n := range in {
		if k == inLabels {
			continue
		}
		dst, err := n.Grad()
		if err != nil {
			return fmt.Errorf("%s: gradient of input %d: %w", pkg, k, err)
		}
		if err := overflow("gradient", addScaled(dst, r.wrt(k), up)); err != nil {
			return err
		}
	}
	return nil
}

// addScaled adds scale·g to dst: a vector, through opkit.AddScaled, or a scalar value, in
// place.
func addScaled(dst gorgonia.Value, g []float64, scale float64) error {
	switch d := dst.(type) {
	case *gorgonia.F64:
		*d = gorgonia.F64(float64(*d) + scale*g[0])
		return nil
	case *gorgonia.F32:
		sum := float64(*d) + scale*g[0]
		if v, err := opkit.NewScalar(tensor.Float32, sum); err != nil {
			return err
		} else {
			*d = *v.(*gorgonia.F32)
		}
		return nil
	}
	return opkit.AddScaled(dst, g, scale)
}

// gradOp is the backward op of one input: upstream·∂f/∂x for x = input wrt, from (scores,
// labels, a, b, α, forward output, upstream).
type gradOp struct {
	fwd *lossOp
	wrt int
}

func (op *gradOp) Arity() int { return nInputs + 2 }

func (op *gradOp) Type() hm.Type {
	v, l, x, s := op.fwd.types()
	out := x
	if op.wrt == inScores {
		out = v
	}
	return hm.NewFnType(v, l, x, x, x, s, s, out)
}

func (op *gradOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	if op.wrt != inScores && op.fwd.scalarAux {
		return tensor.ScalarShape(), nil
	}
	if len(in) <= op.wrt {
		return nil, fmt.Errorf("%s: backward of %v got %d shapes", pkg, op.fwd, len(in))
	}
	s, ok := in[op.wrt].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("%s: backward of %v: input %d's shape is %T", pkg, op.fwd, op.wrt, in[op.wrt])
	}
	return s.Clone(), nil
}

func (op *gradOp) Do(vals ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vals) != nInputs+2 {
		return nil, fmt.Errorf("%s: backward of %v needs 7 inputs, got %d", pkg, op.fwd, len(vals))
	}
	scores, labels, p, dt, err := op.fwd.inputs(vals[:nInputs])
	if err != nil {
		return nil, err
	}
	up, err := opkit.Scalar(vals[nInputs+1])
	if err != nil {
		return nil, fmt.Errorf("%s: upstream gradient: %w", pkg, err)
	}
	r, err := op.fwd.run(scores, labels, p)
	if err != nil {
		return nil, err
	}
	g := r.wrt(op.wrt)
	scaled := make([]float64, len(g))
	for i, x := range g {
		scaled[i] = up * x
		if !math.IsInf(x, 0) && !math.IsInf(up, 0) && math.IsInf(scaled[i], 0) {
			return nil, check.Errorf(pkg, rocops.ErrRange, "gradient element %d overflows float64", i)
		}
	}
	if op.wrt != inScores && op.fwd.scalarAux {
		out, err := opkit.NewScalar(dt, scaled[0])
		return out, overflow("gradient", err)
	}
	out, err := opkit.NewVector(dt, scaled)
	if err != nil {
		return nil, overflow("gradient", err)
	}
	if shape := vals[inScores].Shape(); op.wrt == inScores && len(shape) == 2 { // (n, 1), (1, n) or (n, k)
		if err := out.Reshape(shape...); err != nil {
			return nil, fmt.Errorf("%s: backward of %v: %w", pkg, op.fwd, err)
		}
	}
	return out, nil
}

func (op *gradOp) ReturnsPtr() bool     { return false }
func (op *gradOp) CallsExtern() bool    { return false }
func (op *gradOp) OverwritesInput() int { return -1 }
func (op *gradOp) String() string       { return fmt.Sprintf("%vGrad%d", op.fwd, op.wrt) }
func (op *gradOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "aucm.backward%v:%s:%d", op.fwd.dims, op.fwd, op.wrt)
}
func (op *gradOp) Hashcode() uint32          { return opkit.HashOf(op) }
func (op *gradOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }
func (op *gradOp) SymDiff(gorgonia.Nodes, *gorgonia.Node, *gorgonia.Node) (gorgonia.Nodes, error) {
	return nil, errors.New("aucm: the backward op of the loss is not differentiable")
}
