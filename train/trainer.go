package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/optim"
)

// Config holds the trainer's settings. Every zero value is a documented default, so
// Config{} trains with Adam on cross-entropy for 20 epochs in batches of 256.
type Config struct {
	// Loss is the loss trained; nil = CrossEntropy, the data's cross-entropy (softmax on k
	// classes, per label on k labels). Fit checks it against the data's task before any step.
	Loss Loss
	// Epochs is the number of epochs of Loss after the warm-up; 0 = 20. An epoch is
	// ⌈rows/BatchSize⌉ steps.
	Epochs int
	// BatchSize is the number of rows per step; 0 = 256. It must be at least 2, since every
	// batch holds a positive and a negative, and is capped at the number of training rows.
	BatchSize int
	// PositiveFraction is the share of positives in every batch; 0 = the training data's
	// own share. Every batch holds at least one positive and one negative; a rare class is
	// oversampled (see the package doc).
	PositiveFraction float64
	// NegativePool adds this many negatives to every batch beyond BatchSize, so that a
	// quantile loss sets its threshold from more negatives: at a false-positive rate α the
	// KDE loss's τ rests on about α times the batch's negatives, about six in a batch of 128
	// with 10% positives at α = 0.05. The pool's rows are drawn like the batch's other
	// negatives and scored and differentiated with them, so the step's gradient is the exact
	// gradient of the loss on the larger batch; an epoch is still ⌈rows/BatchSize⌉ steps,
	// which visit the positives at the same rate as without the pool. The negatives of a
	// batch are capped at the training data's, so any value up to math.MaxInt means "all of
	// them". 0 = none.
	NegativePool int
	// Optimizer is the update rule; the zero value is Adam.
	Optimizer optim.Rule
	// LearningRate is the step size; 0 = 0.005 for Adam and RMSProp, 0.05 for SGD and
	// Momentum.
	LearningRate float64
	// WeightDecay is the decoupled weight decay λ applied to weight matrices after every
	// step, w ← (1 − LearningRate·λ)·w; 0 = none.
	WeightDecay float64
	// Metric scores the model on the validation data after every epoch; the zero value is
	// AUC. Larger is better.
	Metric Metric
	// Patience stops training after this many epochs of the main phase without a better
	// validation metric; 0 = never stop early. Either way the weights of the best
	// main-phase epoch are restored at the end when validation data is given.
	Patience int
	// Seed seeds batch sampling. The same seed, model initialisation and data give a
	// bit-identical History.
	Seed uint64
	// Hooks run after every step and every epoch, in order.
	Hooks []Hook
	// Progress receives a progress bar over the training steps, with each epoch's loss and
	// metric; nil = none (the library draws nothing unless asked, such as with os.Stderr).
	Progress io.Writer
	// Diagnose, when not nil, runs the corrective-power diagnostics during training and,
	// with Diagnose.Intervene, the diagnose–intervene–recheck protocol, on binary data and
	// over the binary comparisons of multi-class and multi-label data (see Diagnose); nil =
	// off.
	Diagnose *Diagnose
}

// defaultEpochs is Config.Epochs when it is 0.
const defaultEpochs = 20

// MaxEpochs bounds Config.Epochs, a Phase's Epochs and the intervention
// epochs (Intervene.Epochs·Intervene.Max), so that the count of steps never overflows an int.
const MaxEpochs = 1 << 24

// Stage says which loss an epoch trained: the main loss, a warm-up, or an intervention.
type Stage int

const (
	// Main epochs train Config.Loss.
	Main Stage = iota
	// Warmup epochs train cross-entropy before the main phase.
	Warmup
	// Intervention epochs train cross-entropy inside the main phase, when the
	// diagnose–intervene–recheck protocol calls for it (Diagnose.Intervene).
	Intervention
)

func (p Stage) String() string {
	switch p {
	case Warmup:
		return "warmup"
	case Intervention:
		return "intervention"
	}
	return "main"
}

// Epoch is one row of a History.
type Epoch struct {
	Index int     // 1-based, counting warm-up epochs
	Stage Stage   // which loss was trained
	Loss  float64 // mean training loss over the epoch's steps
	// Metric is the validation metric after the epoch, NaN without validation data. On
	// multi-class data it ranks the softmax probabilities of the outputs after an epoch of the
	// softmax cross-entropy and the raw outputs after any other (see Metric).
	Metric float64
}

// History is what Fit did, epoch by epoch.
type History struct {
	Epochs []Epoch
	// Best is the index in Epochs of the epoch whose weights the model holds after Fit,
	// or -1 when no validation data was given (the model then holds the last weights).
	Best int
	// Stopped reports whether early stopping ended training before Config.Epochs.
	Stopped bool
	// Probabilities reports that the kept weights (those of epoch Best, or the last epoch without
	// validation data) were trained by the multi-class softmax cross-entropy: the model's k outputs
	// are then logits, ranked, measured and deployed as their softmax probabilities
	// (crossentropy.Softmax). It is false for every other loss, whose outputs are the scores.
	Probabilities bool
	// Diagnoses holds one row per diagnosed epoch when Config.Diagnose is set, in order.
	Diagnoses []Diagnosis
}

// StepInfo describes a finished optimiser step, for hooks.
type StepInfo struct {
	Epoch int     // 1-based epoch index
	Step  int     // 1-based step within the epoch
	Stage Stage   // which loss was trained
	Loss  float64 // the batch loss before the update
}

// Hook observes training. Either function may be nil. A non-nil error stops training: Fit
// restores the best weights so far and returns the error, naming the hook. A hook that
// panics stops training the same way: Fit recovers and returns [ErrHookPanic].
type Hook struct {
	Name    string
	OnStep  func(StepInfo) error
	OnEpoch func(Epoch) error
}

// ErrHookPanic reports a hook that panicked. The error names the hook and gives the panic
// value, which it also wraps when that is an error; Fit has restored the best weights.
var ErrHookPanic = errors.New("train: a hook panicked")

// callHook runs a hook's function f, turning an error or a panic into Fit's error.
func callHook(name string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if re, ok := r.(error); ok {
				err = fmt.Errorf("%w: %q: %w", ErrHookPanic, name, re)
			} else {
				err = fmt.Errorf("%w: %q: %v", ErrHookPanic, name, r)
			}
		}
	}()
	if err := f(); err != nil {
		return fmt.Errorf("train: hook %q: %w", name, err)
	}
	return nil
}

// Trainer trains one model. It is not safe for concurrent use.
type Trainer struct {
	model nn.Model
	cfg   Config
	// warmup is the number of cross-entropy epochs before Config.Loss: a recipe's warm-up
	// phase (Phase.Warmup), which trains with the batches of the phase it warms up.
	warmup int
}

// configError returns a rocops.ErrConfig error of package train with details: a setting the
// trainer cannot train with.
func configError(format string, args ...any) error {
	return check.Errorf("train", rocops.ErrConfig, format, args...)
}

// New returns a trainer for model with settings cfg. Invalid settings are rocops.ErrConfig
// naming them: a nil model, a negative count or one past its bound (MaxEpochs, and Diagnose.Pool's and
// Selection's), a BatchSize of 1, a PositiveFraction outside [0, 1), a learning rate or
// weight decay that is negative or not finite, an unknown optimiser or metric, a hook without a
// name. The loss's own settings, which depend on the data's task, Fit checks before any step
// ([Loss].Check).
func New(model nn.Model, cfg Config) (*Trainer, error) {
	if model == nil {
		return nil, configError("nil model")
	}
	switch {
	case cfg.Epochs < 0:
		return nil, configError("Epochs = %d is negative", cfg.Epochs)
	case cfg.BatchSize < 0:
		return nil, configError("BatchSize = %d is negative", cfg.BatchSize)
	case cfg.Patience < 0:
		return nil, configError("Patience = %d is negative", cfg.Patience)
	case cfg.NegativePool < 0:
		return nil, configError("NegativePool = %d is negative", cfg.NegativePool)
	case cfg.Epochs > MaxEpochs:
		return nil, configError("Epochs = %d must be at most MaxEpochs = %d", cfg.Epochs, MaxEpochs)
	case cfg.BatchSize == 1:
		return nil, configError("BatchSize must be 0 (the default) or at least 2 to hold both classes, got 1")
	case !(cfg.PositiveFraction >= 0 && cfg.PositiveFraction < 1):
		return nil, configError("PositiveFraction must be in [0, 1), got %v", cfg.PositiveFraction)
	case !(cfg.LearningRate >= 0) || math.IsInf(cfg.LearningRate, 0):
		return nil, configError("LearningRate %v is not a finite number ≥ 0", cfg.LearningRate)
	case !(cfg.WeightDecay >= 0) || math.IsInf(cfg.WeightDecay, 0):
		return nil, configError("WeightDecay %v is not a finite number ≥ 0", cfg.WeightDecay)
	}
	if err := cfg.Optimizer.Validate(); err != nil {
		return nil, fmt.Errorf("train: Config.Optimizer: %w", err)
	}
	if err := cfg.Metric.check(); err != nil {
		return nil, err
	}
	if cfg.Diagnose != nil {
		d, err := cfg.Diagnose.withDefaults()
		if err != nil {
			return nil, err
		}
		cfg.Diagnose = &d
	}
	for i, h := range cfg.Hooks {
		if h.Name == "" {
			return nil, configError("hook %d has no name", i)
		}
	}
	if cfg.Loss == nil {
		cfg.Loss = CrossEntropy{}
	}
	if a, ok := cfg.Loss.(AUCM); ok { // optim.PESG's learning rate, not the optimiser's default
		var err error
		if cfg, err = a.configure(cfg); err != nil {
			return nil, err
		}
	}
	if cfg.Epochs == 0 {
		cfg.Epochs = defaultEpochs
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = 256
	}
	if cfg.LearningRate == 0 {
		cfg.LearningRate = cfg.Optimizer.DefaultRate()
	}
	return &Trainer{model: model, cfg: cfg}, nil
}

// Fit trains the model on train, scoring val (which may be nil) after every epoch. On
// success and on failure alike, the model ends with the weights of the best main-phase
// epoch seen so far (the last weights when val is nil), and the History so far is
// returned. Cancelling ctx stops training after the current step with ctx's error. The data
// are checked before training: both classes, the model's number of features, and for a
// float32 model no feature beyond float32's range (rocops.ErrRange).
func (t *Trainer) Fit(ctx context.Context, train, val *data.Dataset) (*History, error) {
	tk, strata, err := t.checkData(train, val)
	if err != nil {
		return nil, err
	}
	cfg := t.cfg
	if a, ok := cfg.Loss.(AUCM); ok { // the loss with optim.PESG's state, which its step trains
		l, c, err := a.begin(t.model, cfg, tk)
		if err != nil {
			return nil, err
		}
		cfg = c
		if a.State != nil {
			defer func() { *a.State = l.opt.State() }()
		}
	}
	b := min(cfg.BatchSize, train.Rows)
	smp, nPos, nNeg, err := newBatches(train, strata, tk, cfg, b)
	if err != nil {
		return nil, err
	}
	run := &fitRun{t: t, cfg: cfg, task: tk, train: train, smp: smp, idx: make([]int, smp.size()),
		params: paramTensors(t.model), steps: (train.Rows + b - 1) / b,
		hist: &History{Best: -1}, bestMetric: math.Inf(-1)}
	defer run.closeAll()
	run.bar = newProgress(cfg.Progress, (t.warmup+cfg.Epochs)*run.steps)
	defer run.bar.finish()

	var diag *diagnoser
	if cfg.Diagnose != nil {
		if diag, err = newDiagnoser(*cfg.Diagnose, cfg.Loss, t.model, train, b, nPos, nNeg); err != nil {
			return nil, err
		}
	}
	total := t.warmup + cfg.Epochs // grows by the intervention epochs
	for e := 1; e <= total; e++ {
		stage, loss := run.phase(e, diag)
		ep, probs, err := run.epoch(ctx, e, stage, loss)
		if err != nil {
			return run.fail(err)
		}
		extra, stopping, err := run.endEpoch(ep, probs, val, diag, e == total)
		if err != nil {
			return run.fail(err)
		}
		total += extra
		if stopping {
			run.hist.Stopped = e < total
			break
		}
	}
	if err := run.restoreBest(); err != nil {
		return run.hist, fmt.Errorf("train: restoring the best weights: %w", err)
	}
	return run.hist, nil
}

// newBatches returns the sampler of batches of b rows of train (in strata) for task tk: every
// class in every batch on k classes, both values of every label on k labels, and on binary
// data nPos positives and nNeg negatives (Config.PositiveFraction and NegativePool), drawn with
// Config.Seed.
func newBatches(train *data.Dataset, strata data.Strata, tk rocops.Task, cfg Config, b int) (smp *sampler, nPos, nNeg int, err error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x726f636f7073)) // "rocops"
	switch tk.Kind() {
	case rocops.Multiclass:
		smp, err = newClassSampler(train, strata, b, rng)
	case rocops.Multilabel:
		smp, err = newLabelSampler(train, b, rng)
	default:
		nPos, nNeg = batchComposition(b, cfg.PositiveFraction, float64(train.Positives())/float64(train.Rows))
		nNeg = withPool(nNeg, cfg.NegativePool, train.Rows-train.Positives())
		smp = newSampler(strata, nPos, nNeg, rng)
	}
	return smp, nPos, nNeg, err
}

// epoch runs epoch e of stage with loss: its steps, the weight decay and the step hooks. It
// returns the epoch (its mean training loss; Metric NaN) and whether its outputs are measured
// as probabilities (a multi-class softmax epoch, see Metric).
func (r *fitRun) epoch(ctx context.Context, e int, stage Stage, loss Loss) (Epoch, bool, error) {
	probs := softmaxTrained(loss, r.task)
	if r.best == nil {
		// No epoch kept yet: the model will hold this epoch's weights.
		r.hist.Probabilities = probs
	}
	ep := Epoch{Index: e, Stage: stage, Metric: math.NaN()}
	st, err := r.step(stage, loss, r.task, len(r.idx), r.train.Cols)
	if err != nil {
		return ep, probs, err
	}
	var sum float64
	for s := 1; s <= r.steps; s++ {
		if err := ctx.Err(); err != nil {
			return ep, probs, fmt.Errorf("train: stopped at epoch %d: %w", e, err)
		}
		r.smp.next(r.idx)
		l, err := st.run(r.train, r.idx)
		if err != nil {
			return ep, probs, fmt.Errorf("train: epoch %d step %d (%v): %w", e, s, loss, err)
		}
		optim.Decay(r.params, r.cfg.LearningRate, r.cfg.WeightDecay)
		sum += l
		r.bar.add(1)
		for _, h := range r.cfg.Hooks {
			if h.OnStep == nil {
				continue
			}
			info := StepInfo{Epoch: e, Step: s, Stage: stage, Loss: l}
			if err := callHook(h.Name, func() error { return h.OnStep(info) }); err != nil {
				return ep, probs, err
			}
		}
	}
	ep.Loss = sum / float64(r.steps)
	return ep, probs, nil
}

// phase returns the stage of epoch e and the loss it trains: cross-entropy in the warm-up and
// in an intervention epoch the diagnoser has scheduled (which it counts off), Config.Loss
// otherwise.
func (r *fitRun) phase(e int, diag *diagnoser) (Stage, Loss) {
	switch {
	case e <= r.t.warmup:
		return Warmup, CrossEntropy{}
	case diag != nil && diag.pending > 0:
		diag.pending--
		return Intervention, CrossEntropy{}
	}
	return Main, r.cfg.Loss
}

// endEpoch closes epoch ep, whose outputs are measured as probabilities when probs is set:
// it scores val (when not nil) into ep.Metric, records ep in the history and the progress
// bar, keeps the weights of a best main-phase epoch, diagnoses the epoch (last when no epoch
// follows it) and runs the epoch hooks. It returns the intervention epochs the diagnosis adds
// and whether early stopping (Config.Patience) ends training after ep.
func (r *fitRun) endEpoch(ep Epoch, probs bool, val *data.Dataset, diag *diagnoser, last bool) (extra int, stopping bool, err error) {
	if val != nil {
		if ep.Metric, err = r.evaluate(val, probs); err != nil {
			return 0, false, fmt.Errorf("train: validation after epoch %d: %w", ep.Index, err)
		}
	}
	r.hist.Epochs = append(r.hist.Epochs, ep)
	r.bar.describe(ep, r.cfg.Metric)
	if ep.Stage == Main && val != nil {
		if err := r.consider(len(r.hist.Epochs)-1, probs); err != nil {
			return 0, false, err
		}
	}
	stopping = ep.Stage == Main && r.cfg.Patience > 0 && r.sinceBest >= r.cfg.Patience
	if diag != nil {
		if extra, err = r.diagnoseEpoch(diag, ep, last || stopping); err != nil {
			return 0, false, err
		}
	}
	for _, h := range r.cfg.Hooks {
		if h.OnEpoch == nil {
			continue
		}
		if err := callHook(h.Name, func() error { return h.OnEpoch(ep) }); err != nil {
			return 0, false, err
		}
	}
	return extra, stopping, nil
}

// diagnoseEpoch diagnoses epoch ep (last when no epoch follows it) and returns the intervention
// epochs it adds, which the progress bar counts.
func (r *fitRun) diagnoseEpoch(diag *diagnoser, ep Epoch, last bool) (int, error) {
	extra, err := r.diagnose(diag, ep, last)
	if err != nil {
		return 0, err
	}
	r.bar.grow(extra * r.steps)
	if n := len(r.hist.Diagnoses); n > 0 && r.hist.Diagnoses[n-1].Epoch == ep.Index {
		r.bar.diagnosed(ep, r.cfg.Metric, r.hist.Diagnoses[n-1])
	}
	return extra, nil
}

// checkData checks train and val (which may be nil) as Fit documents and returns their task
// and the training data's strata. Each part's features are read once, by nn.CheckInput (finite,
// and within a float32 model's range), and its labels and shape by data.Dataset.Strata: what
// Validate checks, without a second pass over the features.
func (t *Trainer) checkData(train, val *data.Dataset) (rocops.Task, data.Strata, error) {
	if train == nil || train.Rows == 0 {
		return rocops.Task{}, nil, errors.New("train: no training data")
	}
	var trainStrata data.Strata
	for _, part := range []struct {
		name string
		ds   *data.Dataset
	}{{"training", train}, {"validation", val}} {
		if part.ds == nil {
			continue
		}
		strata, err := part.ds.Strata()
		if err != nil {
			return rocops.Task{}, nil, fmt.Errorf("train: %s data: %w", part.name, err)
		}
		if part.ds == train {
			trainStrata = strata
		}
		if part.ds.Cols != t.model.InputSize() {
			return rocops.Task{}, nil, fmt.Errorf("train: %s data has %d features, the model takes %d", part.name, part.ds.Cols, t.model.InputSize())
		}
		if err := checkFeatures(t.model, part.ds); err != nil {
			return rocops.Task{}, nil, fmt.Errorf("train: %s data: %w", part.name, err)
		}
		if part.ds.Task().Kind() != rocops.Binary {
			if err := checkClasses(part.ds, part.name); err != nil {
				return rocops.Task{}, nil, err
			}
		} else if len(strata[0]) == 0 || len(strata[1]) == 0 {
			return rocops.Task{}, nil, fmt.Errorf("train: %s data needs both classes", part.name)
		}
	}
	tk, err := t.checkTask(train, val)
	return tk, trainStrata, err
}

// trainable returns the indices in m.Params() of the parameters training updates: every one
// that is not frozen (nn.Param.Frozen), whose bits training keeps and for which it holds no
// optimiser state.
func trainable(m nn.Model) []int {
	var keep []int
	for i, p := range m.Params() {
		if !p.Frozen {
			keep = append(keep, i)
		}
	}
	return keep
}

// paramTensors returns the value tensors of m's trainable parameters, in Params order.
func paramTensors(m nn.Model) []*tensor.Dense {
	ps := m.Params()
	return pick(nil, func(i int) *tensor.Dense { return ps[i].Value }, trainable(m))
}

// pick sets dst to at(k) for every k of keep, reusing dst's array, and returns it.
func pick[T any](dst []T, at func(int) T, keep []int) []T {
	dst = dst[:0]
	for _, k := range keep {
		dst = append(dst, at(k))
	}
	return dst
}

// evaluate scores val with the run's scorer, built on first use and kept for the run, and
// returns the metric, of the outputs' softmax probabilities when probs is set (see Metric).
func (r *fitRun) evaluate(val *data.Dataset, probs bool) (float64, error) {
	if r.scorer == nil {
		s, err := nn.NewScorer(r.t.model)
		if err != nil {
			return 0, err
		}
		r.scorer = s
	}
	scores, err := scoreData(r.scorer, val)
	if err != nil {
		return 0, err
	}
	return r.t.cfg.Metric.evalData(scores, val, probs)
}

// checkFeatures is nn.CheckInput of ds's features, in float64 (X) or float32 (X32), which
// Strata has checked to be Rows·Cols values.
func checkFeatures(m nn.Model, ds *data.Dataset) error {
	if ds.Float32() {
		return nn.CheckInput(m, ds.X32, ds.Rows)
	}
	return nn.CheckInput(m, ds.X, ds.Rows)
}

// scoreData scores ds's features, in float64 (X) or float32 (X32), with s: a dataset stored
// in float32 is scored without widening it.
func scoreData(s *nn.Scorer, ds *data.Dataset) ([]float64, error) {
	if ds.Float32() {
		return nn.ScoresWith(s, ds.X32, ds.Rows)
	}
	return nn.ScoresWith(s, ds.X, ds.Rows)
}

// fitRun is the state of one Fit call: the compiled step of the current phase, the
// history and the best weights.
type fitRun struct {
	t          *Trainer
	cfg        Config // the trainer's, with AUCM's loss in place
	task       rocops.Task
	train      *data.Dataset
	smp        *sampler
	idx        []int // the rows of a batch
	params     []*tensor.Dense
	steps      int // per epoch
	bar        progress
	hist       *History
	cur        step
	curStage   Stage
	scorer     *nn.Scorer // scores the validation data, built at the first epoch
	best       []nn.Param // copies of the parameters at the best epoch
	bestMetric float64
	sinceBest  int
}

// step returns the compiled training step for phase, building it (and a fresh optimiser)
// when the phase changes.
func (r *fitRun) step(phase Stage, loss Loss, t rocops.Task, batch, cols int) (step, error) {
	if r.cur != nil && r.curStage == phase {
		return r.cur, nil
	}
	r.close()
	st, err := newStep(r.t.model, loss, t, batch, cols, r.t.cfg)
	if err != nil {
		return nil, err
	}
	r.cur, r.curStage = st, phase
	return st, nil
}

// consider records epoch i, whose outputs are measured as probabilities when probs is set, as
// the best if its metric beats the best so far, keeping a copy of the weights.
func (r *fitRun) consider(i int, probs bool) error {
	m := r.hist.Epochs[i].Metric
	if r.best != nil && !(m > r.bestMetric) {
		r.sinceBest++
		return nil
	}
	best, err := nn.Snapshot(r.t.model)
	if err != nil {
		return err
	}
	r.best, r.bestMetric, r.sinceBest, r.hist.Best = best, m, 0, i
	r.hist.Probabilities = probs
	return nil
}

// restoreBest puts the best epoch's weights back into the model, if there was one.
func (r *fitRun) restoreBest() error {
	if r.best == nil {
		return nil
	}
	return nn.Restore(r.t.model, r.best)
}

// fail restores the best weights and returns the history so far with err.
func (r *fitRun) fail(err error) (*History, error) {
	if rerr := r.restoreBest(); rerr != nil {
		err = errors.Join(err, fmt.Errorf("train: restoring the best weights: %w", rerr))
	}
	return r.hist, err
}

func (r *fitRun) close() {
	if r.cur != nil {
		r.cur.close()
		r.cur = nil
	}
}

// closeAll releases the step and the scorer at the end of the run.
func (r *fitRun) closeAll() {
	r.close()
	if r.scorer != nil {
		r.scorer.Close()
		r.scorer = nil
	}
}
