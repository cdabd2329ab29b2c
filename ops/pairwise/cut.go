package pairwise

import (
	"math"
	"math/bits"
	"slices"
)

// places returns ⌈frac·n⌉, at least 1 and at most n: the number of places a cut keeps.
// The product is taken with a relative tolerance of 1e-12 below it, so that a product that
// is an integer in decimal but lands just above it in floating point (0.7·10 =
// 7.000000000000001) keeps that integer.
func places(frac float64, n int) int {
	k := int(math.Ceil(frac * float64(n) * (1 - 1e-12)))
	return min(max(k, 1), n)
}

// kept is the kept set of a partial-AUC loss: the sub-batch of the kept examples, the batch
// index of each of them, and the groups of examples tied at a cut that share fewer places
// than they have members.
//
// A group of r examples tied at a cut with q < r places left weighs q/r per member. All r
// have the same score, so the weighted pair mean equals the plain mean over the k₊·k₋ places
// when q of the r (the first q in batch order) stand for the group: the sub-batch holds
// exactly k₊ positives and k₋ negatives, and each surrogate's unweighted algorithm runs on
// it unchanged. The gradient of the weighted mean with the weights held fixed gives each
// member q/r times the gradient of one place, which is the group's total over its q places
// divided by r: spread does that after the algorithm has run.
type kept struct {
	batch  batch
	at     []int   // at[s] is the batch index of the sub-batch's example s
	groups [][]int // batch indices of every member of a shared tie group
}

// cut returns the kept set of b for β = maxFPR and γ = minTPR, or ok = false when the cut
// keeps every example (β ∈ {0, 1} and γ = 0, or classes too small to cut).
func (b batch) cut(maxFPR, minTPR float64) (k kept, ok bool) {
	k0, k1 := b.n0, b.n1
	if maxFPR > 0 {
		k0 = places(maxFPR, b.n0)
	}
	if minTPR > 0 {
		k1 = places(1-minTPR, b.n1)
	}
	if k0 == b.n0 && k1 == b.n1 {
		return kept{}, false
	}
	// The negatives keep the k0 highest scores, the positives the k1 lowest: by the
	// threshold t of each class (its k-th score from the kept end), every example beyond t,
	// and q of the r examples at t.
	neg := newThreshold(b, 0, k0)
	pos := newThreshold(b, 1, k1)
	n := k0 + k1
	k = kept{at: make([]int, 0, n)}
	sub := batch{scores: make([]float64, 0, n), labels: make([]float64, 0, n), n1: k1, n0: k0}
	for i, f := range b.scores {
		y := b.labels[i]
		th := &neg
		if y == 1 {
			th = &pos
		}
		if th.keeps(f) {
			k.at = append(k.at, i)
			sub.scores = append(sub.scores, f)
			sub.labels = append(sub.labels, y)
		}
	}
	k.batch = sub
	for _, th := range []*threshold{&neg, &pos} {
		if th.q < th.r {
			k.groups = append(k.groups, th.members)
		}
	}
	return k, true
}

// threshold is the cut of one class at score t: keep beyond t, and q of the r at t.
type threshold struct {
	t       float64
	high    bool  // keep the scores above t (negatives); else those below (positives)
	q, r    int   // places left at t, examples at t
	taken   int   // examples at t kept so far by keeps
	members []int // batch indices of the examples at t, when q < r
	all     bool  // the class is not cut: keep every example
}

// newThreshold returns the cut that keeps k examples of class label: the highest scores for
// the negatives, the lowest for the positives. It selects the k-th score in O(n) expected
// time (quickselect on a copy).
func newThreshold(b batch, label float64, k int) threshold {
	n := b.n0
	if label == 1 {
		n = b.n1
	}
	th := threshold{high: label == 0, all: k == n}
	if th.all {
		return th
	}
	xs := make([]float64, 0, n)
	for i, f := range b.scores {
		if b.labels[i] == label {
			xs = append(xs, f)
		}
	}
	// The k-th highest is the (n−k)-th smallest (0-based); the k-th lowest the (k−1)-th.
	rank := k - 1
	if th.high {
		rank = n - k
	}
	th.t = selectRank(xs, rank)
	beyond := 0
	for i, f := range b.scores {
		if b.labels[i] != label {
			continue
		}
		switch {
		case f == th.t:
			th.r++
			th.members = append(th.members, i)
		case th.high == (f > th.t):
			beyond++
		}
	}
	th.q = k - beyond
	if th.q == th.r {
		th.members = nil
	}
	return th
}

// keeps reports whether the next example of the class, of score f, in batch order, is kept.
func (th *threshold) keeps(f float64) bool {
	switch {
	case th.all:
		return true
	case f == th.t:
		th.taken++
		return th.taken <= th.q
	default:
		return th.high == (f > th.t)
	}
}

// scatter returns the gradient of the full batch of n scores from the gradient g of the
// sub-batch: g on the kept examples, 0 on the dropped ones, and the members of each shared
// tie group each 1/r of their group's total.
func (k kept) scatter(g []float64, n int) []float64 {
	grad := make([]float64, n)
	for s, i := range k.at {
		grad[i] = g[s]
	}
	for _, members := range k.groups {
		var total float64
		for _, i := range members {
			total += grad[i]
		}
		share := total / float64(len(members))
		for _, i := range members {
			grad[i] = share
		}
	}
	return grad
}

// selectRank returns the element of rank k (0-based, ascending) of xs, reordering xs:
// quickselect with a median-of-three pivot and a three-way partition, so that ties cost
// nothing, in O(n) expected time; after 2·log₂ n rounds without an answer (an adversarial
// order) it sorts what is left.
func selectRank(xs []float64, k int) float64 {
	lo, hi := 0, len(xs) // the answer lies in xs[lo:hi]
	for budget := 2 * (bits.Len(uint(len(xs))) + 1); hi-lo > 16; budget-- {
		if budget == 0 {
			break
		}
		a, b, c := xs[lo], xs[lo+(hi-lo)/2], xs[hi-1]
		p := max(min(a, b), min(max(a, b), c)) // the median of a, b, c
		// Dutch national flag: xs[lo:lt] < p, xs[lt:i] == p, xs[gt:hi] > p.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch x := xs[i]; {
			case x < p:
				xs[lt], xs[i] = xs[i], xs[lt]
				lt++
				i++
			case x > p:
				gt--
				xs[gt], xs[i] = xs[i], xs[gt]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return p
		}
	}
	slices.Sort(xs[lo:hi])
	return xs[k]
}
