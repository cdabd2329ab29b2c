package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Errors returned for invalid input, wrapped with details; test for them with errors.Is.
var (
	ErrEmpty          = errors.New("metrics: no scores")
	ErrLengthMismatch = errors.New("metrics: scores and labels differ in length")
	ErrNonFinite      = errors.New("metrics: score is NaN or infinite")
	ErrLabel          = errors.New("metrics: label is not 0 or 1")
	ErrOneClass       = errors.New("metrics: only one class present")
	ErrFPR            = errors.New("metrics: false-positive rate out of range")
)

// ranked holds the scores of each class sorted in ascending order.
type ranked struct {
	neg, pos []float64
}

// rank validates scores and labels and sorts the scores of each class.
//
// NaN and ±Inf scores are rejected, as scikit-learn does: a diverged model should be noticed,
// not ranked.
func rank(scores, labels []float64) (ranked, error) {
	if len(scores) != len(labels) {
		return ranked{}, fmt.Errorf("%w: %d scores, %d labels", ErrLengthMismatch, len(scores), len(labels))
	}
	if len(scores) == 0 {
		return ranked{}, ErrEmpty
	}
	nPos := 0
	for i, y := range labels {
		switch y {
		case 1:
			nPos++
		case 0:
		default:
			return ranked{}, fmt.Errorf("%w: labels[%d] = %v", ErrLabel, i, y)
		}
		if s := scores[i]; math.IsNaN(s) || math.IsInf(s, 0) {
			return ranked{}, fmt.Errorf("%w: scores[%d] = %v", ErrNonFinite, i, s)
		}
	}
	if nPos == 0 || nPos == len(labels) {
		return ranked{}, fmt.Errorf("%w: all %d labels are %v", ErrOneClass, len(labels), labels[0])
	}
	nNeg := len(scores) - nPos
	buf := make([]float64, len(scores)) // negatives first, then positives
	r := ranked{neg: buf[:0:nNeg], pos: buf[nNeg:nNeg]}
	for i, y := range labels {
		if y == 1 {
			r.pos = append(r.pos, scores[i])
		} else {
			r.neg = append(r.neg, scores[i])
		}
	}
	slices.Sort(r.neg)
	slices.Sort(r.pos)
	return r, nil
}

// checkRate returns an ErrFPR error unless x, the argument called name, lies in [0, 1], or in
// (0, 1] when zeroAllowed is false.
func checkRate(name string, x float64, zeroAllowed bool) error {
	if x > 1 || x < 0 || (x == 0 && !zeroAllowed) || math.IsNaN(x) {
		interval := "[0, 1]"
		if !zeroAllowed {
			interval = "(0, 1]"
		}
		return fmt.Errorf("%w: %s = %v, want it in %s", ErrFPR, name, x, interval)
	}
	return nil
}
