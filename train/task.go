package train

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// Errors of multi-class and multi-label training, reported by Fit before any step.
var (
	// ErrTask reports a model, loss, metric or validation set that does not fit the training
	// data's task: a model whose number of outputs is not the data's k classes or labels (1 for
	// binary data), a loss without a form for the task (the KDE loss on k classes or labels,
	// the one-vs-one comparison on binary or multi-label data), a binary metric (partial AUC,
	// TPR, TNR) on k classes, OvO on multi-label data, validation data of other classes or
	// labels, or a setting binary training only has (PositiveFraction, NegativePool).
	ErrTask = errors.New("train: the model, loss or settings do not fit the data's task")
	// ErrClasses reports classes a multi-class or multi-label batch cannot hold: a class with no
	// training or no validation rows, a label column that is all 0 or all 1 in either part, or a
	// batch too small for one row of every class (k rows) or for a positive and a negative of
	// every label (2k rows), and, with Config.Diagnose, a class of fewer than two training rows
	// or a label column with fewer than two of either value (one for each diagnostic set). The
	// message names the class or label.
	ErrClasses = errors.New("train: classes cannot be batched")
)

// checkTask reports, as ErrTask, what keeps the trainer from training t.cfg on train and val
// (which may be nil, both checked by checkData) beyond the checks of binary data, and returns
// the task.
func (t *Trainer) checkTask(train, val *data.Dataset) (rocops.Task, error) {
	tk := train.Task()
	cfg := t.cfg
	if err := cfg.Loss.Check(tk); err != nil {
		return tk, err
	}
	switch k := tk.K(); {
	case nn.Outputs(t.model) != k:
		return tk, fmt.Errorf("%w: the model gives %d scores per row, the %v data needs %d", ErrTask, nn.Outputs(t.model), tk, k)
	case val != nil && (!slices.Equal(val.Classes, train.Classes) || !slices.Equal(val.Labels, train.Labels)):
		return tk, fmt.Errorf("%w: the validation data's %s differ from the training data's: %s", ErrTask,
			tk.Kind(), differences(train, val))
	}
	if err := cfg.Metric.checkTask(tk); err != nil {
		return tk, err
	}
	if tk.Kind() != rocops.Binary && (cfg.PositiveFraction != 0 || cfg.NegativePool != 0) {
		return tk, fmt.Errorf("%w: PositiveFraction and NegativePool are binary settings; %v batches hold every class", ErrTask, tk)
	}
	return tk, nil
}

// differences names how val's classes or labels differ from train's: the names in one and not
// the other, or the order when both hold the same names.
func differences(train, val *data.Dataset) string {
	a, b := train.Classes, val.Classes
	if a == nil && b == nil {
		a, b = train.Labels, val.Labels
	}
	missing := func(xs, ys []string) []string {
		var out []string
		for _, x := range xs {
			if !slices.Contains(ys, x) {
				out = append(out, fmt.Sprintf("%q", x))
			}
		}
		return out
	}
	var parts []string
	if m := missing(a, b); len(m) > 0 {
		parts = append(parts, "validation lacks "+strings.Join(m, ", "))
	}
	if m := missing(b, a); len(m) > 0 {
		parts = append(parts, "training lacks "+strings.Join(m, ", "))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("training has %q, validation %q", a, b)
	}
	return strings.Join(parts, "; ")
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
