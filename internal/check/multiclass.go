package check

import (
	"github.com/rocops/rocops"
)

// Multiclass validates a batch of k-class scores for package pkg: scores is row-major n×k
// (row i holds example i's k scores), labels holds n class indices in 0…k−1. It returns the
// number of rows of each class. The errors: k < 1 or len(scores) ≠ n·k, rocops.ErrLength; n = 0,
// rocops.ErrEmpty; a NaN or ±Inf score, rocops.ErrNonFinite; a label outside 0…k−1, rocops.ErrLabel; fewer than two
// classes (k = 1) or a class with no rows, rocops.ErrOneClass naming the class.
func Multiclass(pkg string, scores []float64, k int, labels []int) (counts []int, err error) {
	if err := rows(pkg, len(scores), k, len(labels)); err != nil {
		return nil, err
	}
	if k < 2 {
		return nil, Errorf(pkg, rocops.ErrOneClass, "k = %d class; want at least 2", k)
	}
	if counts, err = classIndices(pkg, scores, k, labels); err != nil {
		return nil, err
	}
	for c, m := range counts {
		if m == 0 {
			return nil, Errorf(pkg, rocops.ErrOneClass, "class %d has no rows among %d", c, len(labels))
		}
	}
	return counts, nil
}

// Multilabel validates a batch of k-label scores for package pkg: scores and labels are
// row-major n×k, labels 0 or 1 (column c holds label c). It returns the number of positives
// of each column. The errors: k < 1 or lengths that are not n·k, rocops.ErrLength; n = 0, rocops.ErrEmpty;
// a NaN or ±Inf score, rocops.ErrNonFinite; a label other than 0 or 1, rocops.ErrLabel. When both is set,
// a column with one class is rocops.ErrNoPositives or rocops.ErrNoNegatives naming the column.
func Multilabel(pkg string, scores []float64, k int, labels []float64, both bool) (pos []int, err error) {
	if k < 1 {
		return nil, Errorf(pkg, rocops.ErrLength, "k = %d label columns", k)
	}
	if len(labels)%k != 0 {
		return nil, Errorf(pkg, rocops.ErrLength, "%d labels are not rows of k = %d", len(labels), k)
	}
	if err := rows(pkg, len(scores), k, len(labels)/k); err != nil {
		return nil, err
	}
	pos = make([]int, k)
	for i, f := range scores {
		if err := Element(pkg, i, f, labels[i]); err != nil {
			return nil, err
		}
		if labels[i] == 1 {
			pos[i%k]++
		}
	}
	if both {
		n := len(labels) / k
		for c, p := range pos {
			switch p {
			case 0:
				return nil, Errorf(pkg, rocops.ErrNoPositives, "label column %d: all %d labels are 0", c, n)
			case n:
				return nil, Errorf(pkg, rocops.ErrNoNegatives, "label column %d: all %d labels are 1", c, n)
			}
		}
	}
	return pos, nil
}

// rows checks that nScores scores are n rows of k columns, k ≥ 1 and n ≥ 1.
func rows(pkg string, nScores, k, n int) error {
	switch {
	case k < 1:
		return Errorf(pkg, rocops.ErrLength, "k = %d columns", k)
	case nScores%k != 0 || nScores/k != n: // not n·k, which could overflow
		return Errorf(pkg, rocops.ErrLength, "%d scores are not %d rows of k = %d", nScores, n, k)
	case n == 0:
		return Errorf(pkg, rocops.ErrEmpty, "")
	}
	return nil
}

// Finite returns rocops.ErrNonFinite for the first NaN or ±Inf of scores, else nil.
func Finite(pkg string, scores []float64) error {
	for i, f := range scores {
		if f-f != 0 {
			return Errorf(pkg, rocops.ErrNonFinite, "scores[%d] = %v", i, f)
		}
	}
	return nil
}

// classIndices is [Multiclass] without its demand for two classes, each with rows: k ≥ 1
// columns, n ≥ 1 rows, finite scores and labels in 0…k−1. It returns the number of rows of
// each class.
func classIndices(pkg string, scores []float64, k int, labels []int) (counts []int, err error) {
	if err := rows(pkg, len(scores), k, len(labels)); err != nil {
		return nil, err
	}
	if err := Finite(pkg, scores); err != nil {
		return nil, err
	}
	counts = make([]int, k)
	for i, y := range labels {
		if y < 0 || y >= k {
			return nil, Errorf(pkg, rocops.ErrLabel, "labels[%d] = %d, want a class in 0…%d", i, y, k-1)
		}
		counts[y]++
	}
	return counts, nil
}
