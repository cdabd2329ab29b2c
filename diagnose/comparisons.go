package diagnose

import (
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/ops/pairwise"
)

// Comparisons runs the binary diagnostics on every binary comparison of a task's scores, the
// comparisons of metrics.TaskAUC and of the pairwise loss of the same task and OvO
// (pairwise.Config): scores is row-major n×K (s_ic = scores[i·K + c], K = Task.K()) and labels
// are the task's, as float64: n labels y_i ∈ {0, 1} (binary), n classes y_i ∈ {0, …, k−1}
// (Classes(k)), or the row-major n×k indicator Y_ic = labels[i·k + c] ∈ {0, 1} (Labels(k)).
// With D(f, P, N) the binary diagnostic of the scores f_i of the rows P as positives and of the
// rows N as negatives, and s_·c column c of the scores, output c's value is
//
//	binary                 D_0 = D(s_·0, {y = 1}, {y = 0}), the one comparison
//	Classes, one-vs-rest   D_c = D(s_·c, {y = c}, {y ≠ c})
//	Classes, OvO           D_c = (1/(k−1)) Σ_{b≠c} D(s_·c, {y = c}, {y = b})
//	Labels                 D_c = D(s_·c, {i : Y_ic = 1}, {i : Y_ic = 0})
//
// and the macro value is (1/K) Σ_c D_c, for one-vs-one the mean over the k(k−1) ordered pairs.
// For the binary task both are the binary diagnostic itself. The one-vs-one comparison (a, b)
// ranks class a's rows above class b's on column a, the term whose AUC is half of Hand and
// Till's S_ab (metrics.TaskAUC); so the macro Misranking is 1 − the macro AUC of the same
// task and method. Cost: one-vs-rest and label columns are K binary diagnostics on n rows,
// one-vs-one k(k−1) on the rows of two classes, 2(k−1)·n rows in all; memory O(n).
//
// Errors, besides each method's own: a Comparisons that does not validate (rocops.ErrConfig);
// lengths that are not the task's (rocops.ErrLength); no rows (rocops.ErrEmpty); a NaN or
// infinite score (rocops.ErrNonFinite); a label that is not the task's (rocops.ErrLabel); a
// class with no rows (rocops.ErrOneClass, naming the class), or a binary batch or label column
// of one class (rocops.ErrNoPositives or rocops.ErrNoNegatives, naming the column); and the
// binary diagnostic's own, naming the comparison.
type Comparisons struct {
	Task rocops.Task // the zero Task: binary
	// OvO compares every ordered pair of classes of a Classes task; false compares each class
	// with the rest. It does not apply to other tasks.
	OvO bool
}

// Validate reports, as rocops.ErrConfig, a task that does not validate or OvO on a task that
// is not Classes(k).
func (cs Comparisons) Validate() error {
	if err := cs.Task.Validate(); err != nil {
		return check.Errorf(pkg, rocops.ErrConfig, "comparisons of the task %v: want the binary task, Classes(k) or Labels(k) with k ≥ 2", cs.Task)
	}
	if cs.OvO && cs.Task.Kind() != rocops.Multiclass {
		return check.Errorf(pkg, rocops.ErrConfig, "OvO on a %v task; one-vs-one compares classes", cs.Task.Kind())
	}
	return nil
}

// Misranking returns the misranking of each output's comparisons and their macro mean (see
// [Comparisons]): the share of the (positive, negative) pairs of a comparison that the scores
// rank wrong, a tie counting one half,
//
//	(1/(n₊n₋)) Σ_{i∈P} Σ_{j∈N} (1{f_i < f_j} + ½·1{f_i = f_j}),
//
// with f the comparison's column of scores, P and N its positives and negatives, n₊ = |P|,
// n₋ = |N|. It is 1 − the comparison's AUC. Cost O(n log n) a comparison: one sort of the
// negatives and two binary searches per positive.
func (cs Comparisons) Misranking(scores, labels []float64) (perClass []float64, macro float64, err error) {
	return scalarComparisons(cs.comparer(scores, labels), cs.Task.K(), misranking)
}

// SevereMass returns π_M at severity M = m of each output's comparisons and their macro mean
// (see [Comparisons]): the share of a comparison's pairs whose margin x = f_i − f_j is below −M,
//
//	π_M = (1/(n₊n₋)) Σ_{i∈P} Σ_{j∈N} 1{f_j > f_i + M},
//
// symbols as in [Comparisons.Misranking]; M > 0 is the severity (rocops.ErrConfig otherwise).
// The comparison is made as f_j > f_i + M, which can differ from f_i − f_j < −M by one
// rounding for a pair exactly at the boundary. Cost O(n log n) a comparison.
func (cs Comparisons) SevereMass(scores, labels []float64, m float64) (perClass []float64, macro float64, err error) {
	if err := checkSeverity(m); err != nil {
		return nil, 0, err
	}
	return scalarComparisons(cs.comparer(scores, labels), cs.Task.K(), func(f, y []float64) (float64, error) {
		return severeMass(f, y, m)
	})
}

// CEBound returns the cross-entropy bound B_M on the severe mass at severity M = m of each
// output's comparisons and their macro mean (see [Comparisons]):
//
//	B_M = (R₊ + R₋) / log(1 + e^{M/2}),   R₊ = (1/n₊) Σ_{i∈P} log(1 + e^{−f_i}),
//	                                      R₋ = (1/n₋) Σ_{j∈N} log(1 + e^{f_j}),
//
// where R₊ and R₋ are the mean cross-entropies of a comparison's positives and negatives with
// the scores read as logits. π_M ≤ B_M for every set of scores (the proof is in
// docs/diagnostics.md; the bound is the one of Chen et al., "Pairwise AUC Optimization Needs
// Corrective Power", arXiv 2610.21743, §4, with a class-balanced risk); B_M may exceed 1. The
// bound holds comparison by comparison, so it holds for every output's mean and for the macro
// mean of [Comparisons.SevereMass]. Cost O(n) a comparison.
func (cs Comparisons) CEBound(scores, labels []float64, m float64) (perClass []float64, macro float64, err error) {
	if err := checkSeverity(m); err != nil {
		return nil, 0, err
	}
	return scalarComparisons(cs.comparer(scores, labels), cs.Task.K(), func(f, y []float64) (float64, error) {
		return ceBound(f, y, m)
	})
}

// WeightShares returns, for each margin interval I_k = [edges[k], edges[k+1]), the relative
// gradient weight the surrogate puts on it in each output's comparisons, and their macro mean
// (see [Comparisons]): for one comparison
//
//	ρ_k = (W_k / W) / (N_k / N),   W_k = Σ_{(i,j): x_ij ∈ I_k} w(x_ij),   W = Σ_{all pairs} w(x_ij),
//
// where x_ij = f_i − f_j over every positive i and negative j of the comparison, w = −ℓ′ is the weight of the
// surrogate cfg.Surrogate with margin cfg.Margin (pairwise.Weight), N_k is the number of pairs
// in I_k and N = n₊n₋ the number of all pairs. ρ_k > 1 means the surrogate gives the pairs of
// I_k more than their share of the gradient (the "relative gradient weight" of Chen et al.,
// "Pairwise AUC Optimization Needs Corrective Power", arXiv 2610.21743, appendix B.5). ρ_k is
// NaN when I_k holds no pair, and every ρ_k is NaN when W = 0 (a hinge with every pair past
// the margin). Pairs outside [edges[0], edges[len−1]) count in W and N only. The edges may be
// ±Inf; cfg.Pairs and cfg.Seed are ignored (the shares are exact over all pairs). For Square,
// w(x) = 2(m − x) is negative beyond the margin, so shares there are negative.
//
// Cost, with K intervals: for Hinge, SquaredHinge, Square and Exponential the sums over an
// interval factor into prefix sums over the sorted negatives, O(n log n + n₊·K·log n₋) a comparison.
// Logistic's weight σ(−x) = 1/(1 + e^x) does not factor into a function of f_i times one of
// f_j, and no exact sub-quadratic method is known to us, so Logistic visits every pair once:
// O(n₊n₋) exponentials, tens of milliseconds per million pairs (BenchmarkScoreDiagnostics).
//
// The per-output and macro means are over the comparisons (and outputs) whose ρ_k is a
// number, NaN when there is none.
//
// Errors: those of [Comparisons] for the scores and labels; rocops.ErrConfig for fewer than two
// edges, a NaN edge or edges not strictly increasing, an unknown surrogate or a bad margin, or a
// partial-AUC cut (MaxFPR or MinTPR); rocops.ErrRange when an exponential weight leaves the
// float64 range, and when the square surrogate's total weight W,
// whose terms take both signs, cancels to within its rounding error, so that every ρ_k would be
// noise (as with scores near ±1e300, where W is a few units and its terms about 1e300). For Hinge,
// SquaredHinge and Square, which are homogeneous (scaling the scores, the margin and the edges by
// one factor scales every w by it, or leaves it for Hinge, and so leaves every ρ_k), the shares
// are computed on all three divided by a power of two near the largest of |m| and |f|, so that
// scores of any finite magnitude neither overflow nor lose the margin.
func (cs Comparisons) WeightShares(scores, labels []float64, cfg pairwise.Config, edges []float64) (
	perClass [][]float64, macro []float64, err error) {
	if _, err := margin(cfg); err != nil {
		return nil, nil, err
	}
	if err := checkEdges(edges); err != nil {
		return nil, nil, err
	}
	return comparisons(cs.comparer(scores, labels), cs.Task.K(), func(f, y []float64) ([]float64, error) {
		return weightShares(f, y, cfg, edges)
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
// outputs, and returns each class's mean of d's values and the mean over classes,
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

// Comparison names one binary comparison of [Comparisons]: column Class's scores, with as
// positives class Class's rows against the rows of class Other (one-vs-one) or of every other
// class (one-vs-rest, Other = −1) as negatives; for a Labels task, label column Class, whose
// rows of label 1 are the positives and of label 0 the negatives, and Other = −1; for the
// binary task the one comparison, Class 0 and Other −1.
type Comparison struct {
	Class, Other int
	kind         rocops.Kind
}

func (c Comparison) String() string {
	switch {
	case c.kind == rocops.Binary:
		return "the binary comparison"
	case c.kind == rocops.Multilabel:
		return fmt.Sprintf("label column %d", c.Class)
	case c.Other < 0:
		return fmt.Sprintf("one-vs-rest comparison of class %d", c.Class)
	}
	return fmt.Sprintf("one-vs-one comparison of class %d against %d", c.Class, c.Other)
}

// A comparer calls f for every binary comparison of a k-column problem, in order, with the
// comparison's rows (indices of rows, in input order), their scores on the comparison's
// column and their 0/1 labels; the slices are reused between calls. It returns an error of
// the input or of f, naming the comparison.
type comparer func(f func(cmp Comparison, rows []int, s, y []float64) error) error

// comparer returns the comparer of cs over scores and labels: it validates cs and the input and
// calls f for every binary comparison, in order of Class and then of Other.
func (cs Comparisons) comparer(scores, labels []float64) comparer {
	return func(f func(cmp Comparison, rows []int, s, y []float64) error) error {
		if err := cs.Validate(); err != nil {
			return err
		}
		switch cs.Task.Kind() {
		case rocops.Multiclass:
			return eachClassComparison(scores, labels, cs.Task.K(), cs.OvO, f)
		case rocops.Multilabel:
			return eachLabelColumn(scores, labels, cs.Task.K(), f)
		}
		if _, err := check.ForTask(pkg, cs.Task, scores, labels, true); err != nil {
			return err
		}
		rows := make([]int, len(labels))
		for i := range rows {
			rows[i] = i
		}
		return f(Comparison{Other: -1}, rows, scores, labels)
	}
}

// eachClassComparison validates k-class input and calls f for every one-vs-rest or (ovo)
// one-vs-one comparison, in order of Class and then of Other, with the comparison's rows
// (indices into labels, in input order), their column-Class scores and their 0/1 labels (1 for
// class Class). The slices are reused between calls. An error of f is returned naming the
// comparison.
func eachClassComparison(scores, labels []float64, k int, ovo bool,
	f func(cmp Comparison, rows []int, s, y []float64) error) error {
	if _, err := check.ForTask(pkg, rocops.Classes(k), scores, labels, true); err != nil {
		return err
	}
	n := len(labels)
	rows, s, y := make([]int, 0, n), make([]float64, 0, n), make([]float64, 0, n)
	others := []int{-1} // the classes class c is compared with; −1 stands for the rest
	for c := range k {
		if ovo {
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
				if b < 0 || int(l) == c || int(l) == b {
					rows = append(rows, i)
					s = append(s, scores[i*k+c])
					y = append(y, indicator(int(l) == c))
				}
			}
			cmp := Comparison{Class: c, Other: b, kind: rocops.Multiclass}
			if err := f(cmp, rows, s, y); err != nil {
				return wrapComparison(err, cmp)
			}
		}
	}
	return nil
}

// eachLabelColumn validates k-label input and calls f for every label column, over all rows.
func eachLabelColumn(scores, labels []float64, k int, f func(cmp Comparison, rows []int, s, y []float64) error) error {
	if _, err := check.ForTask(pkg, rocops.Labels(k), scores, labels, true); err != nil {
		return err
	}
	n := len(labels) / k
	rows, s, y := make([]int, n), make([]float64, n), make([]float64, n)
	for i := range rows {
		rows[i] = i
	}
	for c := range k {
		for i := range n {
			s[i], y[i] = scores[i*k+c], labels[i*k+c]
		}
		cmp := Comparison{Class: c, Other: -1, kind: rocops.Multilabel}
		if err := f(cmp, rows, s, y); err != nil {
			return wrapComparison(err, cmp)
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
