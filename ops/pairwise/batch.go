package pairwise

import (
	"fmt"
	"math"
)

// batch is a validated batch: scores finite, labels 0 or 1, n1 positives and n0 negatives,
// both at least one.
type batch struct {
	scores, labels []float64
	n1, n0         int
}

// pairs is |B1|·|B0| as a float64.
func (b batch) pairs() float64 { return float64(b.n1) * float64(b.n0) }

// newBatch validates scores and labels.
func newBatch(scores, labels []float64) (batch, error) {
	if len(scores) != len(labels) {
		return batch{}, fmt.Errorf("%w: %d scores, %d labels", ErrLength, len(scores), len(labels))
	}
	if len(scores) == 0 {
		return batch{}, ErrEmpty
	}
	n1 := 0
	for i, f := range scores {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return batch{}, fmt.Errorf("%w: scores[%d] = %v", ErrNonFinite, i, f)
		}
		switch labels[i] {
		case 1:
			n1++
		case 0:
		default:
			return batch{}, fmt.Errorf("%w: labels[%d] = %v", ErrLabel, i, labels[i])
		}
	}
	switch {
	case n1 == 0:
		return batch{}, fmt.Errorf("%w: no positives among %d labels", ErrOneClass, len(labels))
	case n1 == len(labels):
		return batch{}, fmt.Errorf("%w: no negatives among %d labels", ErrOneClass, len(labels))
	}
	return batch{scores: scores, labels: labels, n1: n1, n0: len(labels) - n1}, nil
}

// indices returns the batch indices of the positives and of the negatives, in batch order.
func (b batch) indices() (pos, neg []int) {
	pos, neg = make([]int, 0, b.n1), make([]int, 0, b.n0)
	for i, y := range b.labels {
		if y == 1 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	return pos, neg
}
