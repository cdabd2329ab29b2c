package train

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/aucm"
)

// ErrPESG reports a PESG setting that is negative, NaN or infinite, a momentum above 1, a
// decay factor below 1 or a decay epoch below 1.
var ErrPESG = errors.New("train: invalid PESG setting")

// PESG holds the settings of the proximal epoch stochastic gradient method that LibAUC trains
// the AUC-M loss with (Yuan, Yan, Sonka and Yang, "Large-scale robust deep AUC maximization",
// ICCV 2021, arXiv 2012.03173; LibAUC 2.x, libauc/optimizers/pesg.py, its SGD mode). The
// fields are taken as given: start from [DefaultPESG] for LibAUC's defaults. A step, for every
// model parameter θ and for a and b, with gradient g of the AUC-M loss, is
//
//	d = clip(g, −Clip, Clip) + EpochDecay·(θ − θ_ref) + WeightDecay·θ
//	v = d at the first step, v ← (1 − Momentum)·v + Momentum·d after it
//	θ ← θ − η·v
//
// (LibAUC's own momentum form, not PyTorch's v ← μ·v + d; with Momentum = 0, v = d), and then
// for α its own projected ascent step, with the a and b just updated and the margin m,
//
//	α ← min(max(α + η·(2(m + b − a) − 2α), 0), 999).
//
// At the end of each epoch listed in DecayEpochs, θ_ref becomes the mean of the iterates θ
// since the last such reset (the start), and η ← η/DecayFactor. θ_ref starts as Gaussian noise
// N(0, 0.01²), as in LibAUC, drawn from the run's Config.Seed; the term is left out when
// EpochDecay is 0.
type PESG struct {
	// LearningRate is η; 0 = the run's Config.LearningRate, or 0.1 when that is 0 too.
	LearningRate float64
	// Clip bounds every gradient element to [−Clip, Clip]; 0 = no clipping.
	Clip float64
	// WeightDecay is the coefficient of the L2 term added to the gradient.
	WeightDecay float64
	// EpochDecay is the coefficient of the pull towards the reference point θ_ref.
	EpochDecay float64
	// Momentum is μ of LibAUC's momentum form, in [0, 1]; 0 = none.
	Momentum float64
	// DecayEpochs are the main-phase epochs (1-based, counted on from PESGState.Epochs when
	// a run resumes) after which the reference point is reset and the learning rate divided;
	// nil = none. LibAUC's examples decay after half and
	// three quarters of the epochs.
	DecayEpochs []int
	// DecayFactor divides the learning rate at every decay epoch; 0 = 10. It must be ≥ 1.
	DecayFactor float64
}

// DefaultPESG returns LibAUC's defaults: learning rate 0.1 (left 0 here, so that it can come
// from Config.LearningRate), Clip 1, WeightDecay 1e-5, EpochDecay 2e-3, Momentum 0.9, no
// decay epochs and a decay factor of 10.
func DefaultPESG() PESG {
	return PESG{Clip: 1, WeightDecay: 1e-5, EpochDecay: 2e-3, Momentum: 0.9}
}

// defaultPESGRate is LibAUC's default learning rate.
const defaultPESGRate = 0.1

func (p PESG) check() error {
	for _, s := range []struct {
		name string
		v    float64
	}{{"LearningRate", p.LearningRate}, {"Clip", p.Clip}, {"WeightDecay", p.WeightDecay},
		{"EpochDecay", p.EpochDecay}, {"Momentum", p.Momentum}, {"DecayFactor", p.DecayFactor}} {
		if !(s.v >= 0) || math.IsInf(s.v, 0) {
			return fmt.Errorf("%w: %s = %v is not a finite number ≥ 0", ErrPESG, s.name, s.v)
		}
	}
	switch {
	case p.Momentum > 1:
		return fmt.Errorf("%w: Momentum = %v is above 1", ErrPESG, p.Momentum)
	case p.DecayFactor != 0 && p.DecayFactor < 1:
		return fmt.Errorf("%w: DecayFactor = %v is below 1", ErrPESG, p.DecayFactor)
	}
	for _, e := range p.DecayEpochs {
		if e < 1 {
			return fmt.Errorf("%w: decay epoch %d is below 1", ErrPESG, e)
		}
	}
	return nil
}

// PESGState is the trained state PESG keeps beside the model's weights: the auxiliary
// variables of the AUC-M loss, the learning rate after its decays, the step counts, and per
// parameter tensor (the model's in Params order, then a and b) the reference point, the sum of
// the iterates since the last reset and the momentum buffer. With the model's nn checkpoint it
// is everything a run needs to continue ([AUCM].Resume); its fields are exported so that
// encoding/json writes it; [PESGState.MarshalBinary] and [SavePESGState] give it a versioned,
// checksummed binary form.
type PESGState struct {
	// A, B and Alpha hold a, b and α: one element each for a binary run, k for a run on k
	// classes or labels (A[c] is a_c, column c's).
	A, B, Alpha  []float64
	LearningRate float64 // η now, after the decays so far
	Steps        int     // steps taken
	SinceReset   int     // steps since the reference point was last reset
	// Epochs is the number of main-phase epochs completed; a resumed run counts its epochs,
	// and so PESG.DecayEpochs, on from it.
	Epochs   int
	Ref      [][]float64
	Acc      [][]float64
	Momentum [][]float64
	// ModelSHA256 is the SHA-256 of the model file the state was saved with (roctrain -out
	// writes the model's, so that a state names the model it belongs to); zero for none, as
	// a run leaves it, and in a state file of format version 1.
	ModelSHA256 [32]byte
}

// pesg is the optimiser: per parameter tensor (the model's, then a and b) its reference
// point, the sum of its iterates since the last reset and its momentum buffer, in float64.
type pesg struct {
	set         PESG
	lr          float64
	margin      float64
	a, b, alpha []float64 // k elements each (1 for binary data); a and b updated like parameters
	ref         [][]float64
	acc         [][]float64
	buf         [][]float64
	steps       int
	since       int
	epochs      int // main-phase epochs completed
}

// newPESG returns the optimiser for parameter tensors of the given sizes (the model's; a and
// b, of k elements each, are added), with its reference points drawn from seed when
// EpochDecay > 0. The settings must have passed check, lr > 0 be the effective learning rate
// and k ≥ 1 the number of the loss's columns (1 for binary data).
func newPESG(set PESG, lr, margin float64, sizes []int, k int, seed uint64) *pesg {
	p := &pesg{set: set, lr: lr, margin: margin, a: make([]float64, k), b: make([]float64, k), alpha: make([]float64, k)}
	sizes = append(slices.Clone(sizes), k, k)
	rng := rand.New(rand.NewPCG(seed, 0x70657367)) // "pesg"
	for _, n := range sizes {
		ref := make([]float64, n)
		if set.EpochDecay > 0 {
			for i := range ref {
				ref[i] = 0.01 * rng.NormFloat64()
			}
		}
		p.ref = append(p.ref, ref)
		p.acc = append(p.acc, make([]float64, n))
		p.buf = append(p.buf, make([]float64, n))
	}
	return p
}

// step updates the model's parameters from their gradients, a and b from da and db (k
// elements each), and every α_c by its ascent form.
func (p *pesg) step(params, grads []*tensor.Dense, da, db []float64) error {
	if len(params) != len(grads) || len(params)+2 != len(p.ref) {
		return fmt.Errorf("train: PESG over %d tensors got %d parameters and %d gradients",
			len(p.ref)-2, len(params), len(grads))
	}
	if len(da) != len(p.a) || len(db) != len(p.b) {
		return fmt.Errorf("train: PESG of %d columns got %d and %d derivatives of a and b", len(p.a), len(da), len(db))
	}
	for i, w := range params {
		switch w.Dtype() {
		case tensor.Float64:
			pesgUpdate(p, i, w.Float64s(), grads[i].Float64s())
		case tensor.Float32:
			pesgUpdate(p, i, w.Float32s(), grads[i].Float32s())
		default:
			return fmt.Errorf("train: unsupported parameter dtype %v", w.Dtype())
		}
	}
	n := len(params)
	pesgUpdate(p, n, p.a, da)
	pesgUpdate(p, n+1, p.b, db)
	for c, al := range p.alpha {
		al += p.lr * (2*(p.margin+p.b[c]-p.a[c]) - 2*al)
		p.alpha[c] = min(max(al, 0), 999)
	}
	p.steps++
	p.since++
	return nil
}

// pesgUpdate is the step of tensor i, with values w and gradient g, computed in float64.
func pesgUpdate[T floats.Float](p *pesg, i int, w, g []T) {
	ref, acc, buf := p.ref[i], p.acc[i], p.buf[i]
	s := p.set
	for k := range w {
		theta, grad := float64(w[k]), float64(g[k])
		if s.Clip > 0 {
			grad = min(max(grad, -s.Clip), s.Clip)
		}
		d := grad + s.WeightDecay*theta
		if s.EpochDecay > 0 {
			d += s.EpochDecay * (theta - ref[k])
		}
		if s.Momentum != 0 {
			if p.steps == 0 {
				buf[k] = d
			} else {
				buf[k] = (1-s.Momentum)*buf[k] + s.Momentum*d
			}
			d = buf[k]
		}
		w[k] = T(theta - p.lr*d)
		if s.EpochDecay > 0 {
			acc[k] += float64(w[k])
		}
	}
}

// endEpoch counts a main-phase epoch done and, when it is one of the decay epochs, decays.
func (p *pesg) endEpoch() {
	p.epochs++
	if slices.Contains(p.set.DecayEpochs, p.epochs) {
		p.decayEpoch()
	}
}

// decayEpoch resets the reference points to the mean iterate since the last reset and divides
// the learning rate by the decay factor (LibAUC's update_regularizer).
func (p *pesg) decayEpoch() {
	factor := p.set.DecayFactor
	if factor == 0 {
		factor = 10
	}
	p.lr /= factor
	if p.set.EpochDecay > 0 && p.since > 0 {
		for i := range p.ref {
			for k := range p.ref[i] {
				p.ref[i][k] = p.acc[i][k] / float64(p.since)
				p.acc[i][k] = 0
			}
		}
	}
	p.since = 0
}

func (p *pesg) state() PESGState {
	clone := func(xs [][]float64) [][]float64 {
		out := make([][]float64, len(xs))
		for i, x := range xs {
			out[i] = slices.Clone(x)
		}
		return out
	}
	return PESGState{
		A: slices.Clone(p.a), B: slices.Clone(p.b), Alpha: slices.Clone(p.alpha),
		LearningRate: p.lr, Steps: p.steps, SinceReset: p.since, Epochs: p.epochs,
		Ref: clone(p.ref), Acc: clone(p.acc), Momentum: clone(p.buf),
	}
}

// resume sets the optimiser to st, which must hold tensors of its sizes and a, b, α of its k
// columns.
func (p *pesg) resume(st PESGState) error {
	if k := len(p.a); len(st.A) != k || len(st.B) != k || len(st.Alpha) != k {
		return fmt.Errorf("%w: the resumed state has a, b and α of %d, %d and %d columns, the run %d",
			ErrPESG, len(st.A), len(st.B), len(st.Alpha), k)
	}
	for _, part := range []struct {
		name     string
		dst, src [][]float64
	}{{"Ref", p.ref, st.Ref}, {"Acc", p.acc, st.Acc}, {"Momentum", p.buf, st.Momentum}} {
		if len(part.src) != len(part.dst) {
			return fmt.Errorf("%w: the resumed state has %d %s tensors, the run %d",
				ErrPESG, len(part.src), part.name, len(part.dst))
		}
		for i, x := range part.src {
			if len(x) != len(part.dst[i]) {
				return fmt.Errorf("%w: the resumed state's %s tensor %d has %d elements, the run's %d",
					ErrPESG, part.name, i, len(x), len(part.dst[i]))
			}
		}
	}
	scalars := append(append(append([]float64{st.LearningRate}, st.A...), st.B...), st.Alpha...)
	for _, x := range scalars {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%w: the resumed state holds %v", ErrPESG, x)
		}
	}
	if !(st.LearningRate > 0) || st.Steps < 0 || st.SinceReset < 0 || st.Epochs < 0 || slices.Min(st.Alpha) < 0 {
		return fmt.Errorf("%w: the resumed state has learning rate %v, α %v, steps %d and %d, epochs %d",
			ErrPESG, st.LearningRate, st.Alpha, st.Steps, st.SinceReset, st.Epochs)
	}
	for i := range p.ref {
		copy(p.ref[i], st.Ref[i])
		copy(p.acc[i], st.Acc[i])
		copy(p.buf[i], st.Momentum[i])
	}
	copy(p.a, st.A)
	copy(p.b, st.B)
	copy(p.alpha, st.Alpha)
	p.lr, p.steps, p.since, p.epochs = st.LearningRate, st.Steps, st.SinceReset, st.Epochs
	return nil
}

// AUCM is the recipe of Deep-AUC: the AUC-M loss (package aucm) on the model's scores
// through a sigmoid, trained with [PESG] on the model's weights and the loss's a and b, and
// PESG's ascent on α, from a = b = α = 0 (LibAUC's start). It uses the trainer for the rest:
// the batches (with both classes, Config.PositiveFraction and NegativePool), the validation
// metric and the best epoch's weights, Config.Patience, hooks and the progress bar.
// Config.Optimizer is not used (PESG is the optimiser) and Config.WeightDecay must be 0
// (PESG has its own). nn's MLP (the linear scorer included) takes the direct step (an nn.Pass
// and the loss on slices); any other model a Gorgonia graph of the model and the aucm.Loss op, with the same
// result up to rounding.
//
// On a dataset with Classes (k classes, a model of k outputs) the loss is AUC-M one-vs-rest
// (package aucm on a Classes task): the mean over the classes c of the loss of output c against
// the indicator of class c, each output through its own sigmoid, with its own a_c, b_c and α_c,
// all trained by PESG (α_c by its ascent form, column by column); on a dataset with Labels,
// the same over the label columns (a Labels task). This is how LibAUC applies
// AUC-M to k labels (its MultiLabelAUCMLoss, libauc/losses/auc.py). The validation metric
// and early stopping then default to MacroAUC(metrics.OvR), as for any multi-class run.
//
// The model ends with the best epoch's weights, as with any recipe; a, b and α stay those of
// the last step, since only training uses them.
type AUCM struct {
	// Loss is the AUC-M loss's margin; the zero value is m = 1.
	Loss aucm.Config
	// PESG is the optimiser's settings; nil = DefaultPESG().
	PESG *PESG
	// State, when not nil, receives PESG's final state when Fit returns, to be saved with the
	// model's checkpoint.
	State *PESGState
	// Resume, when not nil, is the PESG state to continue from (a State of an earlier run of
	// the same model, whose weights the model holds again); nil = a fresh start, a = b = α = 0.
	Resume *PESGState
}

func (r AUCM) settings() PESG {
	if r.PESG == nil {
		return DefaultPESG()
	}
	return *r.PESG
}

func (r AUCM) String() string {
	s := fmt.Sprintf("aucm(margin=%g, pesg", cmp.Or(r.Loss.Margin, 1))
	if lr := r.settings().LearningRate; lr > 0 {
		s += fmt.Sprintf(", lr=%g", lr)
	}
	return s + ")"
}

// check reports a bad margin or PESG setting as ErrConfig wrapping aucm's error (also
// rocops.ErrConfig) or ErrPESG (see [CheckRecipe]).
func (r AUCM) check() error {
	if err := r.Loss.Validate(); err != nil {
		return fmt.Errorf("%w: AUCM: %w", ErrConfig, err)
	}
	if err := r.settings().check(); err != nil {
		return fmt.Errorf("%w: AUCM: %w", ErrConfig, err)
	}
	return nil
}

// Fit implements Recipe. Errors: a bad margin (rocops.ErrConfig of package aucm) or PESG setting
// (ErrPESG), both also ErrConfig, a Config the recipe cannot use (ErrConfig), and the trainer's
// errors.
func (r AUCM) Fit(ctx context.Context, model nn.Model, cfg Config, train, val *data.Dataset) (*History, error) {
	if err := recipeConfig(cfg); err != nil {
		return nil, err
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	margin := cmp.Or(r.Loss.Margin, 1)
	set := r.settings()
	if cfg.WeightDecay != 0 {
		return nil, configError("AUCM trains with PESG's own weight decay; leave Config.WeightDecay 0, got %v", cfg.WeightDecay)
	}
	if model == nil {
		return nil, configError("nil model")
	}
	lr := set.LearningRate
	if lr == 0 {
		lr = cfg.LearningRate
	}
	if lr == 0 {
		lr = defaultPESGRate
	}
	if !(lr > 0) || math.IsInf(lr, 0) {
		return nil, configError("LearningRate %v is not a finite number > 0", lr)
	}
	var sizes []int
	for _, p := range model.Params() {
		sizes = append(sizes, p.Value.Len())
	}
	tk, k := binaryTask, 1
	if train != nil && taskOf(train) != binaryTask {
		tk, k = taskOf(train), train.Task().K()
	}
	loss := &aucmLoss{cfg: r.Loss, opt: newPESG(set, lr, margin, sizes, k, cfg.Seed), task: tk}
	if r.Resume != nil {
		if err := loss.opt.resume(*r.Resume); err != nil {
			return nil, err
		}
	}
	cfg.Loss = loss
	if tk != binaryTask {
		cfg.Loss = aucmClassLoss{loss}
	}
	cfg.LearningRate = lr
	cfg.Hooks = append(slices.Clone(cfg.Hooks), Hook{Name: "pesg decay epochs", OnEpoch: func(e Epoch) error {
		if e.Phase != Main {
			return nil
		}
		loss.opt.endEpoch()
		return nil
	}})
	t, err := New(model, cfg)
	if err != nil {
		return nil, err
	}
	h, err := t.Fit(ctx, train, val)
	if r.State != nil {
		*r.State = loss.opt.state()
	}
	return h, err
}

// aucmLoss is the AUC-M loss as the trainer's Loss: its step is PESG's (stepLoss), not the
// trainer's optimiser. task is the data's: binary, or one-vs-rest over k classes or labels.
type aucmLoss struct {
	cfg  aucm.Config
	opt  *pesg
	task task
}

func (l *aucmLoss) String() string {
	s := AUCM{Loss: l.cfg}.String()
	switch l.task {
	case multiclassTask:
		s = s[:len(s)-1] + ", ovr)"
	case multilabelTask:
		s = s[:len(s)-1] + ", labels)"
	}
	return s
}

// auxValue returns x as a graph value of dtype dt: a scalar for binary data, a (k) vector
// for k columns.
func (l *aucmLoss) auxValue(dt tensor.Dtype, x []float64) (gorgonia.Value, error) {
	if l.task == binaryTask {
		return opkit.NewScalar(dt, x[0])
	}
	return opkit.NewVector(dt, x)
}

// opConfig is the loss's aucm.Config on the task of its data, of k = len(a) columns.
func (l *aucmLoss) opConfig() aucm.Config {
	cfg := l.cfg
	switch l.task {
	case multiclassTask:
		cfg.Task = rocops.Classes(len(l.opt.a))
	case multilabelTask:
		cfg.Task = labelsTask(len(l.opt.a))
	}
	return cfg
}

// lossNode is the AUC-M op of the loss's task on scores and labels with a, b and α.
func (l *aucmLoss) lossNode(scores, labels, a, b, alpha *gorgonia.Node) (*gorgonia.Node, error) {
	return aucm.Loss(scores, labels, a, b, alpha, l.opConfig())
}

// Build implements Loss for code that only evaluates losses: the AUC-M loss at PESG's current
// a, b and α, as constants (training goes through the PESG step).
func (l *aucmLoss) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	var nodes [3]*gorgonia.Node
	for k, v := range [][]float64{l.opt.a, l.opt.b, l.opt.alpha} {
		c, err := l.auxValue(scores.Dtype(), v)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		nodes[k] = gorgonia.NewConstant(c)
	}
	return l.lossNode(scores, labels, nodes[0], nodes[1], nodes[2])
}

// gradient returns the loss of the batch's scores (n, or n·k row-major) with labels (n 0/1
// labels, n class indices or n·k 0/1 labels), at PESG's a, b and α, and its derivatives.
func (l *aucmLoss) gradient(scores, labels []float64) (dz, da, db []float64, value float64, err error) {
	o := l.opt
	dz, da, db, _, value, err = aucm.Gradient(scores, labels, o.a, o.b, o.alpha, l.opConfig())
	return dz, da, db, value, err
}

// aucmClassLoss is the AUC-M loss on k classes or labels: a ClassLoss, so that the trainer
// takes it for multi-class or multi-label data, trained by its PESG step all the same.
type aucmClassLoss struct{ *aucmLoss }

// Multilabel implements ClassLoss.
func (l aucmClassLoss) Multilabel() bool { return l.task == multilabelTask }

// ValueGradRows implements ClassLoss: the loss at PESG's current a, b and α and its
// derivatives in the scores.
func (l aucmClassLoss) ValueGradRows(grad, scores []float64, _ int, labels []float64) (float64, error) {
	dz, _, _, v, err := l.gradient(scores, labels)
	return v, into(grad, dz, err)
}

// newStep implements stepLoss: the PESG step of an nn network through an nn.Pass, or of any
// other model through a Gorgonia graph of the model and the AUC-M op.
func (l *aucmLoss) newStep(m nn.Model, batch, cols int) (step, error) {
	p, err := nn.NewPass(m, batch)
	switch {
	case errors.Is(err, nn.ErrNoPass):
		return newPESGGraphStep(m, l, batch, cols)
	case err != nil:
		return nil, err
	}
	labels := p.Rows()
	if l.task == multilabelTask {
		labels *= nn.Outputs(m)
	}
	return &pesgStep{pass: p, loss: l, params: paramTensors(m), labels: make([]float64, labels)}, nil
}

// stepLoss is a loss that brings its own training step (and optimiser) instead of the
// trainer's: newStep uses it for such losses.
type stepLoss interface {
	newStep(m nn.Model, batch, cols int) (step, error)
}

// pesgStep is one PESG step of an nn network: the scores through an nn.Pass, the AUC-M loss
// and its four derivatives on slices, the backward pass, and PESG's update.
type pesgStep struct {
	pass   *nn.Pass
	loss   *aucmLoss
	params []*tensor.Dense
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
	if err := o.step(st.params, st.pass.Grads(), da, db); err != nil {
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
	ys := tensor.Shape{batch}
	if l.task == multilabelTask {
		ys = tensor.Shape{batch, nn.Outputs(m)}
	}
	mg, err := buildModelLabels(m, batch, cols, ys)
	if err != nil {
		return nil, err
	}
	dt, g, learnables := m.Dtype(), mg.g, mg.learnables
	st := &pesgGraphStep{graphStep: graphStep{x: mg.x, y: mg.y, learnables: learnables}, loss: l}
	var aux [3]*gorgonia.Node
	for k, name := range []string{"aucm.a", "aucm.b", "aucm.alpha"} {
		v, err := l.auxValue(dt, make([]float64, len(l.opt.a)))
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		if l.task == binaryTask {
			aux[k] = gorgonia.NewScalar(g, dt, gorgonia.WithName(name), gorgonia.WithValue(v))
		} else {
			aux[k] = gorgonia.NewVector(g, dt, gorgonia.WithShape(len(l.opt.a)), gorgonia.WithName(name), gorgonia.WithValue(v))
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
	st.da, st.db = gs[len(learnables)], gs[len(learnables)+1]
	st.vm = gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learnables...))
	return st, nil
}

func (st *pesgGraphStep) run(ds *data.Dataset, idx []int) (float64, error) {
	o := st.loss.opt
	dt := st.x.Dtype()
	for k, v := range [][]float64{o.a, o.b, o.alpha} {
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
	if err := o.step(st.params, st.grads, da, db); err != nil {
		return 0, fmt.Errorf("train: PESG step: %w", err)
	}
	st.clearGrads()
	return l, nil
}

// auxGrad reads the gradient node n of a or b: a scalar for binary data, a (k) vector else.
func (st *pesgGraphStep) auxGrad(n *gorgonia.Node) ([]float64, error) {
	if st.loss.task == binaryTask {
		x, err := opkit.Scalar(n.Value())
		return []float64{x}, err
	}
	xs, err := opkit.Floats(n.Value())
	return slices.Clone(xs), err
}
