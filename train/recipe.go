package train

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
)

// A Phase is one stretch of a [Recipe]: one loss trained with one set of batches and one
// learning rate. Its zero fields take the run's Config; the zero Phase trains the data's
// cross-entropy for Config.Epochs epochs.
type Phase struct {
	// Loss is the phase's loss; nil = CrossEntropy, the data's cross-entropy.
	Loss Loss
	// Epochs is the phase's number of epochs; 0 = Config.Epochs.
	Epochs int
	// LearningRateScale multiplies Config.LearningRate (after its default); 0 = 1.
	LearningRateScale float64
	// BatchSize is the phase's batch size; 0 = Config.BatchSize.
	BatchSize int
	// PositiveFraction is the phase's share of positives per batch; 0 = Config.PositiveFraction.
	PositiveFraction float64
	// NegativePool is the phase's Config.NegativePool (negatives added to every batch, so that
	// a quantile loss sets its threshold from more of them); 0 = Config.NegativePool.
	NegativePool int
	// Warmup makes the phase a cross-entropy warm-up of the phase after it (Chen et al., arXiv
	// 2610.21743: pairwise training started from a cross-entropy solution has few severe
	// misrankings): its Epochs epochs (at least one) train the data's cross-entropy with the
	// batches of the next phase, whose settings it shares (its other fields stay zero), and
	// are never kept; the next phase starts from the warm-up's last weights with a fresh
	// optimiser and continues its batches. The History labels its epochs Warmup.
	Warmup bool
	// KeepIfBetter keeps the phase's best weights only when they score higher on validation
	// than the best of the phases before; otherwise the model ends with those. false = the
	// phase's best weights replace the earlier phases' whatever they score. It has no effect on
	// a recipe's first phase.
	KeepIfBetter bool
}

// A Recipe trains a model in phases, one after the other, each starting from the weights the
// phase before it kept (its best validation epoch's, or a warm-up's last): [Plain] is one
// phase, [WithWarmup] a cross-entropy warm-up and a loss, [FineTune] cross-entropy then a
// second loss kept only when it improves validation, [Anneal] the KDE loss over shrinking
// bandwidths. Fit leaves the model with the best weights of the phases it keeps and returns
// their History, as [Trainer.Fit] does; a recipe of several phases (a warm-up and its phase
// count as one) needs validation data, which chooses between them.
//
// The History numbers every phase's epochs on from the last; the epochs of a warm-up, and those
// of a cross-entropy phase (nil Loss) that another phase follows, are Warmup epochs, the rest
// Main; Best points to the epoch whose weights the model holds, and Probabilities is that
// epoch's phase's (see History).
type Recipe []Phase

// Plain is the recipe of one phase training loss (nil = the data's cross-entropy) with the
// run's settings.
func Plain(loss Loss) Recipe { return Recipe{{Loss: loss}} }

// WithWarmup is the recipe of epochs of cross-entropy warm-up before loss (see
// [Phase].Warmup); epochs = 0 is Plain(loss).
func WithWarmup(epochs int, loss Loss) Recipe {
	if epochs == 0 {
		return Plain(loss)
	}
	return Recipe{{Epochs: epochs, Warmup: true}, {Loss: loss}}
}

// FineTune is the recipe of cross-entropy trained to its best validation epoch, then phase
// second started from those weights at a smaller learning rate (second.LearningRateScale; 0 =
// 0.1), optionally with larger or more positive-rich batches, kept only when it improves the
// validation metric (KeepIfBetter): on the validation data the recipe is never worse than its
// own first phase.
//
// Why two phases for the KDE loss: its gradient reaches only scores within a few bandwidths of
// the threshold τ, so a model whose positives mostly start far below τ gets almost no signal,
// and nothing in the loss fixes the score scale. Cross-entropy first puts the positives near the
// operating region at a sensible scale; the KDE loss then adjusts the ranking where it is
// measured. A batch of b rows holds about α·b negatives above τ, so at α = 0.05 a batch of 128
// sets τ from about six negatives; BatchSize, PositiveFraction and NegativePool change the
// second phase's batches (docs/results.md measures each).
func FineTune(second Phase) Recipe {
	second.LearningRateScale = cmp.Or(second.LearningRateScale, 0.1)
	second.KeepIfBetter = true
	return Recipe{{}, second}
}

// KDERecipe is the default way to train for an operating point with the KDE loss: the
// [FineTune] of cross-entropy by KDE{point} at a tenth of the learning rate, with the same
// batches. It is what "kde" means in cmd/roctrain; docs/results.md compares it with
// cross-entropy and with the plain KDE loss.
func KDERecipe(point kdequantile.Config) Recipe { return FineTune(Phase{Loss: KDE{Config: point}}) }

// Anneal is the recipe of the KDE loss at point in one phase per entry of widths, in order:
// phase k sets point.Widen to widths[k] (bandwidths widths[k] times the rule's, 0 the rule's
// own; nil = {4, 2, 1}) and trains for epochs/len(widths) epochs (at least one; epochs = 0 is the trainer's
// default of 20), starting from the weights the previous phase kept. Each phase is kept only
// when it improves validation (KeepIfBetter), so the model ends with the best weights of the
// phase whose best epoch scored highest. Wide kernels reach positives far below τ, which the
// rule's bandwidths leave without a gradient, so the first phases move them into reach and the
// last one sharpens the estimate (docs/results.md measures it).
func Anneal(point kdequantile.Config, widths []float64, epochs int) Recipe {
	if widths == nil {
		widths = []float64{4, 2, 1}
	}
	per := max(1, cmp.Or(epochs, defaultEpochs)/max(1, len(widths)))
	r := make(Recipe, len(widths))
	for k, w := range widths {
		p := point
		p.Widen = w
		r[k] = Phase{Loss: KDE{Config: p}, Epochs: per, KeepIfBetter: true}
	}
	return r
}

func (r Recipe) String() string {
	var parts []string
	for k := 0; k < len(r); k++ {
		p := r[k]
		if p.Warmup && k+1 < len(r) {
			parts = append(parts, fmt.Sprintf("ce(%d epochs)→%v", p.Epochs, r[k+1].describe()))
			k++
			continue
		}
		parts = append(parts, p.describe())
	}
	return strings.Join(parts, "→")
}

// describe names the phase's loss and the settings it sets.
func (p Phase) describe() string {
	var l Loss = CrossEntropy{}
	if p.Loss != nil {
		l = p.Loss
	}
	s := l.String()
	if p.Epochs > 0 && !p.Warmup {
		s += fmt.Sprintf(" for %d epochs", p.Epochs)
	}
	if p.LearningRateScale != 0 && p.LearningRateScale != 1 {
		s += fmt.Sprintf(" at lr×%g", p.LearningRateScale)
	}
	if p.BatchSize > 0 {
		s += fmt.Sprintf(", batch %d", p.BatchSize)
	}
	if p.PositiveFraction > 0 {
		s += fmt.Sprintf(", %g positive", p.PositiveFraction)
	}
	if p.NegativePool > 0 {
		s += fmt.Sprintf(", %d pooled negatives", p.NegativePool)
	}
	return s
}

// Check reports, as rocops.ErrConfig naming the setting, what Fit would refuse of the recipe's
// own phases on data of task t, before any training: no phase, a negative count or one past
// MaxEpochs, a learning-rate scale or positive fraction out of range, a batch of one row, a
// warm-up that is not a cross-entropy phase of its own epochs before a phase it warms up, a
// warm-up before AUCM (whose PESG steps from the start), and each phase's [Loss].Check on t
// (rocops.ErrConfig or ErrTask). It does not see the trainer's Config or the data, which Fit
// checks.
func (r Recipe) Check(t rocops.Task) error {
	if len(r) == 0 {
		return configError("a recipe needs at least one phase")
	}
	for k, p := range r {
		if err := p.check(); err != nil {
			return fmt.Errorf("%w (phase %d of %v)", err, k+1, r)
		}
		if p.Warmup {
			switch {
			case k+1 == len(r) || r[k+1].Warmup:
				return configError("phase %d of %v: a warm-up needs a phase after it to warm up", k+1, r)
			case p.Epochs < 1:
				return configError("phase %d of %v: a warm-up needs at least one epoch", k+1, r)
			case p.Loss != nil || p.LearningRateScale != 0 || p.BatchSize != 0 || p.PositiveFraction != 0 ||
				p.NegativePool != 0 || p.KeepIfBetter:
				return configError("phase %d of %v: a warm-up trains cross-entropy with the next phase's settings; leave its other fields zero", k+1, r)
			}
			if _, ok := r[k+1].Loss.(AUCM); ok {
				return configError("phase %d of %v: AUCM trains with PESG from the start, without a warm-up", k+1, r)
			}
			continue
		}
		var l Loss = CrossEntropy{}
		if p.Loss != nil {
			l = p.Loss
		}
		if err := l.Check(t); err != nil {
			return err
		}
	}
	return nil
}

// checkSettings is Check of the recipe's own settings, whatever the data's task: Check on binary
// data with the refusals of a task (ErrTask) left to the Check on the data's.
func (r Recipe) checkSettings() error {
	if err := r.Check(rocops.Task{}); err != nil && !errors.Is(err, ErrTask) {
		return err
	}
	return nil
}

// check reports the phase's own settings out of range.
func (p Phase) check() error {
	switch {
	case p.Epochs < 0 || p.BatchSize < 0 || p.NegativePool < 0:
		return configError("negative setting in %+v", p)
	case p.Epochs > MaxEpochs:
		return configError("Epochs = %d exceeds MaxEpochs = %d", p.Epochs, MaxEpochs)
	case !(p.LearningRateScale >= 0) || math.IsInf(p.LearningRateScale, 0):
		return configError("bad LearningRateScale %v", p.LearningRateScale)
	case !(p.PositiveFraction >= 0 && p.PositiveFraction < 1):
		return configError("PositiveFraction must be in [0, 1), got %v", p.PositiveFraction)
	case p.BatchSize == 1:
		return configError("BatchSize must be 0 or at least 2, got 1")
	}
	return nil
}

// segments groups the recipe's phases into the Fits that train them: each phase, with the
// warm-up before it.
func (r Recipe) segments() []segment {
	var out []segment
	warmup := 0
	for _, p := range r {
		if p.Warmup {
			warmup = p.Epochs
			continue
		}
		out = append(out, segment{phase: p, warmup: warmup})
		warmup = 0
	}
	return out
}

// A segment is one Trainer.Fit of a recipe: a phase and the warm-up epochs before it.
type segment struct {
	phase  Phase
	warmup int
}

// trainer returns the segment's Trainer: cfg with the phase's settings.
func (s segment) trainer(model nn.Model, cfg Config) (*Trainer, error) {
	p := s.phase
	cfg.Loss = p.Loss
	if p.Epochs > 0 {
		cfg.Epochs = p.Epochs
	}
	if p.LearningRateScale != 0 && p.LearningRateScale != 1 {
		cfg.LearningRate = cmp.Or(cfg.LearningRate, cfg.Optimizer.DefaultRate()) * p.LearningRateScale
	}
	if p.BatchSize > 0 {
		cfg.BatchSize = p.BatchSize
	}
	if p.PositiveFraction > 0 {
		cfg.PositiveFraction = p.PositiveFraction
	}
	if p.NegativePool > 0 {
		cfg.NegativePool = p.NegativePool
	}
	t, err := New(model, cfg)
	if err != nil {
		return nil, err
	}
	t.warmup = s.warmup
	return t, nil
}

// Fit trains model by the recipe with the run's settings cfg (whose Loss must be nil: the
// phases set the losses), on train, choosing on val (nil only for a recipe of one phase and its
// warm-up). On an error the model holds the best weights kept so far, and the History so far
// is returned.
func (r Recipe) Fit(ctx context.Context, model nn.Model, cfg Config, train, val *data.Dataset) (*History, error) {
	if cfg.Loss != nil {
		return nil, configError("a recipe sets the losses itself; leave Config.Loss nil")
	}
	task := rocops.Task{}
	if train != nil {
		task = train.Task()
	}
	if err := r.Check(task); err != nil {
		return nil, err
	}
	segs := r.segments()
	if len(segs) > 1 && val == nil {
		return nil, configError("%v needs validation data to choose between its phases", r)
	}
	run := recipeRun{model: model, bestMetric: math.Inf(-1)}
	for k, s := range segs {
		t, err := s.trainer(model, cfg)
		if err != nil {
			return run.fail(err)
		}
		h, err := t.Fit(ctx, train, val)
		if h != nil {
			if s.phase.Loss == nil && k+1 < len(segs) {
				relabel(h)
			}
			if serr := run.add(h, k == 0 || !s.phase.KeepIfBetter, k+1 < len(segs)); serr != nil {
				err = errors.Join(err, serr)
			}
		}
		if err != nil {
			return run.fail(err)
		}
	}
	return run.finish()
}

// recipeRun is the state of one Recipe.Fit: the History so far, and the weights of the best
// phase when the model no longer holds them.
type recipeRun struct {
	model      nn.Model
	hist       *History
	best       []nn.Param // nil while the model holds the best phase's weights
	bestMetric float64
}

// add appends a phase's History h, whose weights the model now holds. The phase becomes the
// best when keep is set or its best validation metric beats the best so far; more says whether
// another phase will train the model after it, so that the best weights must be kept aside.
func (r *recipeRun) add(h *History, keep, more bool) error {
	offset := 0
	if r.hist == nil {
		r.hist = &History{Best: -1}
	} else {
		offset = len(r.hist.Epochs)
	}
	r.hist.appendPhase(h)
	r.hist.Stopped = r.hist.Stopped || h.Stopped
	if m := h.bestMetric(); keep || m > r.bestMetric {
		r.bestMetric, r.hist.Best, r.hist.Probabilities = m, h.Best, h.Probabilities
		if h.Best >= 0 {
			r.hist.Best += offset
		}
		r.best = nil
		if more {
			snap, err := nn.Snapshot(r.model)
			if err != nil {
				return err
			}
			r.best = snap
		}
	}
	return nil
}

// fail restores the best weights kept aside, if any, and returns the History so far with err.
func (r *recipeRun) fail(err error) (*History, error) {
	if r.best != nil {
		if rerr := nn.Restore(r.model, r.best); rerr != nil {
			err = errors.Join(err, fmt.Errorf("train: restoring the best phase's weights: %w", rerr))
		}
	}
	if r.hist == nil {
		return &History{Best: -1}, err
	}
	return r.hist, err
}

// finish restores the best weights kept aside, if the last phase was not the best, and returns
// the History.
func (r *recipeRun) finish() (*History, error) {
	if r.best != nil {
		if err := nn.Restore(r.model, r.best); err != nil {
			return r.hist, fmt.Errorf("train: restoring the best phase's weights: %w", err)
		}
	}
	return r.hist, nil
}

// relabel marks a phase's main epochs, and their diagnoses, as warm-up: a cross-entropy phase
// that another phase follows.
func relabel(h *History) {
	for i := range h.Epochs {
		if h.Epochs[i].Stage == Main {
			h.Epochs[i].Stage = Warmup
		}
	}
	for i := range h.Diagnoses {
		if h.Diagnoses[i].Stage == Main {
			h.Diagnoses[i].Stage = Warmup
		}
	}
}

// appendPhase appends the epochs and diagnoses of a later phase's History next to hist's,
// numbering them on from hist's last epoch.
func (hist *History) appendPhase(next *History) {
	offset := len(hist.Epochs)
	for _, e := range next.Epochs {
		e.Index += offset
		hist.Epochs = append(hist.Epochs, e)
	}
	for _, d := range next.Diagnoses {
		d.Epoch += offset
		hist.Diagnoses = append(hist.Diagnoses, d)
	}
}

// bestMetric returns the validation metric of h's best epoch, or −Inf without one.
func (h *History) bestMetric() float64 {
	if h.Best < 0 {
		return math.Inf(-1)
	}
	return h.Epochs[h.Best].Metric
}
