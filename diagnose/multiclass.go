package diagnose

import (
	"fmt"
	"math"

	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/ops/pairwise"
)

// The multi-class diagnostics split k-class scores into the binary comparisons of
// metrics.MulticlassAUC and of package pairwise on a Classes task, and run the binary diagnostic
// on each.
// scores is row-major n×k (s_ic = scores[i·k + c]) and labels holds the class indices
// y_i ∈ {0, …, k−1}. With D(f, P, N) the binary diagnostic of the scores f_i of the rows P as
// positives and of the rows N as negatives, and s_·c column c of the scores, class c's value is
//
//	one-vs-rest (metrics.OvR)  D_c = D(s_·c, {y = c}, {y ≠ c})
//	one-vs-one  (metrics.OvO)  D_c = (1/(k−1)) Σ_{b≠c} D(s_·c, {y = c}, {y = b})
//
// and the macro value is (1/k) Σ_c D_c, for one-vs-one the mean over the k(k−1) ordered pairs.
// The one-vs-one comparison (a, b) ranks class a's rows above class b's on column a, the term
// whose AUC is half of Hand and Till's S_ab (metrics.MulticlassAUC); so the macro
// MulticlassMisranking is 1 − the macro multi-class AUC of the same method. Cost: one-vs-rest
// is k binary diagnostics on n rows, one-vs-one k(k−1) on the rows of two classes, 2(k−1)·n
// rows in all; memory O(n).
//
// Errors: an unknown method (metrics.ErrMethod); len(scores) ≠ n·k or k < 1 (rocops.ErrLength); no
// rows (rocops.ErrEmpty); a NaN or infinite score (rocops.ErrNonFinite); a label outside 0…k−1 (rocops.ErrLabel);
// k < 2 or a class with no rows (rocops.ErrOneClass, naming the class); and the binary diagnostic's
// own, naming the comparison.

// MulticlassMisranking returns [Misranking] of each class's comparisons and their macro mean
// (see the multi-class diagnostics above): the share of misranked (positive, negative) pairs
// of each comparison, ties counting ½.
func MulticlassMisranking(scores []float64, k int, labels []int, method metrics.Method) (
	perClass []float64, macro float64, err error) {
	return scalarComparisons(classComparer(scores, k, labels, method), k, Misranking)
}

// MulticlassSevereMass returns [SevereMass] π_M at severity m of each class's comparisons
// and their macro mean (see [MulticlassMisranking]).
func MulticlassSevereMass(scores []float64, k int, labels []int, method metrics.Method, m float64) (
	perClass []float64, macro float64, err error) {
	if err := checkSeverity(m); err != nil {
		return nil, 0, err
	}
	return scalarComparisons(classComparer(scores, k, labels, method), k, func(f, y []float64) (float64, error) {
		return SevereMass(f, y, m)
	})
}

// MulticlassCEBound returns [CEBound] B_M at severity m of each class's comparisons and their
// macro mean (see [MulticlassMisranking]). The bound holds comparison by comparison, π_M ≤ B_M,
// so it holds for every class's mean and for the macro mean of [MulticlassSevereMass].
func MulticlassCEBound(scores []float64, k int, labels []int, method metrics.Method, m float64) (
	perClass []float64, macro float64, err error) {
	if err := checkSeverity(m); err != nil {
		return nil, 0, err
	}
	return scalarComparisons(classComparer(scores, k, labels, method), k, func(f, y []float64) (float64, error) {
		return CEBound(f, y, m)
	})
}

// MulticlassWeightShares returns [WeightShares] ρ of each class's comparisons, one share per
// margin interval of edges, and their macro mean (see [MulticlassMisranking]). A comparison's
// ρ_k is NaN when its interval I_k holds no pair; the means are over the comparisons (and
// classes) whose ρ_k is a number, NaN when there is none.
func MulticlassWeightShares(scores []float64, k int, labels []int, method metrics.Method,
	cfg pairwise.Config, edges []float64) (perClass [][]float64, macro []float64, err error) {
	if _, err := margin(cfg); err != nil {
		return nil, nil, err
	}
	if err := checkEdges(edges); err != nil {
		return nil, nil, err
	}
	return comparisons(classComparer(scores, k, labels, method), k, func(f, y []float64) ([]float64, error) {
		return WeightShares(f, y, cfg, edges)
	})
}

// scalarComparisons is comparisons for a diagnostic of one number.
func scalarComparisons(each comparer, k int, d func(f, y []float64) (float64, error)) ([]float64, float64, error) {
	per, macro, err := comparisons(each, k, func(f, y []float64) ([]float64, error) {
		v, err := d(f, y)
		return []float64{v}, err
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]float64, k)
	for c, v := range per {
		out[c] = v[0]
	}
	return out, macro[0], nil
}

// comparisons runs d on the column and rows of every binary comparison of each, over k
// classes or labels, and returns each class's mean of d's values and the mean over classes,
// each element over the values that are numbers.
func comparisons(each comparer, k int, d func(f, y []float64) ([]float64, error)) (perClass [][]float64, macro []float64, err error) {
	perClass = make([][]float64, k)
	sums := make([]*means, k)
	err = each(func(cmp Comparison, _ []int, f, y []float64) error {
		v, err := d(f, y)
		if err != nil {
			return err
		}
		sums[cmp.Class] = sums[cmp.Class].add(v)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var all *means
	for c, s := range sums {
		perClass[c] = s.mean()
		all = all.add(perClass[c])
	}
	return perClass, all.mean(), nil
}

// Comparison names one binary comparison of the multi-class diagnostics: column Class's
// scores, class Class's rows as positives against the rows of class Other (one-vs-one) or of
// every other class (one-vs-rest, Other = −1) as negatives. In the multi-label diagnostics
// Class is a label column, whose rows of label 1 are the positives and of label 0 the
// negatives, and Other is −1.
type Comparison struct {
	Class, Other int
	label        bool // a label column of the multi-label diagnostics
}

func (c Comparison) String() string {
	if c.label {
		return fmt.Sprintf("label column %d", c.Class)
	}
	if c.Other < 0 {
		return fmt.Sprintf("one-vs-rest comparison of class %d", c.Class)
	}
	return fmt.Sprintf("one-vs-one comparison of class %d against %d", c.Class, c.Other)
}

// A comparer calls f for every binary comparison of a k-column problem, in order, with the
// comparison's rows (indices of rows, in input order), their scores on the comparison's
// column and their 0/1 labels; the slices are reused between calls. It returns an error of
// the input or of f, naming the comparison.
type comparer func(f func(cmp Comparison, rows []int, s, y []float64) error) error

// classComparer is the comparer of eachComparison.
func classComparer(scores []float64, k int, labels []int, method metrics.Method) comparer {
	return func(f func(cmp Comparison, rows []int, s, y []float64) error) error {
		return eachComparison(scores, k, labels, method, f)
	}
}

// eachComparison validates the input and calls f for every binary comparison of method, in
// order of Class and then of Other, with the comparison's rows (indices into labels, in input
// order), their column-Class scores and their 0/1 labels (1 for class Class). The slices are
// reused between calls. An error of f is returned naming the comparison.
func eachComparison(scores []float64, k int, labels []int, method metrics.Method,
	f func(cmp Comparison, rows []int, s, y []float64) error) error {
	if method != metrics.OvR && method != metrics.OvO {
		return fmt.Errorf("%w: %d", metrics.ErrMethod, int(method))
	}
	if _, err := check.Multiclass(pkg, scores, k, labels); err != nil {
		return err
	}
	n := len(labels)
	rows, s, y := make([]int, 0, n), make([]float64, 0, n), make([]float64, 0, n)
	others := []int{-1} // the classes class c is compared with; −1 stands for the rest
	for c := range k {
		if method == metrics.OvO {
			others = others[:0]
			for b := range k {
				if b != c {
					others = append(others, b)
				}
			}
		}
		for _, b := range others {
			rows, s, y = rows[:0], s[:0], y[:0]
			for i, l := range labels {
				if b < 0 || l == c || l == b {
					rows = append(rows, i)
					s = append(s, scores[i*k+c])
					y = append(y, indicator(l == c))
				}
			}
			cmp := Comparison{Class: c, Other: b}
			if err := f(cmp, rows, s, y); err != nil {
				return wrapComparison(err, cmp)
			}
		}
	}
	return nil
}

// wrapComparison returns err naming the comparison it came from.
func wrapComparison(err error, cmp Comparison) error {
	return fmt.Errorf("%w (%v)", err, cmp)
}

// indicator returns 1 for true and 0 for false.
func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// means accumulates element-wise means of vectors, skipping NaN elements.
type means struct {
	sum   []float64
	count []int
}

// add adds v to m, allocating m (of v's length) when it is nil, and returns m.
func (m *means) add(v []float64) *means {
	if m == nil {
		m = &means{sum: make([]float64, len(v)), count: make([]int, len(v))}
	}
	for i, x := range v {
		if !math.IsNaN(x) {
			m.sum[i] += x
			m.count[i]++
		}
	}
	return m
}

// mean returns the element-wise means, NaN where no element was a number.
func (m *means) mean() []float64 {
	out := make([]float64, len(m.sum))
	for i, s := range m.sum {
		out[i] = s / float64(m.count[i])
		if m.count[i] == 0 {
			out[i] = math.NaN()
		}
	}
	return out
}
