// Package check validates a batch of scores and labels, the input of every loss, metric and
// diagnostic, with the module's one error vocabulary (package rocops). An error returned by
// this package's functions reads "<pkg>: <sentinel>: <details>", where pkg is the calling
// package's name.
package check

import (
	"fmt"
	"math"

	"github.com/rocops/rocops"
)

// Errorf returns "<pkg>: <sentinel>: <details>" wrapping sentinel; details are formatted
// as by fmt.Sprintf and left out when format is empty.
func Errorf(pkg string, sentinel error, format string, args ...any) error {
	if format == "" {
		return fmt.Errorf("%s: %w", pkg, sentinel)
	}
	return fmt.Errorf("%s: %w: %s", pkg, sentinel, fmt.Sprintf(format, args...))
}

// Batch validates scores and labels for package pkg and returns the class counts: the
// lengths agree and are not zero, every score is finite, every label is 0 or 1, and both
// classes are present. It reports the first offending element.
func Batch(pkg string, scores, labels []float64) (nPos, nNeg int, err error) {
	if nPos, err = Scores(pkg, scores, labels); err != nil {
		return 0, 0, err
	}
	nNeg = len(labels) - nPos
	return nPos, nNeg, Classes(pkg, nPos, nNeg)
}

// Split is Batch that also returns the scores of each class, in input order, in one new
// backing array.
func Split(pkg string, scores, labels []float64) (pos, neg []float64, err error) {
	nPos, _, err := Batch(pkg, scores, labels)
	if err != nil {
		return nil, nil, err
	}
	buf := make([]float64, len(scores))
	pos, neg = buf[:0:nPos], buf[nPos:nPos]
	for i, f := range scores {
		if labels[i] == 1 {
			pos = append(pos, f)
		} else {
			neg = append(neg, f)
		}
	}
	return pos, neg, nil
}

// Scores is Batch without the requirement of both classes, for losses such as cross-entropy
// that are defined on a batch of one class. It returns the number of positives.
func Scores(pkg string, scores, labels []float64) (nPos int, err error) {
	if err := Lengths(pkg, len(scores), len(labels)); err != nil {
		return 0, err
	}
	for i, f := range scores {
		y := labels[i]
		// f − f is 0 for finite f and NaN otherwise; y·(1 − y) is 0 only for y ∈ {0, 1}.
		if (f-f)+y*(1-y) != 0 {
			return 0, Element(pkg, i, f, y)
		}
		if y == 1 {
			nPos++
		}
	}
	return nPos, nil
}

// Lengths returns the error for nScores scores and nLabels labels: rocops.ErrLength when they
// differ, rocops.ErrEmpty when both are zero, nil otherwise.
func Lengths(pkg string, nScores, nLabels int) error {
	if nScores != nLabels {
		return Errorf(pkg, rocops.ErrLength, "%d scores, %d labels", nScores, nLabels)
	}
	if nScores == 0 {
		return Errorf(pkg, rocops.ErrEmpty, "")
	}
	return nil
}

// Element returns the error for element i of a batch, the score f with label y: rocops.ErrNonFinite
// when f is NaN or ±Inf, else rocops.ErrLabel when y is not 0 or 1, else nil. Kernels that validate
// inside their own pass over the data call it for the first element they find bad.
func Element(pkg string, i int, f, y float64) error {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return Errorf(pkg, rocops.ErrNonFinite, "scores[%d] = %v", i, f)
	case y != 0 && y != 1:
		return Errorf(pkg, rocops.ErrLabel, "labels[%d] = %v", i, y)
	}
	return nil
}

// Classes returns rocops.ErrNoPositives or rocops.ErrNoNegatives when one class count is zero, else nil.
func Classes(pkg string, nPos, nNeg int) error {
	switch {
	case nPos == 0:
		return Errorf(pkg, rocops.ErrNoPositives, "all %d labels are 0", nNeg)
	case nNeg == 0:
		return Errorf(pkg, rocops.ErrNoNegatives, "all %d labels are 1", nPos)
	}
	return nil
}
