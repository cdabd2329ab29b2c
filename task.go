package rocops

import "fmt"

// A Kind is one of the three shapes of a label.
type Kind int

const (
	// Binary: one label per row, 0 or 1.
	Binary Kind = iota
	// Multiclass: one label per row, a class index 0…k−1.
	Multiclass
	// Multilabel: k labels per row, each 0 or 1.
	Multilabel
)

func (k Kind) String() string {
	switch k {
	case Binary:
		return "binary"
	case Multiclass:
		return "multi-class"
	case Multilabel:
		return "multi-label"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// A Task is what a dataset's labels say about each row, and with it the shape of every batch
// of scores and labels that models, losses and metrics exchange. A batch of n rows holds n·K
// scores, row-major (row i holds example i's K scores), and labels as the kind says:
//
//   - binary (the zero Task): K = 1, n labels of 0 or 1;
//   - Classes(k), k ≥ 2: K = k, n class indices 0…k−1 (as float64, like every label);
//   - Labels(k), k ≥ 1: K = k, n·k labels of 0 or 1, row-major (column c is label c); one label
//     column holds what a binary task holds, in the multi-label layout.
//
// Binary data is the task of one output: every task-general function of the module treats it
// as k = 1. Tasks are comparable with ==.
type Task struct {
	kind Kind
	k    int // 0 for binary
}

// Classes returns the task of k classes, one class index per row.
func Classes(k int) Task { return Task{kind: Multiclass, k: k} }

// Labels returns the task of k 0/1 labels per row.
func Labels(k int) Task { return Task{kind: Multilabel, k: k} }

// Kind returns the kind of t's labels.
func (t Task) Kind() Kind { return t.kind }

// K returns the number of scores per row: 1 for a binary task, k for k classes or labels.
func (t Task) K() int {
	if t.kind == Binary {
		return 1
	}
	return t.k
}

// LabelsPerRow returns the number of labels per row: k for k labels, 1 otherwise.
func (t Task) LabelsPerRow() int {
	if t.kind == Multilabel {
		return t.k
	}
	return 1
}

// Validate reports, as ErrConfig, a task of fewer than two classes or than one label, or of
// an unknown kind.
func (t Task) Validate() error {
	switch {
	case t.kind == Binary && t.k == 0:
		return nil
	case t.kind == Multiclass && t.k >= 2, t.kind == Multilabel && t.k >= 1:
		return nil
	}
	return fmt.Errorf("rocops: %w: a %v task of k = %d; classes need k ≥ 2, labels k ≥ 1", ErrConfig, t.kind, t.k)
}

// String names the task: "binary", "4 classes" or "3 labels".
func (t Task) String() string {
	switch t.kind {
	case Multiclass:
		return fmt.Sprintf("%d classes", t.k)
	case Multilabel:
		return fmt.Sprintf("%d labels", t.k)
	}
	return "binary"
}
