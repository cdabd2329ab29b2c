package metrics

import (
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/enum"
)

// Method is how a k-class AUC splits into binary comparisons.
type Method int

const (
	// OvR (one-vs-rest) compares each class c with all the other classes on column c.
	OvR Method = iota
	// OvO (one-vs-one, Hand & Till 2001) compares each pair of classes on the rows of the two.
	OvO
)

// Average is how the AUCs of the binary comparisons combine into one figure.
type Average int

const (
	// Macro is the plain mean over the comparisons.
	Macro Average = iota
	// Weighted weighs each comparison by its rows' share: a class's support (OvR, or a label
	// column's positives for multi-label), a pair's share of the rows (OvO).
	Weighted
	// Micro is one binary AUC over all n·k (score, indicator) pairs. Not defined for OvO.
	Micro
)

var (
	methods  = enum.New[Method]("method", rocops.ErrConfig, "ovr", "ovo")
	averages = enum.New[Average]("average", rocops.ErrConfig, "macro", "weighted", "micro")
)

func (m Method) String() string  { return methods.String(m) }
func (a Average) String() string { return averages.String(a) }

// TaskAUC returns the AUC of the scores of task t, equal to scikit-learn's
// roc_auc_score(y, S, multi_class="ovr"|"ovo", average="macro"|"weighted"|"micro"), ties
// counting ½ as in [AUC].
//
// scores is row-major n×K, K = t.K(): s_ic = scores[i·K + c] is example i's score for output c.
// labels are as t says: n labels y_i ∈ {0, 1} for the binary task, n classes y_i ∈ {0, …, k−1}
// held as floats for Classes(k), and the row-major n×k indicator Y_ic = labels[i·k + c] ∈ {0, 1}
// for Labels(k). A(c; P, N) is the binary [AUC] of column c with the rows P as positives and the
// rows N as negatives.
//
// The binary task is the one comparison: TaskAUC is [AUC] of scores and labels, whatever the
// average (every average of one figure is that figure, as scikit-learn ignores average for
// binary labels); OvO is an [rocops.ErrConfig] error there, as there is no pair of columns.
//
// Classes(k), with n_c the rows of class c. OvR: A_c = A(c; {y = c}, {y ≠ c}), averaged as
//
//	Macro    (1/k) Σ_c A_c
//	Weighted (1/n) Σ_c n_c·A_c
//	Micro    the AUC of the n·k scores s_ic against the indicators [y_i = c]
//
// OvO (Hand & Till, "A simple generalisation of the area under the ROC curve for multiple
// class classification problems", Machine Learning 45, 2001, in scikit-learn's pairing): for
// each unordered pair a < b,
//
//	S_ab = ½·[A(a; {y = a}, {y = b}) + A(b; {y = b}, {y = a})]
//
// averaged as
//
//	Macro    (2/(k(k−1))) Σ_{a<b} S_ab        (Hand & Till's M)
//	Weighted Σ_{a<b} (n_a + n_b)·S_ab / Σ_{a<b} (n_a + n_b),   the denominator being (k−1)·n
//
// and Micro with OvO is an [rocops.ErrConfig] error, as scikit-learn rejects it too.
// scikit-learn checks that each row of scores sums to 1; this function takes any finite
// scores, which differ from scikit-learn's results only where scikit-learn refuses them (and
// for k = 2, where scikit-learn scores column 1 alone: the same when rows sum to a constant).
//
// Labels(k), with A_c the AUC of column c of scores against column c of labels (roc_auc_score
// with an indicator matrix), averaged as
//
//	Macro    (1/k) Σ_c A_c
//	Weighted Σ_c P_c·A_c / Σ_c P_c,   P_c the positives of label column c
//	Micro    the AUC of all n·k scores against all n·k labels
//
// and OvO is an [rocops.ErrConfig] error: label columns are compared with their own rows only.
//
// Cost: each column is sorted within each class once, O(k·n log n), and every pair of
// classes is compared by a merge of two sorted lists, O(k·n) in all (the binary AUC is
// additive over the negatives' classes); Micro sorts the n·k scores. Memory O(n·k).
//
// Errors: an unknown method or average, or a combination above that does not apply
// (rocops.ErrConfig); a task that does not validate (rocops.ErrConfig); lengths that are not
// the task's (rocops.ErrLength); no rows (rocops.ErrEmpty); a NaN or infinite score
// (rocops.ErrNonFinite); a label that is not the task's (rocops.ErrLabel); a class with no rows
// (rocops.ErrOneClass, naming the class: scikit-learn's "Number of classes in y_true not equal
// to the number of columns in 'y_score'"); for Labels(k) with Macro or Weighted, a label column
// of one class (rocops.ErrNoPositives or rocops.ErrNoNegatives, naming it, as scikit-learn
// raises "Only one class present in y_true"; Micro needs both classes among all n·k labels only);
// and the errors of [AUC] for the binary task.
func TaskAUC(scores, labels []float64, t rocops.Task, m Method, avg Average) (float64, error) {
	if !methods.Valid(m) {
		return 0, check.Errorf(pkg, rocops.ErrConfig, "unknown multi-class method %d", int(m))
	}
	if !averages.Valid(avg) {
		return 0, check.Errorf(pkg, rocops.ErrConfig, "unknown average %d", int(avg))
	}
	switch {
	case m == OvO && t.Kind() != rocops.Multiclass:
		return 0, check.Errorf(pkg, rocops.ErrConfig, "%v of a %v task; one-vs-one compares classes", m, t.Kind())
	case m == OvO && avg == Micro:
		return 0, check.Errorf(pkg, rocops.ErrConfig, "average %v with %v; want macro or weighted for ovo, or micro for ovr",
			avg, m)
	}
	switch t.Kind() {
	case rocops.Binary:
		return AUC(scores, labels)
	case rocops.Multilabel:
		return labelAUC(scores, labels, t, avg)
	}
	counts, err := check.ForTask(pkg, t, scores, labels, true)
	if err != nil {
		return 0, err
	}
	k := t.K()
	if avg == Micro {
		return microAUC(scores, k, labels), nil
	}
	w := newWins(scores, k, labels, counts)
	n := float64(len(labels))
	var sum float64
	if m == OvR {
		for c := range k {
			a := w.ovr(c)
			if avg == Weighted {
				a *= float64(counts[c]) / n
			}
			sum += a
		}
		if avg == Macro {
			sum /= float64(k)
		}
		return sum, nil
	}
	var weights float64
	for a := range k {
		for b := a + 1; b < k; b++ {
			s := w.ovo(a, b)
			if avg == Weighted {
				p := float64(counts[a]+counts[b]) / n
				s *= p
				weights += p
			} else {
				weights++
			}
			sum += s
		}
	}
	return sum / weights, nil
}

// labelAUC is [TaskAUC] of a Labels task.
func labelAUC(scores, labels []float64, t rocops.Task, avg Average) (float64, error) {
	pos, err := check.ForTask(pkg, t, scores, labels, avg != Micro)
	if err != nil {
		return 0, err
	}
	if avg == Micro {
		return AUC(scores, labels)
	}
	var sum, weights float64
	eachLabel(scores, labels, t.K(), func(c int, a float64) {
		wc := 1.0
		if avg == Weighted {
			wc = float64(pos[c])
		}
		sum += wc * a
		weights += wc
	})
	return sum / weights, nil
}

// eachLabel calls f with the AUC of each label column c of the valid k-label scores and
// labels, in column order.
func eachLabel(scores, labels []float64, k int, f func(c int, auc float64)) {
	n := len(labels) / k
	p, q := make([]float64, 0, n), make([]float64, 0, n)
	for c := range k {
		p, q = p[:0], q[:0]
		for i := range n {
			if labels[i*k+c] == 1 {
				p = append(p, scores[i*k+c])
			} else {
				q = append(q, scores[i*k+c])
			}
		}
		f(c, sortedAUC(p, q))
	}
}

// ClassAUCs returns the AUC of each output of task t's scores, scikit-learn's
// roc_auc_score(y, S, multi_class="ovr", average=None): for Classes(k) the one-vs-rest AUC of
// each class, A_c = A(c; {y = c}, {y ≠ c}) in the notation of [TaskAUC]; for Labels(k) the AUC
// of each label column; for the binary task the one AUC, [AUC] of scores and labels. Its input,
// cost and errors are TaskAUC's with Macro (every class with rows, every label column with
// both classes).
func ClassAUCs(scores, labels []float64, t rocops.Task) ([]float64, error) {
	counts, err := check.ForTask(pkg, t, scores, labels, true)
	if err != nil {
		return nil, err
	}
	k := t.K()
	out := make([]float64, k)
	switch t.Kind() {
	case rocops.Binary:
		out[0], err = AUC(scores, labels)
		return out, err
	case rocops.Multilabel:
		eachLabel(scores, labels, k, func(c int, a float64) { out[c] = a })
		return out, nil
	}
	w := newWins(scores, k, labels, counts)
	for c := range out {
		out[c] = w.ovr(c)
	}
	return out, nil
}

// wins holds, for every column c and every class j, the column's scores over the rows of
// class j in ascending order, seg(c, j), and answers the binary comparisons from merges.
type wins struct {
	k      int
	counts []int
	start  []int     // start[j]: where class j's rows begin within a column's block
	sorted []float64 // k blocks of n: block c is column c with the rows grouped by class, each group sorted
}

func newWins(scores []float64, k int, labels []float64, counts []int) *wins {
	n := len(labels)
	w := &wins{k: k, counts: counts, start: make([]int, k+1), sorted: make([]float64, n*k)}
	for j, m := range counts {
		w.start[j+1] = w.start[j] + m
	}
	fill := slices.Clone(w.start[:k])
	for i, y := range labels {
		at := fill[int(y)]
		fill[int(y)]++
		for c := range k {
			w.sorted[c*n+at] = scores[i*k+c]
		}
	}
	for c := range k {
		for j := range k {
			slices.Sort(w.seg(c, j))
		}
	}
	return w
}

// seg returns column c's scores over the rows of class j, ascending.
func (w *wins) seg(c, j int) []float64 {
	n := w.start[w.k]
	return w.sorted[c*n+w.start[j] : c*n+w.start[j+1]]
}

// ovr is A(c; {y = c}, {y ≠ c}): the Mann–Whitney count is a sum over the negatives, so it is
// the sum of the counts against each other class.
func (w *wins) ovr(c int) float64 {
	var twice int64
	for j := range w.k {
		if j != c {
			twice += twiceWins(w.seg(c, c), w.seg(c, j))
		}
	}
	nc := float64(w.counts[c])
	return float64(twice) / (2 * nc * (float64(w.start[w.k]) - nc))
}

// ovo is S_ab = ½·[A(a; {y = a}, {y = b}) + A(b; {y = b}, {y = a})].
func (w *wins) ovo(a, b int) float64 {
	pairs := 2 * float64(w.counts[a]) * float64(w.counts[b])
	ab := float64(twiceWins(w.seg(a, a), w.seg(a, b))) / pairs
	ba := float64(twiceWins(w.seg(b, b), w.seg(b, a))) / pairs
	return (ab + ba) / 2
}

// microAUC is the AUC of the n·k scores against the indicators [y_i = c].
func microAUC(scores []float64, k int, labels []float64) float64 {
	n := len(labels)
	pos, neg := make([]float64, 0, n), make([]float64, 0, n*(k-1))
	for i, y := range labels {
		for c, f := range scores[i*k : (i+1)*k] {
			if float64(c) == y {
				pos = append(pos, f)
			} else {
				neg = append(neg, f)
			}
		}
	}
	return sortedAUC(pos, neg)
}

// sortedAUC sorts pos and neg in place and returns the AUC of pos against neg.
func sortedAUC(pos, neg []float64) float64 {
	slices.Sort(pos)
	slices.Sort(neg)
	return float64(twiceWins(pos, neg)) / (2 * float64(len(pos)) * float64(len(neg)))
}

// twiceWins returns 2·Σ_{p∈pos} Σ_{q∈neg} ([p > q] + ½·[p = q]), twice the Mann–Whitney count,
// for ascending pos and neg, in one merge: O(len(pos) + len(neg)). It is an exact integer.
func twiceWins(pos, neg []float64) int64 {
	var twice int64
	lt, le := 0, 0 // neg[:lt] < p, neg[:le] ≤ p
	for _, p := range pos {
		for lt < len(neg) && neg[lt] < p {
			lt++
		}
		le = max(le, lt)
		for le < len(neg) && neg[le] <= p {
			le++
		}
		twice += int64(lt + le) // 2·lt + (le − lt)
	}
	return twice
}
