package train

import (
	"errors"
	"fmt"
	"slices"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/pairwise"
)

// Errors of multi-class and multi-label training, reported by Fit before any step.
var (
	// ErrTask reports a model, loss, metric or validation set that does not fit the training
	// data's task: a model whose number of outputs is not the data's k classes or labels (1 for
	// binary data), a binary loss on multi-class data or a ClassLoss on binary data, a
	// multi-label loss on multi-class data or the reverse, a binary metric (partial AUC, TPR,
	// TNR) on k classes, OvO on multi-label data, validation data of other classes or labels,
	// or a setting binary training only has (PositiveFraction, NegativePool).
	ErrTask = errors.New("train: the model, loss or settings do not fit the data's task")
	// ErrClasses reports classes a multi-class or multi-label batch cannot hold: a class with no
	// training or no validation rows, a label column that is all 0 or all 1 in either part, or a
	// batch too small for one row of every class (k rows) or for a positive and a negative of
	// every label (2k rows), and, with Config.Diagnose, a class of fewer than two training rows
	// or a label column with fewer than two of either value (one for each diagnostic set). The
	// message names the class or label.
	ErrClasses = errors.New("train: classes cannot be batched")
)

// A ClassLoss is a loss of k scores per row: Build receives the batch's (B, k) score matrix and
// its labels, an (B) vector of class indices 0…k−1 in the scores' dtype for a multi-class loss
// or an (B, k) 0/1 matrix for a multi-label one (Multilabel). The trainer trains a ClassLoss on
// a dataset with Classes (multi-class) or Labels (multi-label), on a model of k outputs; nn's
// networks take the direct step through ValueGradRows, any other model the graph step.
type ClassLoss interface {
	Loss
	// Multilabel reports whether the loss takes a B×k indicator (true) or B class indices.
	Multilabel() bool
	// ValueGradRows returns the loss L of the row-major B×k scores with labels (B class
	// indices as floats, or the B×k indicator) and overwrites grad, of length B·k, with
	// ∂L/∂scores. It must not keep the slices or modify scores and labels.
	ValueGradRows(grad, scores []float64, k int, labels []float64) (float64, error)
}

// Softmax is the mean softmax cross-entropy of k-class logits against class indices (package
// crossentropy on a Classes task): L = (1/B) Σ_i −log p_{i,y_i}, p_ic = e^{z_ic}/Σ_d e^{z_id}.
// It is the cross-entropy of multi-class training, also its warm-up and intervention loss.
type Softmax struct{}

// Build implements Loss.
func (Softmax) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	return crossentropy.Loss(scores, labels, crossentropy.Config{Task: taskOfNode(rocops.Classes, scores)})
}

// taskOfNode returns task(k) for an (n, k) scores node, or the binary task for a node that is nil
// or not a matrix, which the op then reports.
func taskOfNode(task func(k int) rocops.Task, scores *gorgonia.Node) rocops.Task {
	if scores == nil || len(scores.Shape()) != 2 {
		return rocops.Task{}
	}
	return task(scores.Shape()[1])
}

func (Softmax) String() string { return "softmax" }

// Multilabel implements ClassLoss.
func (Softmax) Multilabel() bool { return false }

// ValueGradRows implements ClassLoss.
func (Softmax) ValueGradRows(grad, scores []float64, k int, labels []float64) (float64, error) {
	return crossentropy.GradientInto(grad, scores, labels, crossentropy.Config{Task: rocops.Classes(k)})
}

// MulticlassPairwise is the multi-class pairwise AUC surrogate of package pairwise on k
// classes: the binary loss of Config averaged over the one-vs-rest comparisons (Config.OvO
// false), or over the ordered one-vs-one pairs of classes (Config.OvO true). Config.Task is set
// to the model's k classes when the loss is built or evaluated.
type MulticlassPairwise struct{ Config pairwise.Config }

// Build implements Loss.
func (l MulticlassPairwise) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	cfg := l.Config
	cfg.Task = taskOfNode(rocops.Classes, scores)
	return pairwise.Loss(scores, labels, cfg)
}

// String names the surrogate as Pairwise does and the split, as in
// "sqhinge(margin=1, pairs=all, ovr)".
func (l MulticlassPairwise) String() string {
	name := Pairwise{Config: l.Config}.String()
	split := ", ovr)"
	if l.Config.OvO {
		split = ", ovo)"
	}
	return name[:len(name)-1] + split
}

// Multilabel implements ClassLoss.
func (MulticlassPairwise) Multilabel() bool { return false }

// ValueGradRows implements ClassLoss.
func (l MulticlassPairwise) ValueGradRows(grad, scores []float64, k int, labels []float64) (float64, error) {
	cfg := l.Config
	cfg.Task = rocops.Classes(k)
	return pairwise.GradientInto(grad, scores, labels, cfg)
}

// MultilabelPairwise is the multi-label pairwise AUC surrogate of package pairwise on k labels:
// the mean over the k label columns of the binary loss of Config on that column. Config.Task is
// set to the model's k labels when the loss is built or evaluated.
type MultilabelPairwise struct{ Config pairwise.Config }

// Build implements Loss.
func (l MultilabelPairwise) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	cfg := l.Config
	cfg.Task = taskOfNode(labelsTask, scores)
	return pairwise.Loss(scores, labels, cfg)
}

// labelsTask returns the task of k label columns: Labels(k), and for k = 1 the binary task,
// whose loss is the one of a single label column.
func labelsTask(k int) rocops.Task {
	if k == 1 {
		return rocops.Task{}
	}
	return rocops.Labels(k)
}

// String names the surrogate as Pairwise does, as in "sqhinge(margin=1, pairs=all, labels)".
func (l MultilabelPairwise) String() string {
	name := Pairwise{Config: l.Config}.String()
	return name[:len(name)-1] + ", labels)"
}

// Multilabel implements ClassLoss.
func (MultilabelPairwise) Multilabel() bool { return true }

// ValueGradRows implements ClassLoss.
func (l MultilabelPairwise) ValueGradRows(grad, scores []float64, k int, labels []float64) (float64, error) {
	cfg := l.Config
	cfg.Task = labelsTask(k)
	return pairwise.GradientInto(grad, scores, labels, cfg)
}

// MultilabelCrossEntropy is the per-label sigmoid cross-entropy of multi-label training, the
// binary cross-entropy of package crossentropy averaged over all B·k (score, label) cells,
//
//	L = (1/(B·k)) Σ_i Σ_c [log(1 + e^{s_ic}) − Y_ic·s_ic],
//
// the mean over label columns of each column's mean cross-entropy. It is also the warm-up and
// intervention loss of multi-label training.
type MultilabelCrossEntropy struct{}

// Build implements Loss: the op of package crossentropy on the (B, k) scores and labels.
func (MultilabelCrossEntropy) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	return crossentropy.Loss(scores, labels, crossentropy.Config{Task: taskOfNode(labelsTask, scores)})
}

func (MultilabelCrossEntropy) String() string { return "ce(labels)" }

// Multilabel implements ClassLoss.
func (MultilabelCrossEntropy) Multilabel() bool { return true }

// ValueGradRows implements ClassLoss.
func (MultilabelCrossEntropy) ValueGradRows(grad, scores []float64, k int, labels []float64) (float64, error) {
	return crossentropy.GradientInto(grad, scores, labels, crossentropy.Config{Task: labelsTask(k)})
}

// into copies a kernel's gradient g into grad unless err is set.
func into(grad, g []float64, err error) error {
	if err == nil {
		copy(grad, g)
	}
	return err
}

// classDirect is a ClassLoss as a DirectLoss for a model of k outputs: the direct step hands
// it the batch's B·k scores and its B (or B·k) labels.
type classDirect struct {
	ClassLoss
	k int
}

// ValueGradInto implements DirectLoss.
func (c classDirect) ValueGradInto(grad, scores, labels []float64) (float64, error) {
	return c.ValueGradRows(grad, scores, c.k, labels)
}

// forModel returns loss as the step of a model of m's outputs trains it: a ClassLoss wrapped
// to take the direct step with k = nn.Outputs(m), any other loss as it is.
func forModel(loss Loss, m nn.Model) Loss {
	if cl, ok := loss.(ClassLoss); ok {
		return classDirect{ClassLoss: cl, k: nn.Outputs(m)}
	}
	return loss
}

// labelShape returns the shape of a batch's labels for loss on a model of m's outputs: (batch)
// for binary and multi-class losses, (batch, k) for multi-label ones.
func labelShape(loss Loss, m nn.Model, batch int) tensor.Shape {
	if multilabel(loss) {
		return tensor.Shape{batch, nn.Outputs(m)}
	}
	return tensor.Shape{batch}
}

// The tasks a dataset and a loss can have.
type task int

const (
	binaryTask task = iota
	multiclassTask
	multilabelTask
)

func (t task) String() string {
	return [...]string{"binary", "multi-class", "multi-label"}[t]
}

// taskOf returns the task of ds.
func taskOf(ds *data.Dataset) task {
	switch {
	case ds.Classes != nil:
		return multiclassTask
	case ds.Labels != nil:
		return multilabelTask
	}
	return binaryTask
}

// lossTask returns the task of l: that of a ClassLoss, of every term of a Weighted loss (an
// error when they differ), binary for any other loss.
func lossTask(l Loss) (task, error) {
	switch l := l.(type) {
	case ClassLoss:
		if l.Multilabel() {
			return multilabelTask, nil
		}
		return multiclassTask, nil
	case classDirect:
		return lossTask(l.ClassLoss)
	case Weighted:
		var t task
		for i, term := range l {
			tt, err := lossTask(term.Loss)
			if err != nil {
				return 0, err
			}
			if i > 0 && tt != t {
				return 0, fmt.Errorf("%w: weighted loss %v mixes %v and %v terms", ErrTask, l, t, tt)
			}
			t = tt
		}
		return t, nil
	}
	return binaryTask, nil
}

// multilabel reports whether l takes a B×k indicator.
func multilabel(l Loss) bool {
	t, err := lossTask(l)
	return err == nil && t == multilabelTask
}

// crossEntropyFor returns the cross-entropy of task t, the loss of its warm-up and
// intervention epochs.
func crossEntropyFor(t task) Loss {
	switch t {
	case multiclassTask:
		return Softmax{}
	case multilabelTask:
		return MultilabelCrossEntropy{}
	}
	return CrossEntropy{}
}

// softmaxTrained reports whether l is the multi-class softmax cross-entropy, whose model
// outputs are logits ranked by their probabilities (see Metric): Softmax, also as the direct
// step's classDirect, or a Weighted loss of Softmax terms only, each of positive weight (a
// positive multiple of Softmax).
func softmaxTrained(l Loss) bool {
	switch l := l.(type) {
	case Softmax, *Softmax:
		return true
	case classDirect:
		return softmaxTrained(l.ClassLoss)
	case Weighted:
		for _, term := range l {
			if !(term.Weight > 0) || !softmaxTrained(term.Loss) {
				return false
			}
		}
		return len(l) > 0
	}
	return false
}

// checkTask reports, as ErrTask, what keeps the trainer from training t.cfg on train and val
// (which may be nil, both checked by checkData) beyond the checks of binary data, and returns
// the task.
func (t *Trainer) checkTask(train, val *data.Dataset) (task, error) {
	tk := taskOf(train)
	lt, err := lossTask(t.cfg.Loss)
	if err != nil {
		return 0, err
	}
	cfg := t.cfg
	switch k := train.Task().K(); {
	case lt != tk:
		return 0, fmt.Errorf("%w: a %v loss %v on %v data", ErrTask, lt, cfg.Loss, tk)
	case nn.Outputs(t.model) != k:
		return 0, fmt.Errorf("%w: the model gives %d scores per row, the %v data needs %d", ErrTask, nn.Outputs(t.model), tk, k)
	case val != nil && (!slices.Equal(val.Classes, train.Classes) || !slices.Equal(val.Labels, train.Labels)):
		return 0, fmt.Errorf("%w: the validation data's classes or labels differ from the training data's", ErrTask)
	}
	if err := cfg.Metric.checkTask(tk); err != nil {
		return 0, err
	}
	switch {
	case tk == binaryTask:
		return tk, nil
	case cfg.PositiveFraction != 0 || cfg.NegativePool != 0:
		return 0, fmt.Errorf("%w: PositiveFraction and NegativePool are binary settings; %v batches hold every class", ErrTask, tk)
	}
	return tk, nil
}

// checkClasses reports, as ErrClasses, a class of ds without rows or a label column of ds
// with one class.
func checkClasses(ds *data.Dataset, part string) error {
	if ds.Classes != nil {
		for c, n := range classCounts(ds) {
			if n == 0 {
				return fmt.Errorf("%w: class %q has no %s rows", ErrClasses, ds.Classes[c], part)
			}
		}
		return nil
	}
	k := len(ds.Labels)
	pos := make([]int, k)
	for i, y := range ds.Y {
		if y == 1 {
			pos[i%k]++
		}
	}
	for c, p := range pos {
		if p == 0 || p == ds.Rows {
			return fmt.Errorf("%w: label %q is %v on every %s row", ErrClasses, ds.Labels[c], ds.Y[c], part)
		}
	}
	return nil
}

// classCounts returns the number of rows of each class of a multi-class ds.
func classCounts(ds *data.Dataset) []int {
	counts := make([]int, len(ds.Classes))
	for _, y := range ds.Y {
		counts[int(y)]++
	}
	return counts
}

// classIndices returns the class indices of a multi-class ds as ints.
func classIndices(ds *data.Dataset) []int {
	y := make([]int, len(ds.Y))
	for i, v := range ds.Y {
		y[i] = int(v)
	}
	return y
}
