package train

import (
	"fmt"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
)

// ForData returns recipe r, as [ParseRecipe] reads it for binary data, as it trains on ds's
// task (binary, multi-class or multi-label: ds.Classes or ds.Labels set), so that one recipe
// name means the same loss on every task:
//
//   - on binary data every recipe is returned as it is, except a one-vs-one
//     [MulticlassPairwise] loss (the pairwise names' ovo option), which is an [ErrTask] error;
//   - on multi-class data cross-entropy ([CrossEntropy], or a nil Loss) becomes the data's
//     cross-entropy, [Softmax] (Plain with a nil Loss); a binary [Pairwise] loss becomes the
//     one-vs-rest [MulticlassPairwise] loss of the same pairwise.Config, and a one-vs-one one
//     stays as it is;
//   - on multi-label data cross-entropy becomes the per-label sigmoid cross-entropy
//     ([MultilabelCrossEntropy], again Plain with a nil Loss), a Pairwise loss the label-wise
//     [MultilabelPairwise] loss, and a one-vs-one loss is an ErrTask error.
//
// A Plain recipe keeps its WarmupEpochs, whose warm-up trains the data's cross-entropy. A
// recipe that trains the KDE loss ([KDE] in a Plain or Weighted loss, [FineTune], [Anneal])
// is an ErrTask error on multi-class and multi-label data naming it: the KDE loss is a
// binary loss at one operating point, and train has no multi-class form of it. [AUCM] is
// returned as it is, for Fit to train or refuse. ds must not be nil.
func ForData(r Recipe, ds *data.Dataset) (Recipe, error) {
	t := taskOf(ds)
	if t == binaryTask {
		if isOvO(r) {
			return nil, fmt.Errorf("%w: %v: the ovo option applies to multi-class data; %q is binary", ErrTask, r, ds.LabelName)
		}
		return r, nil
	}
	if trainsKDE(r) {
		return nil, fmt.Errorf("%w: %v trains the KDE loss, a binary loss at one false-positive rate, which has no %v form; use ce or a pairwise loss", ErrTask, r, t)
	}
	p, ok := r.(Plain)
	if !ok {
		return r, nil
	}
	switch l := p.Loss.(type) {
	case CrossEntropy:
		p.Loss = nil
	case Pairwise:
		if t == multiclassTask {
			p.Loss = MulticlassPairwise{Config: l.Config}
		} else {
			p.Loss = MultilabelPairwise{Config: l.Config}
		}
	case MulticlassPairwise:
		if t == multilabelTask && l.Config.OvO {
			return nil, fmt.Errorf("%w: %v: the ovo option applies to multi-class data; the %d labels are multi-label", ErrTask, r, len(ds.Labels))
		}
	}
	return p, nil
}

// MetricFor is the validation metric of recipes trained on ds by [ForData]: metric itself on
// binary data, else MacroAUC, one-vs-one when a recipe trains the one-vs-one loss and
// one-vs-rest (label-wise on multi-label data) otherwise.
func MetricFor(recipes []Recipe, ds *data.Dataset, metric Metric) Metric {
	if taskOf(ds) == binaryTask {
		return metric
	}
	for _, r := range recipes {
		if isOvO(r) {
			return MacroAUC(metrics.OvO)
		}
	}
	return MacroAUC(metrics.OvR)
}

// isOvO reports whether r trains the one-vs-one multi-class pairwise loss.
func isOvO(r Recipe) bool {
	p, ok := r.(Plain)
	if !ok {
		return false
	}
	l, ok := p.Loss.(MulticlassPairwise)
	return ok && l.Config.OvO
}

// trainsKDE reports whether r trains the KDE loss in some phase.
func trainsKDE(r Recipe) bool {
	var l Loss
	switch r := r.(type) {
	case Anneal:
		return true
	case FineTune:
		l = r.Loss
	case Plain:
		l = r.Loss
	}
	switch l := l.(type) {
	case KDE:
		return true
	case Weighted:
		for _, term := range l {
			if _, ok := term.Loss.(KDE); ok {
				return true
			}
		}
	}
	return false
}
