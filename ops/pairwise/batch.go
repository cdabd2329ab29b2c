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

// centred returns the batch with every score shifted by c = min/2 + max/2, the centre of
// the scores' range (halved first so that it cannot overflow). Every surrogate depends on
// the scores only through the differences f_i − f_j, so the shift changes no loss or
// gradient; but the algorithms that sum scores (Square, Exponential) or add the margin to
// them (Hinge, SquaredHinge) then work with numbers of the size of the differences instead of
// the size of the scores. Without it, tied scores at 1e16 lose the margin (f + m rounds to f),
// class means of scores near 1e14 cancel in m − μ1 + μ0, log Σ e^(f − top) is absorbed by
// a shift top of 1e12, and Logistic could not take its exponentials e^(±f) from the scores
// of a batch far from zero. A shifted score is exact when it is within a factor of two of c
// (Sterbenz's lemma), as tied scores are; otherwise it is rounded once, to the precision of
// the largest |f|, which the differences f_i − f_j have anyway. Sampled pairs, which form
// x = f_i − f_j directly, do not need it.
func (b batch) centred() batch {
	lo, hi := b.scores[0], b.scores[0]
	for _, f := range b.scores {
		lo, hi = min(lo, f), max(hi, f)
	}
	c := lo/2 + hi/2
	out := b
	out.scores = make([]float64, len(b.scores))
	for k, f := range b.scores {
		out.scores[k] = f - c
	}
	return out
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
