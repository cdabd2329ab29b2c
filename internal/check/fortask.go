package check

import (
	"math"

	"github.com/rocops/rocops"
)

// ForTask validates a batch of scores and labels of task t for package pkg: n·K scores,
// row-major (K = t.K()), and the labels t.Kind says, all float64 — n labels of 0 or 1
// (binary), n class indices in 0…k−1 (Classes(k)), or the row-major n×k 0/1 indicator
// (Labels(k)). It returns each output's count: the positives of a binary batch (one count),
// the rows of each class, or the positives of each label column.
//
// The errors: a task that does not validate, rocops.ErrConfig; lengths that are not the
// task's, rocops.ErrLength; no rows, rocops.ErrEmpty; a NaN or ±Inf score,
// rocops.ErrNonFinite; a label that is not the task's, rocops.ErrLabel. When both is set, a
// missing class is rocops.ErrNoPositives or rocops.ErrNoNegatives (binary batches and label
// columns, naming the column) or rocops.ErrOneClass naming the class without rows.
func ForTask(pkg string, t rocops.Task, scores, labels []float64, both bool) (counts []int, err error) {
	if err := t.Validate(); err != nil {
		return nil, Errorf(pkg, rocops.ErrConfig, "task %v: want the binary task, Classes(k) or Labels(k) with k ≥ 2", t)
	}
	k := t.K()
	switch t.Kind() {
	case rocops.Multiclass:
		return classLabels(pkg, scores, k, labels, both)
	case rocops.Multilabel:
		return Multilabel(pkg, scores, k, labels, both)
	}
	if !both {
		nPos, err := Scores(pkg, scores, labels)
		return []int{nPos}, err
	}
	nPos, _, err := Batch(pkg, scores, labels)
	return []int{nPos}, err
}

// classLabels is ForTask for k classes: n·k finite scores, n class indices in 0…k−1 held as
// floats, and, when both is set, rows of every class.
func classLabels(pkg string, scores []float64, k int, labels []float64, both bool) ([]int, error) {
	if err := rows(pkg, len(scores), k, len(labels)); err != nil {
		return nil, err
	}
	if err := Finite(pkg, scores); err != nil {
		return nil, err
	}
	counts := make([]int, k)
	for i, y := range labels {
		if !(y >= 0 && y < float64(k)) || y != math.Trunc(y) {
			return nil, Errorf(pkg, rocops.ErrLabel, "labels[%d] = %v, want a class index in 0…%d", i, y, k-1)
		}
		counts[int(y)]++
	}
	if both {
		for c, m := range counts {
			if m == 0 {
				return nil, Errorf(pkg, rocops.ErrOneClass, "class %d has no rows among %d", c, len(labels))
			}
		}
	}
	return counts, nil
}
