package opkit

import (
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// ApplyRows is [Apply] for a score matrix: scores is an (n, k) matrix, k ≥ 1, one row per
// example, and labels an (n) vector (such as class indices) or an (n, k) matrix (such as
// multi-label indicators), of the scores' dtype. The kernel receives both row-major, as
// float64 slices of n·k and n or n·k elements, and returns the gradient row-major too; the
// backward node gives it the scores' shape. Everything else is Apply's: one kernel call per
// step, both machines, both dtypes, range-checked results. The kernel's String must name every
// parameter, k included if the kernel uses it.
func ApplyRows(k Kernel, scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	_, _, labelDims, err := CheckRows(k.Package(), scores, labels)
	if err != nil {
		return nil, err
	}
	n, err := gorgonia.ApplyOp(&forwardOp{k: k, dims: [2]int{2, labelDims}}, scores, labels)
	if err != nil {
		return nil, check.Errorf(k.Package(), rocops.ErrNode, "%v", err)
	}
	return n, nil
}

// CheckRows reports, with errors prefixed by pkg, why scores and labels cannot feed
// [ApplyRows], and returns the scores' shape (n, k) and the labels' number of dimensions, 1
// or 2. Every error wraps [rocops.ErrNode] (a nil node, nodes of two graphs, a dtype other than
// float32/float64 or mismatched, scores that are not a matrix of known positive shape, labels
// that are neither a vector nor a matrix of known positive shape) or [rocops.ErrLength] (labels
// with a number of rows other than n, or a matrix with a number of columns other than k).
func CheckRows(pkg string, scores, labels *gorgonia.Node) (n, k, labelDims int, err error) {
	if scores == nil || labels == nil {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrNode, "scores and labels nodes must not be nil")
	}
	if scores.Graph() != labels.Graph() {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrNode, "scores and labels belong to different graphs")
	}
	dt, lt := scores.Dtype(), labels.Dtype()
	if dt != tensor.Float64 && dt != tensor.Float32 {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrNode, "scores have dtype %v, want float32 or float64", dt)
	}
	if dt != lt {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrNode,
			"scores are %v but labels are %v; labels must use the scores' dtype", dt, lt)
	}
	s := scores.Shape()
	if scores.Dims() != 2 || len(s) != 2 || s[0] <= 0 || s[1] <= 0 {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrNode,
			"scores: want an (n, k) matrix of known positive shape, got shape %v", s)
	}
	n, k = s[0], s[1]
	l := labels.Shape()
	switch {
	case labels.Dims() == 1:
		nl, err := vectorLength(labels)
		if err != nil {
			return 0, 0, 0, check.Errorf(pkg, rocops.ErrNode, "labels: %v", err)
		}
		if nl != n {
			return 0, 0, 0, check.Errorf(pkg, rocops.ErrLength, "%d rows of scores, %d labels", n, nl)
		}
		return n, k, 1, nil
	case labels.Dims() == 2 && len(l) == 2 && l[0] > 0 && l[1] > 0:
		if l[0] != n || l[1] != k {
			return 0, 0, 0, check.Errorf(pkg, rocops.ErrLength, "scores are %v, labels %v", s, l)
		}
		return n, k, 2, nil
	}
	return 0, 0, 0, check.Errorf(pkg, rocops.ErrNode,
		"labels: want an (n) vector or an (n, k) matrix, got shape %v", l)
}

// ApplyTask is [Apply] for a binary task t and [ApplyRows] for a task of k classes or labels,
// after [CheckTask]: the one entry point of a task-general loss op, whose kernel receives the
// scores and labels as the task's slices (see [rocops.Task]).
func ApplyTask(k Kernel, t rocops.Task, scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	if err := CheckTask(k.Package(), t, scores, labels); err != nil {
		return nil, err
	}
	if t.Kind() == rocops.Binary {
		return Apply(k, scores, labels)
	}
	return ApplyRows(k, scores, labels)
}

// CheckTask reports, with errors prefixed by pkg, why scores and labels cannot feed a loss of
// task t: for a binary task those of [CheckPair]; for Classes(k) and Labels(k) those of
// [CheckRows], and [rocops.ErrNode] for scores of other than k columns or labels of another
// shape than the task's: an (n) vector of class indices for Classes(k), an (n, k) matrix of
// 0/1 labels for Labels(k).
func CheckTask(pkg string, t rocops.Task, scores, labels *gorgonia.Node) error {
	if t.Kind() == rocops.Binary {
		return CheckPair(pkg, scores, labels)
	}
	_, k, dims, err := CheckRows(pkg, scores, labels)
	switch {
	case err != nil:
		return err
	case k != t.K():
		return check.Errorf(pkg, rocops.ErrNode, "scores have %d columns, the task %v", k, t)
	case t.Kind() == rocops.Multiclass && dims != 1:
		return check.Errorf(pkg, rocops.ErrNode, "labels: want an (n) vector of class indices for %v, got shape %v", t, labels.Shape())
	case t.Kind() == rocops.Multilabel && dims != 2:
		return check.Errorf(pkg, rocops.ErrNode, "labels: want an (n, k) matrix of 0/1 labels for %v, got shape %v", t, labels.Shape())
	}
	return nil
}
