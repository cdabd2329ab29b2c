package train

import (
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/pairwise"
)

// checkLoss reports, as ErrConfig, the settings of l that building it would reject, so that
// New refuses them rather than the first step: a KDE loss's kdequantile.Config (exactly one
// of Alpha and Recall, in (0, 1); bandwidths; Widen in [1e-6, 1e6]), the pairwise.Config of a
// Pairwise, MulticlassPairwise or MultilabelPairwise loss, and every term of a Weighted loss
// (a loss and a finite weight; at least one term). The error names the setting and wraps the
// loss package's own error. Losses of other types are checked when they are built.
func checkLoss(l Loss) error {
	switch l := l.(type) {
	case KDE:
		if err := l.Config.Validate(); err != nil {
			return fmt.Errorf("%w: KDE loss %v: %w", ErrConfig, l, err)
		}
	case Pairwise:
		return checkPairwise(l, l.Config)
	case MulticlassPairwise:
		return checkPairwise(l, binaryPart(l.Config))
	case MultilabelPairwise:
		return checkPairwise(l, l.Config)
	case Weighted:
		if len(l) == 0 {
			return configError("a weighted loss needs at least one term")
		}
		for k, t := range l {
			if t.Loss == nil || math.IsNaN(t.Weight) || math.IsInf(t.Weight, 0) {
				return configError("weighted loss term %d: bad term %v×%v", k, t.Weight, t.Loss)
			}
			if err := checkLoss(t.Loss); err != nil {
				return fmt.Errorf("%w (weighted loss term %d)", err, k)
			}
		}
	}
	return nil
}

// binaryPart returns cfg without its task and comparison: the surrogate, margin, pairs and cuts
// every comparison of a multi-class loss uses, which its task (set when it is built) does not
// change.
func binaryPart(cfg pairwise.Config) pairwise.Config {
	cfg.Task, cfg.OvO = rocops.Task{}, false
	return cfg
}

// checkPairwise reports, as ErrConfig, a pairwise configuration cfg of loss l that
// pairwise.Config.Validate rejects.
func checkPairwise(l Loss, cfg pairwise.Config) error {
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: pairwise loss %v: %w", ErrConfig, l, err)
	}
	return nil
}

// CheckRecipe reports, as [ErrConfig] naming the setting, what r's Fit would reject for r's
// own settings — for the built-in recipes before any training: a bad loss (see [New]), a
// negative count, a learning-rate scale or positive fraction out of range, an [Anneal]
// width outside [1e-6, 1e6], an [AUCM] margin or PESG setting (also ErrPESG). It does not see
// the trainer's Config or the data, which Fit checks. Recipes of other types are not checked
// (nil).
func CheckRecipe(r Recipe) error {
	switch r := r.(type) {
	case Plain:
		return r.check()
	case FineTune:
		return r.check()
	case Anneal:
		return r.check()
	case AUCM:
		return r.check()
	}
	return nil
}

func (p Plain) check() error {
	switch {
	case p.WarmupEpochs < 0:
		return configError("Plain's WarmupEpochs = %d is negative", p.WarmupEpochs)
	case p.NegativePool < 0:
		return configError("Plain's NegativePool = %d is negative", p.NegativePool)
	}
	return checkLoss(p.Loss)
}

func (f FineTune) check() error {
	switch {
	case f.Loss == nil:
		return configError("FineTune needs a Loss")
	case f.Epochs < 0 || f.BatchSize < 0 || f.NegativePool < 0:
		return configError("negative setting in %+v", f)
	case f.Epochs > MaxEpochs:
		return configError("FineTune's Epochs = %d exceeds MaxEpochs = %d", f.Epochs, MaxEpochs)
	case !(f.LearningRateScale >= 0) || math.IsInf(f.LearningRateScale, 0):
		return configError("bad LearningRateScale %v", f.LearningRateScale)
	case !(f.PositiveFraction >= 0 && f.PositiveFraction < 1):
		return configError("FineTune's PositiveFraction must be in [0, 1), got %v", f.PositiveFraction)
	case f.BatchSize == 1:
		return configError("FineTune's BatchSize must be 0 or at least 2, got 1")
	}
	return checkLoss(f.Loss)
}

func (a Anneal) check() error {
	switch {
	case a.Point.Widen != 0:
		return configError("Anneal sets the widths itself; leave Point.Widen 0, got %v", a.Point.Widen)
	case len(a.widths()) == 0:
		return configError("Anneal needs at least one width")
	case a.NegativePool < 0:
		return configError("Anneal's NegativePool = %d is negative", a.NegativePool)
	}
	for _, w := range a.widths() {
		if !(w >= 1e-6 && w <= 1e6) {
			return configError("Anneal's widths must be in [1e-6, 1e6], got %v", w)
		}
		point := a.Point
		point.Widen = w
		if err := checkLoss(KDE{Config: point}); err != nil {
			return err // names the loss, and so the width
		}
	}
	return nil
}
