package train

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
)

// KDERecipe is the default way to train for an operating point with the KDE loss: a
// [FineTune] of cross-entropy by KDE{point} at a tenth of the learning rate, with the same
// batches, so that on validation data it is never worse than its cross-entropy phase. It is
// what "kde" means in cmd/roctrain; docs/results.md compares it with cross-entropy and with
// the plain KDE loss.
func KDERecipe(point kdequantile.Config) FineTune {
	return FineTune{Loss: KDE{Config: point}}
}

// A Recipe trains a model: one loss with the trainer's settings ([Plain]), or several phases
// ([FineTune]). cfg holds the trainer's settings; the recipe sets the losses, so cfg.Loss
// must be nil and cfg.WarmupEpochs zero. Fit leaves the model with the weights the recipe
// keeps and returns their History, as [Trainer.Fit] does.
type Recipe interface {
	Fit(ctx context.Context, model nn.Model, cfg Config, train, val *data.Dataset) (*History, error)
	// String names the recipe and its settings, as tables and logs show it.
	String() string
}

// Plain trains Loss with one [Trainer], after WarmupEpochs epochs of cross-entropy: the
// recipe of every loss but the KDE default.
type Plain struct {
	Loss         Loss // nil = the data's cross-entropy (see Config.Loss)
	WarmupEpochs int
	// NegativePool is the run's Config.NegativePool (warm-up included); 0 =
	// Config.NegativePool.
	NegativePool int
}

// Fit implements Recipe.
func (p Plain) Fit(ctx context.Context, model nn.Model, cfg Config, train, val *data.Dataset) (*History, error) {
	if err := recipeConfig(cfg); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	cfg.Loss, cfg.WarmupEpochs = p.Loss, p.WarmupEpochs
	if p.NegativePool != 0 {
		cfg.NegativePool = p.NegativePool
	}
	t, err := New(model, cfg)
	if err != nil {
		return nil, err
	}
	return t.Fit(ctx, train, val)
}

func (p Plain) String() string {
	l := p.Loss
	if l == nil {
		l = CrossEntropy{}
	}
	s := l.String()
	if p.WarmupEpochs > 0 {
		s = fmt.Sprintf("ce(%d epochs)→%v", p.WarmupEpochs, l)
	}
	if p.NegativePool > 0 {
		s += fmt.Sprintf(", %d pooled negatives", p.NegativePool)
	}
	return s
}

// recipeConfig rejects the settings a recipe sets itself.
func recipeConfig(cfg Config) error {
	if cfg.Loss != nil || cfg.WarmupEpochs != 0 {
		return configError("a recipe sets the losses itself; leave Config.Loss nil and WarmupEpochs 0")
	}
	return nil
}

// FineTune is a two-phase training recipe: cross-entropy trained to its best validation
// epoch, then Loss (typically KDE) started from those weights at a smaller learning rate,
// optionally with larger or more positive-rich batches. The cross-entropy weights compete
// with the second phase's epochs for the final model, so on the validation data the recipe
// is never worse than its own first phase: the second phase is kept only when it improves
// the validation metric.
//
// Why two phases for the KDE loss: its gradient reaches only scores within a few bandwidths
// of the threshold τ, so a model whose positives mostly start far below τ gets almost no
// signal, and nothing in the loss fixes the score scale. Cross-entropy first puts the
// positives near the operating region at a sensible scale; the KDE loss then adjusts the
// ranking where it is measured. A batch of b rows holds about α·b negatives above τ, so at
// α = 0.05 a batch of 128 sets τ from about six negatives; BatchSize, PositiveFraction and
// NegativePool change the second phase's batches (docs/results.md measures each).
type FineTune struct {
	// Loss is the second phase's loss; it must be set.
	Loss Loss
	// Epochs is the number of second-phase epochs; 0 = Config.Epochs.
	Epochs int
	// LearningRateScale multiplies Config.LearningRate in the second phase; 0 = 0.1.
	LearningRateScale float64
	// BatchSize is the second phase's batch size; 0 = Config.BatchSize.
	BatchSize int
	// PositiveFraction is the second phase's share of positives per batch; 0 =
	// Config.PositiveFraction.
	PositiveFraction float64
	// NegativePool is the second phase's Config.NegativePool, negatives added to every batch
	// so that τ rests on more of them; 0 = Config.NegativePool.
	NegativePool int
}

func (f FineTune) String() string {
	s := fmt.Sprintf("ce→%v at lr×%g", f.Loss, f.lrScale())
	if f.BatchSize > 0 {
		s += fmt.Sprintf(", batch %d", f.BatchSize)
	}
	if f.PositiveFraction > 0 {
		s += fmt.Sprintf(", %g positive", f.PositiveFraction)
	}
	if f.NegativePool > 0 {
		s += fmt.Sprintf(", %d pooled negatives", f.NegativePool)
	}
	return s
}

func (f FineTune) lrScale() float64 {
	if f.LearningRateScale == 0 {
		return 0.1
	}
	return f.LearningRateScale
}

// Fit trains model by the recipe. cfg holds the first phase's settings (its Loss must be nil
// and its WarmupEpochs zero: the recipe sets both phases' losses) and the defaults of the
// second; cfg.Patience, which stops either phase early, applies to both. Validation data is
// required, since it picks the first phase's best epoch and decides whether the second phase
// is kept.
//
// The History lists the cross-entropy epochs as Warmup epochs and the second phase's as Main
// epochs, indexed consecutively; Best points to the epoch whose weights the model holds at
// the end, which may be a Warmup epoch, and Probabilities is that phase's (true for a kept
// cross-entropy epoch on multi-class data, whose outputs are logits). Each epoch's metric is
// that of its own phase's scores (see Metric), so on multi-class data the phases compete on
// the softmax probabilities of the first and the raw outputs of a pairwise second phase. On an error in the second phase the model holds the
// better of the two phases' best weights so far.
func (f FineTune) Fit(ctx context.Context, model nn.Model, cfg Config, train, val *data.Dataset) (*History, error) {
	switch {
	case f.check() != nil:
		return nil, f.check()
	case recipeConfig(cfg) != nil:
		return nil, recipeConfig(cfg)
	case val == nil:
		return nil, configError("FineTune needs validation data")
	}
	first := cfg // Loss nil: the data's cross-entropy
	t1, err := New(model, first)
	if err != nil {
		return nil, err
	}
	h1, err := t1.Fit(ctx, train, val)
	if err != nil {
		return relabel(h1), err
	}
	firstBest := h1.bestMetric()
	keep, err := nn.Snapshot(model)
	if err != nil {
		return relabel(h1), err
	}

	second := t1.cfg // with the defaults filled in
	second.Loss = f.Loss
	second.LearningRate *= f.lrScale()
	if f.Epochs > 0 {
		second.Epochs = f.Epochs
	}
	if f.BatchSize > 0 {
		second.BatchSize = f.BatchSize
	}
	if f.PositiveFraction > 0 {
		second.PositiveFraction = f.PositiveFraction
	}
	if f.NegativePool > 0 {
		second.NegativePool = f.NegativePool
	}
	t2, err := New(model, second)
	if err != nil {
		return relabel(h1), err
	}
	h2, err2 := t2.Fit(ctx, train, val)
	hist := relabel(h1)
	if h2 != nil {
		offset := hist.appendPhase(h2)
		hist.Stopped = h2.Stopped
		if h2.bestMetric() > firstBest {
			hist.Best, hist.Probabilities = offset+h2.Best, h2.Probabilities
			return hist, err2
		}
	}
	// The second phase did not improve the validation metric: back to the first's weights,
	// whose History.Probabilities hist keeps.
	if err := nn.Restore(model, keep); err != nil {
		return hist, errors.Join(err2, fmt.Errorf("train: restoring the cross-entropy weights: %w", err))
	}
	return hist, err2
}

// relabel marks a first-phase history's main epochs, and their diagnoses, as warm-up.
func relabel(h *History) *History {
	if h == nil {
		return &History{Best: -1}
	}
	for i := range h.Epochs {
		if h.Epochs[i].Phase == Main {
			h.Epochs[i].Phase = Warmup
		}
	}
	for i := range h.Diagnoses {
		if h.Diagnoses[i].Phase == Main {
			h.Diagnoses[i].Phase = Warmup
		}
	}
	return h
}

// appendPhase appends the epochs and diagnoses of a later phase's History next to hist's,
// numbering them on from hist's last epoch, and returns the offset added to their indices.
func (hist *History) appendPhase(next *History) int {
	offset := len(hist.Epochs)
	for _, e := range next.Epochs {
		e.Index += offset
		hist.Epochs = append(hist.Epochs, e)
	}
	for _, d := range next.Diagnoses {
		d.Epoch += offset
		hist.Diagnoses = append(hist.Diagnoses, d)
	}
	return offset
}

// bestMetric returns the validation metric of h's best epoch, or −Inf without one.
func (h *History) bestMetric() float64 {
	if h.Best < 0 {
		return math.Inf(-1)
	}
	return h.Epochs[h.Best].Metric
}

// Anneal trains the KDE loss at Point in one phase per entry of Widths, in order: phase k
// sets kdequantile.Config.Widen to Widths[k] (bandwidths Widths[k] times the rule's) and
// trains for Config.Epochs/len(Widths) epochs (at least one), starting from the weights the
// previous phase kept, its best validation epoch's. The model ends with the best weights of
// the phase whose best epoch scored highest on validation, and the History lists every
// phase's epochs as Main epochs, indexed consecutively. Wide kernels reach positives far
// below τ, which the rule's bandwidths leave without a gradient, so the first phases move
// them into reach and the last one sharpens the estimate (docs/results.md measures it).
type Anneal struct {
	// Point is the KDE loss's operating point; its Widen must be 0, since the phases set it.
	Point kdequantile.Config
	// Widths are the phases' bandwidth multipliers, each in [1e-6, 1e6]; nil = {4, 2, 1}.
	Widths []float64
	// NegativePool is the phases' Config.NegativePool; 0 = Config.NegativePool.
	NegativePool int
}

func (a Anneal) widths() []float64 {
	if a.Widths == nil {
		return []float64{4, 2, 1}
	}
	return a.Widths
}

func (a Anneal) String() string {
	s := fmt.Sprintf("%v annealed over widths %v", KDE{Config: a.Point}, a.widths())
	if a.NegativePool > 0 {
		s += fmt.Sprintf(", %d pooled negatives", a.NegativePool)
	}
	return s
}

// Fit implements Recipe. cfg.Loss must be nil and cfg.WarmupEpochs zero, and validation data
// is required, since it picks each phase's weights and the phase kept. On an error the model
// holds the best weights so far.
func (a Anneal) Fit(ctx context.Context, model nn.Model, cfg Config, train, val *data.Dataset) (*History, error) {
	switch {
	case recipeConfig(cfg) != nil:
		return nil, recipeConfig(cfg)
	case a.check() != nil:
		return nil, a.check()
	case val == nil:
		return nil, configError("Anneal needs validation data")
	}
	if cfg.Epochs == 0 {
		cfg.Epochs = defaultEpochs
	}
	if a.NegativePool > 0 {
		cfg.NegativePool = a.NegativePool
	}
	perPhase := max(1, cfg.Epochs/len(a.widths()))
	hist := &History{Best: -1}
	var best []nn.Param
	bestMetric := math.Inf(-1)
	for _, w := range a.widths() {
		point := a.Point
		point.Widen = w
		c := cfg
		c.Loss, c.Epochs = KDE{Config: point}, perPhase
		t, err := New(model, c)
		if err == nil {
			var h *History
			h, err = t.Fit(ctx, train, val)
			if h != nil {
				offset := hist.appendPhase(h)
				hist.Stopped = hist.Stopped || h.Stopped
				if m := h.bestMetric(); m > bestMetric {
					snap, serr := nn.Snapshot(model)
					if serr != nil {
						return hist, errors.Join(err, serr)
					}
					best, bestMetric, hist.Best = snap, m, offset+h.Best
					hist.Probabilities = h.Probabilities
				}
			}
		}
		if err != nil {
			if best != nil {
				err = errors.Join(err, nn.Restore(model, best))
			}
			return hist, err
		}
	}
	if best == nil {
		return hist, nil
	}
	return hist, nn.Restore(model, best)
}
