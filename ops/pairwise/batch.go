package pairwise

import "github.com/rocops/rocops/internal/check"

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
	n1, n0, err := check.Batch(pkg, scores, labels)
	if err != nil {
		return batch{}, err
	}
	return batch{scores: scores, labels: labels, n1: n1, n0: n0}, nil
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
