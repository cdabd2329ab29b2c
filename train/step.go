package train

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/optim"
)

// step computes one batch's loss and its gradient and takes one optimiser step.
type step interface {
	// run loads the rows idx of ds, computes the loss and its gradient, and updates the
	// parameters. It returns the loss before the update.
	run(ds *data.Dataset, idx []int) (float64, error)
	close()
}

// newStep compiles the training step of m under loss on data of task t for batches of batch
// rows. nn's own networks trained on a loss with a form on slices take a direct step: an
// nn.Pass for the network and the loss computed on slices, value and gradient at once, with
// the network's buffers and the loss's gradient buffer allocated here. Any other model or loss
// is compiled into a Gorgonia graph differentiated by gorgonia.Grad. Both update the
// parameters with the same optimiser.
func newStep(m nn.Model, loss Loss, t rocops.Task, batch, cols int, cfg Config) (step, error) {
	if sl, ok := loss.(stepLoss); ok { // a loss with its own optimiser (AUCM's optim.PESG)
		return sl.newStep(m, t, batch, cols)
	}
	opt, err := optim.NewStepper(cfg.Optimizer, cfg.LearningRate)
	if err != nil {
		return nil, err
	}
	if direct(loss, t) {
		p, err := nn.NewPass(m, batch)
		switch {
		case err == nil:
			return newDirectStep(m, p, loss, t, opt), nil
		case !errors.Is(err, nn.ErrNoPass):
			return nil, err
		}
	}
	return newGraphStep(m, loss, t, batch, cols, opt)
}

// directStep is the step of an nn network through an nn.Pass.
type directStep struct {
	pass    *nn.Pass
	loss    Loss
	task    rocops.Task
	opt     *optim.Stepper
	params  []*tensor.Dense // the trainable parameters'
	keep    []int           // their indices in the model's Params
	grads   []*tensor.Dense // their gradients, picked from the pass's at every step
	float32 bool            // the loss is rounded to float32 like a float32 graph's
	labels  []float64       // the batch's labels
	dscores []float64       // ∂L/∂s
}

func newDirectStep(m nn.Model, p *nn.Pass, loss Loss, t rocops.Task, opt *optim.Stepper) *directStep {
	return &directStep{
		pass: p, loss: loss, task: t, opt: opt, params: paramTensors(m), keep: trainable(m),
		float32: m.Dtype() == tensor.Float32,
		labels:  make([]float64, labelShape(t, p.Rows()).TotalSize()),
		dscores: make([]float64, p.Rows()*nn.Outputs(m)),
	}
}

// loadPass copies the rows idx of ds into p's input and their labels into labels, one per
// row of p.
func loadPass(p *nn.Pass, labels []float64, ds *data.Dataset, idx []int) error {
	if len(idx) != p.Rows() {
		return fmt.Errorf("train: a batch of %d rows for a step of %d", len(idx), p.Rows())
	}
	if err := fillBatch(p.Input(), nil, ds, idx); err != nil {
		return err
	}
	gatherLabels(labels, ds, idx)
	return nil
}

func (st *directStep) run(ds *data.Dataset, idx []int) (float64, error) {
	if err := loadPass(st.pass, st.labels, ds, idx); err != nil {
		return 0, err
	}
	l, err := st.loss.ValueGradInto(st.dscores, st.pass.Forward(), st.labels, st.task)
	if err != nil {
		return 0, err
	}
	if st.float32 {
		l = float64(float32(l))
		for i, d := range st.dscores { // as a float32 graph, never a silent ±Inf
			if !floats.Fits[float32](d) {
				return 0, fmt.Errorf("train: %w: the gradient of score %d, %g, does not fit in float32", rocops.ErrRange, i, d)
			}
		}
	}
	if math.IsNaN(l) || math.IsInf(l, 0) {
		return 0, fmt.Errorf("train: the loss is %v", l)
	}
	if err := st.pass.Backward(st.dscores); err != nil {
		return 0, err
	}
	all := st.pass.Grads()
	st.grads = pick(st.grads, func(i int) *tensor.Dense { return all[i] }, st.keep)
	if err := st.opt.Step(st.params, st.grads); err != nil {
		return 0, fmt.Errorf("train: optimiser step: %w", err)
	}
	return l, nil
}

func (st *directStep) close() {}

// graphStep is a compiled Gorgonia graph computing one batch's loss and its gradient.
type graphStep struct {
	x, y       *tensor.Dense
	cost       *gorgonia.Node
	learnables gorgonia.Nodes
	dnodes     gorgonia.Nodes // the learnables' gradient nodes, from gorgonia.Grad
	params     []*tensor.Dense
	grads      []*tensor.Dense // the values of dnodes at the last run
	vm         gorgonia.VM
	opt        *optim.Stepper
}

func newGraphStep(m nn.Model, loss Loss, t rocops.Task, batch, cols int, opt *optim.Stepper) (*graphStep, error) {
	mg, err := buildModelLabels(m, batch, cols, labelShape(t, batch))
	if err != nil {
		return nil, err
	}
	g, scores, yn, learnables := mg.g, mg.scores, mg.labels, mg.learnables
	st := &graphStep{x: mg.x, y: mg.y, opt: opt}
	if st.cost, err = loss.Build(scores, yn, t); err != nil {
		return nil, err
	}
	grads, err := gorgonia.Grad(st.cost, learnables...)
	if err != nil {
		return nil, fmt.Errorf("train: differentiating %v: %w", loss, err)
	}
	st.learnables, st.dnodes = learnables, grads
	if st.vm, err = compileStep(g, append(slices.Clone(grads), st.cost)); err != nil {
		return nil, err
	}
	return st, nil
}

// compileStep returns a TapeMachine running the part of g that outputs depend on (the cost
// and the gradient nodes a step reads). The rest of the graph is left out: gorgonia.Grad
// differentiates every input of an op on the way to the learnables, so the graph also holds,
// for instance, the gradient with respect to the batch rows (∂L/∂x = ∂L/∂z₀·W₀ᵀ, as large a
// product as the first layer's) and, under Gorgonia's ReLU (z ⊙ [z ≥ 0]), the gradient with
// respect to its mask, which no step reads. The machine binds no dual values: a step reads
// the gradients from the gradient nodes' values, where binding would add each of them into a
// dual value of its learnable (an extra pass, and allocations, per learnable and run) that
// had to be cleared after every step.
func compileStep(g *gorgonia.ExprGraph, outputs gorgonia.Nodes) (gorgonia.VM, error) {
	prog, locs, err := gorgonia.CompileFunction(g, g.ExactSubgraphRoots(outputs...).Inputs(), outputs)
	if err != nil {
		return nil, fmt.Errorf("train: compiling the step: %w", err)
	}
	return gorgonia.NewTapeMachine(g, gorgonia.WithPrecompiled(prog, locs)), nil
}

func (st *graphStep) run(ds *data.Dataset, idx []int) (float64, error) {
	l, err := st.forward(ds, idx)
	if err != nil {
		return 0, err
	}
	if err := st.opt.Step(st.params, st.grads); err != nil {
		return 0, fmt.Errorf("train: optimiser step: %w", err)
	}
	return l, nil
}

// forward loads the rows idx of ds, runs the machine and returns the loss; the learnables'
// values and gradients are then in st.params and st.grads.
func (st *graphStep) forward(ds *data.Dataset, idx []int) (float64, error) {
	if err := fillBatch(st.x, st.y, ds, idx); err != nil {
		return 0, err
	}
	st.vm.Reset()
	if err := graph.RunAll(st.vm); err != nil {
		return 0, err
	}
	l, err := scalarOf(st.cost.Value())
	if err != nil {
		return 0, err
	}
	if math.IsNaN(l) || math.IsInf(l, 0) {
		return 0, fmt.Errorf("train: the loss is %v", l)
	}
	if st.params == nil {
		if st.params, err = denseValues(st.learnables, "value"); err != nil {
			return 0, err
		}
	}
	// A gradient node's value may be a new tensor at every run (Gorgonia's own ops allocate
	// one), so the gradients are read again.
	if st.grads, err = appendDense(st.grads[:0], st.dnodes, st.learnables, "gradient"); err != nil {
		return 0, err
	}
	return l, nil
}

func (st *graphStep) close() { st.vm.Close() }

// modelGraph is a new graph holding a model for batches of fixed size: its input and label
// tensors, the label node, the score node and the learnables.
type modelGraph struct {
	g              *gorgonia.ExprGraph
	x, y           *tensor.Dense
	labels, scores *gorgonia.Node
	learnables     gorgonia.Nodes
}

// buildModel builds m into a new graph for batches of batch rows of cols features.
func buildModel(m nn.Model, batch, cols int) (modelGraph, error) {
	return buildModelLabels(m, batch, cols, tensor.Shape{batch})
}

// labelShape returns the shape of a batch of task t's labels: (batch), or (batch, k) for k
// labels.
func labelShape(t rocops.Task, batch int) tensor.Shape {
	if t.Kind() == rocops.Multilabel {
		return tensor.Shape{batch, t.K()}
	}
	return tensor.Shape{batch}
}

// buildModelLabels is buildModel with labels of shape ys: (batch), or (batch, k) for a
// multi-label loss.
func buildModelLabels(m nn.Model, batch, cols int, ys tensor.Shape) (modelGraph, error) {
	dt := m.Dtype()
	mg := modelGraph{g: gorgonia.NewGraph(), x: tensor.New(tensor.Of(dt), tensor.WithShape(batch, cols)),
		y: tensor.New(tensor.Of(dt), tensor.WithShape(ys...))}
	xn := gorgonia.NewMatrix(mg.g, dt, gorgonia.WithShape(batch, cols), gorgonia.WithName("x"),
		gorgonia.WithValue(mg.x))
	mg.labels = gorgonia.NewTensor(mg.g, dt, len(ys), gorgonia.WithShape(ys...), gorgonia.WithName("y"),
		gorgonia.WithValue(mg.y))
	var err error
	var learnables gorgonia.Nodes
	mg.scores, learnables, err = m.Build(mg.g, xn)
	// Only the trainable parameters are differentiated and updated: Gorgonia then builds no
	// gradient for the frozen ones, nor for the layers below the lowest trainable one.
	mg.learnables = pick(nil, func(i int) *gorgonia.Node { return learnables[i] }, trainable(m))
	return mg, err
}

// denseValues returns the values of nodes, dense tensors once a machine has run them.
func denseValues(nodes gorgonia.Nodes, what string) ([]*tensor.Dense, error) {
	return appendDense(nil, nodes, nodes, what)
}

// appendDense appends the values of nodes, dense tensors once a machine has run them, to dst;
// names[i] names the learnable of nodes[i] in an error.
func appendDense(dst []*tensor.Dense, nodes, names gorgonia.Nodes, what string) ([]*tensor.Dense, error) {
	for i, n := range nodes {
		v, ok := n.Value().(*tensor.Dense)
		if !ok {
			return nil, fmt.Errorf("train: learnable %v has no dense %s", names[i].Name(), what)
		}
		dst = append(dst, v)
	}
	return dst, nil
}
