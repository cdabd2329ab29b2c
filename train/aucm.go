package train

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/optim"
)

// defaultPESGRate is LibAUC's default learning rate.
const defaultPESGRate = 0.1

// AUCM is the loss of Deep-AUC: the AUC-M loss (package aucm) on the model's scores through a
// sigmoid, trained with [optim.PESG] on the model's weights and the loss's a and b, and PESG's ascent
// on α, from a = b = α = 0 (LibAUC's start). PESG replaces the trainer's optimiser for this loss
// only: Config.Optimizer is not used, Config.WeightDecay must be 0 (PESG has its own) and the
// learning rate is PESG.LearningRate, else Config.LearningRate, else LibAUC's 0.1. The
// trainer does the rest: the batches (with both classes, Config.PositiveFraction and
// NegativePool), the validation metric and the best epoch's weights, Config.Patience, hooks
// and the progress bar. nn's MLP (the linear scorer included) takes the direct step (an
// nn.Pass and the loss on slices); any other model a Gorgonia graph of the model and the
// aucm.Loss op, with the same result up to rounding.
//
// On k classes (a model of k outputs) the loss is AUC-M one-vs-rest (package aucm on a Classes
// task): the mean over the classes c of the loss of output c against the indicator of class c,
// each output through its own sigmoid, with its own a_c, b_c and α_c, all trained by PESG (α_c
// by its ascent form, column by column); on k labels, the same over the label columns. This is
// how LibAUC applies AUC-M to k labels (its MultiLabelAUCMLoss, libauc/losses/auc.py).
//
// The model ends with the best epoch's weights, as with any loss; a, b and α stay those of the
// last step, since only training uses them. As a Loss evaluated outside training (Build,
// ValueGradInto) it is AUC-M at the start, a = b = α = 0.
type AUCM struct {
	// Config is the AUC-M loss's margin; the zero value is m = 1. Its Task is set to the
	// data's.
	Config aucm.Config
	// PESG is the optimiser's settings; nil = optim.DefaultPESG().
	PESG *optim.PESG
	// State, when not nil, receives PESG's final state when Fit returns, to be saved with the
	// model's checkpoint.
	State *optim.PESGState
	// Resume, when not nil, is the PESG state to continue from (a State of an earlier run of
	// the same model, whose weights the model holds again); nil = a fresh start, a = b = α = 0.
	Resume *optim.PESGState
}

func (r AUCM) settings() optim.PESG {
	if r.PESG == nil {
		return optim.DefaultPESG()
	}
	return *r.PESG
}

func (r AUCM) String() string {
	s := fmt.Sprintf("aucm(margin=%g, pesg", cmp.Or(r.Config.Margin, 1))
	if lr := r.settings().LearningRate; lr > 0 {
		s += fmt.Sprintf(", lr=%g", lr)
	}
	return s + ")"
}

// Check implements Loss: a valid margin and PESG setting (rocops.ErrConfig), on any task.
func (r AUCM) Check(t rocops.Task) error {
	if err := r.config(t).Validate(); err != nil {
		return fmt.Errorf("train: AUCM: %w", err)
	}
	return r.settings().Validate()
}

// config is the loss's aucm.Config on task t.
func (r AUCM) config(t rocops.Task) aucm.Config {
	cfg := r.Config
	cfg.Task = t
	return cfg
}

// Build implements Loss: AUC-M at a = b = α = 0.
func (r AUCM) Build(scores, labels *gorgonia.Node, t rocops.Task) (*gorgonia.Node, error) {
	return r.start(t, 0).Build(scores, labels, t)
}

// ValueGradInto implements Loss: AUC-M at a = b = α = 0 and its gradient in the scores.
func (r AUCM) ValueGradInto(grad, scores, labels []float64, t rocops.Task) (float64, error) {
	return r.start(t, 0).ValueGradInto(grad, scores, labels, t)
}

// configure checks cfg for the loss and returns it with PESG's learning rate (see [AUCM]).
func (r AUCM) configure(cfg Config) (Config, error) {
	if cfg.WeightDecay != 0 {
		return cfg, configError("AUCM trains with PESG's own weight decay; leave Config.WeightDecay 0, got %v", cfg.WeightDecay)
	}
	lr := cmp.Or(r.settings().LearningRate, cfg.LearningRate, defaultPESGRate)
	if !(lr > 0) || math.IsInf(lr, 0) {
		return cfg, configError("LearningRate %v is not a finite number > 0", lr)
	}
	cfg.LearningRate = lr
	return cfg, nil
}

// start returns the loss as it trains on task t, its PESG state fresh (or Resume's) for a model
// of the given parameter sizes, at learning rate lr, seeded by seed.
func (r AUCM) start(t rocops.Task, lr float64, sizes ...int) *aucmLoss {
	return &aucmLoss{cfg: r.config(t), task: t,
		opt: optim.NewPESGRun(r.settings(), lr, cmp.Or(r.Config.Margin, 1), sizes, t.K(), 0)}
}

// begin returns the loss a Fit with cfg (after configure) trains model with on task t: PESG's
// state fresh or resumed, and cfg with the hook that ends PESG's epochs.
func (r AUCM) begin(model nn.Model, cfg Config, t rocops.Task) (*aucmLoss, Config, error) {
	var sizes []int
	for _, p := range paramTensors(model) { // the trainable parameters: PESG holds no state for frozen ones
		sizes = append(sizes, p.Len())
	}
	loss := &aucmLoss{cfg: r.config(t), task: t,
		opt: optim.NewPESGRun(r.settings(), cfg.LearningRate, cmp.Or(r.Config.Margin, 1), sizes, t.K(), cfg.Seed)}
	if r.Resume != nil {
		if err := loss.opt.Resume(*r.Resume); err != nil {
			return nil, cfg, err
		}
	}
	cfg.Loss = loss
	cfg.Hooks = append(slices.Clone(cfg.Hooks), Hook{Name: "pesg decay epochs", OnEpoch: func(e Epoch) error {
		if e.Stage != Main {
			return nil
		}
		loss.opt.EndEpoch()
		return nil
	}})
	return loss, cfg, nil
}

// aucmLoss is the AUC-M loss as it trains: its step is PESG's (stepLoss), not the trainer's
// optimiser, and a, b and α are PESG's current values.
type aucmLoss struct {
	cfg  aucm.Config
	opt  *optim.PESGRun
	task rocops.Task
}

func (l *aucmLoss) String() string { return AUCM{Config: l.cfg}.String() }

// Check implements Loss.
func (l *aucmLoss) Check(t rocops.Task) error { return l.cfg.Validate() }

// auxValue returns x as a graph value of dtype dt: a scalar for binary data, a (k) vector
// for k columns.
func (l *aucmLoss) auxValue(dt tensor.Dtype, x []float64) (gorgonia.Value, error) {
	if l.task.Kind() == rocops.Binary {
		return opkit.NewScalar(dt, x[0])
	}
	return opkit.NewVector(dt, x)
}

// lossNode is the AUC-M op of the loss's task on scores and labels with a, b and α.
func (l *aucmLoss) lossNode(scores, labels, a, b, alpha *gorgonia.Node) (*gorgonia.Node, error) {
	return aucm.Loss(scores, labels, a, b, alpha, l.cfg)
}

// Build implements Loss: the AUC-M loss at PESG's current a, b and α, as constants (training
// goes through the PESG step).
func (l *aucmLoss) Build(scores, labels *gorgonia.Node, _ rocops.Task) (*gorgonia.Node, error) {
	var nodes [3]*gorgonia.Node
	for k, v := range [][]float64{l.opt.A, l.opt.B, l.opt.Alpha} {
		c, err := l.auxValue(scores.Dtype(), v)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		nodes[k] = gorgonia.NewConstant(c)
	}
	return l.lossNode(scores, labels, nodes[0], nodes[1], nodes[2])
}

// ValueGradInto implements Loss: the loss at PESG's current a, b and α and its derivatives in
// the scores.
func (l *aucmLoss) ValueGradInto(grad, scores, labels []float64, _ rocops.Task) (float64, error) {
	dz, _, _, v, err := l.gradient(scores, labels)
	if err == nil {
		copy(grad, dz)
	}
	return v, err
}

// gradient returns the loss of the batch's scores (n, or n·k row-major) with labels (n 0/1
// labels, n class indices or n·k 0/1 labels), at PESG's a, b and α, and its derivatives.
func (l *aucmLoss) gradient(scores, labels []float64) (dz, da, db []float64, value float64, err error) {
	o := l.opt
	dz, da, db, _, value, err = aucm.Gradient(scores, labels, o.A, o.B, o.Alpha, l.cfg)
	return dz, da, db, value, err
}

// newStep implements stepLoss: the PESG step of an nn network through an nn.Pass, or of any
// other model through a Gorgonia graph of the model and the AUC-M op.
func (l *aucmLoss) newStep(m nn.Model, _ rocops.Task, batch, cols int) (step, error) {
	p, err := nn.NewPass(m, batch)
	switch {
	case errors.Is(err, nn.ErrNoPass):
		return newPESGGraphStep(m, l, batch, cols)
	case err != nil:
		return nil, err
	}
	labels := labelShape(l.task, p.Rows()).TotalSize()
	return &pesgStep{pass: p, loss: l, params: paramTensors(m), keep: trainable(m), labels: make([]float64, labels)}, nil
}

// stepLoss is a loss that brings its own training step (and optimiser) instead of the
// trainer's: newStep uses it for such losses.
type stepLoss interface {
	newStep(m nn.Model, t rocops.Task, batch, cols int) (step, error)
}

// pesgStep is one PESG step of an nn network: the scores through an nn.Pass, the AUC-M loss
// and its four derivatives on slices, the backward pass, and PESG's update.
type pesgStep struct {
	pass   *nn.Pass
	loss   *aucmLoss
	params []*tensor.Dense // the trainable parameters'
	keep   []int           // their indices in the model's Params
	grads  []*tensor.Dense // their gradients, picked from the pass's
	labels []float64
}

func (st *pesgStep) run(ds *data.Dataset, idx []int) (float64, error) {
	if err := loadPass(st.pass, st.labels, ds, idx); err != nil {
		return 0, err
	}
	o := st.loss.opt
	dz, da, db, v, err := st.loss.gradient(st.pass.Forward(), st.labels)
	if err != nil {
		return 0, err
	}
	if err := st.pass.Backward(dz); err != nil {
		return 0, err
	}
	all := st.pass.Grads()
	st.grads = pick(st.grads, func(i int) *tensor.Dense { return all[i] }, st.keep)
	if err := o.Step(st.params, st.grads, da, db); err != nil {
		return 0, fmt.Errorf("train: PESG step: %w", err)
	}
	return v, nil
}

func (st *pesgStep) close() {}

// pesgGraphStep is one PESG step of any model: a Gorgonia graph of the model's scores and the
// AUC-M op, with a, b and α as scalar inputs set before every run, differentiated by
// gorgonia.Grad with respect to the learnables, a and b. Its graphStep runs the graph (its
// optimiser is unused).
type pesgGraphStep struct {
	graphStep
	a, b, alpha *gorgonia.Node
	da, db      *gorgonia.Node // the gradient nodes of a and b
	loss        *aucmLoss
}

func newPESGGraphStep(m nn.Model, l *aucmLoss, batch, cols int) (*pesgGraphStep, error) {
	mg, err := buildModelLabels(m, batch, cols, labelShape(l.task, batch))
	if err != nil {
		return nil, err
	}
	dt, g, learnables := m.Dtype(), mg.g, mg.learnables
	st := &pesgGraphStep{graphStep: graphStep{x: mg.x, y: mg.y, learnables: learnables}, loss: l}
	var aux [3]*gorgonia.Node
	for k, name := range []string{"aucm.a", "aucm.b", "aucm.alpha"} {
		v, err := l.auxValue(dt, make([]float64, len(l.opt.A)))
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		if l.task.Kind() == rocops.Binary {
			aux[k] = gorgonia.NewScalar(g, dt, gorgonia.WithName(name), gorgonia.WithValue(v))
		} else {
			aux[k] = gorgonia.NewVector(g, dt, gorgonia.WithShape(len(l.opt.A)), gorgonia.WithName(name), gorgonia.WithValue(v))
		}
	}
	st.a, st.b, st.alpha = aux[0], aux[1], aux[2]
	if st.cost, err = l.lossNode(mg.scores, mg.labels, st.a, st.b, st.alpha); err != nil {
		return nil, err
	}
	gs, err := gorgonia.Grad(st.cost, append(slices.Clone(learnables), st.a, st.b)...)
	if err != nil {
		return nil, fmt.Errorf("train: differentiating %v: %w", l, err)
	}
	st.dnodes, st.da, st.db = gs[:len(learnables)], gs[len(learnables)], gs[len(learnables)+1]
	if st.vm, err = compileStep(g, append(slices.Clone(gs), st.cost)); err != nil {
		return nil, err
	}
	return st, nil
}

func (st *pesgGraphStep) run(ds *data.Dataset, idx []int) (float64, error) {
	o := st.loss.opt
	dt := st.x.Dtype()
	for k, v := range [][]float64{o.A, o.B, o.Alpha} {
		val, err := st.loss.auxValue(dt, v)
		if err != nil {
			return 0, fmt.Errorf("train: %w", err)
		}
		if err := gorgonia.Let([]*gorgonia.Node{st.a, st.b, st.alpha}[k], val); err != nil {
			return 0, fmt.Errorf("train: setting the AUC-M variables: %w", err)
		}
	}
	l, err := st.forward(ds, idx)
	if err != nil {
		return 0, err
	}
	da, err := st.auxGrad(st.da)
	if err != nil {
		return 0, fmt.Errorf("train: the gradient of a: %w", err)
	}
	db, err := st.auxGrad(st.db)
	if err != nil {
		return 0, fmt.Errorf("train: the gradient of b: %w", err)
	}
	if err := o.Step(st.params, st.grads, da, db); err != nil {
		return 0, fmt.Errorf("train: PESG step: %w", err)
	}
	return l, nil
}

// auxGrad reads the gradient node n of a or b: a scalar for binary data, a (k) vector else.
func (st *pesgGraphStep) auxGrad(n *gorgonia.Node) ([]float64, error) {
	if st.loss.task.Kind() == rocops.Binary {
		x, err := opkit.Scalar(n.Value())
		return []float64{x}, err
	}
	xs, err := opkit.Floats(n.Value())
	return slices.Clone(xs), err
}
