package diagnose

import (
	"slices"
	"sort"

	"github.com/rocops/rocops/internal/logistic"
)

// misranking returns the share of positive–negative pairs that the scores rank wrong, a tie
// counting one half:
//
//	(1/(n₊n₋)) Σ_{i∈P} Σ_{j∈N} (1{f_i < f_j} + ½·1{f_i = f_j}),
//
// where P and N are the positives and negatives (labels 1 and 0), n₊ = |P|, n₋ = |N|. It is
// 1 − AUC. Cost O(n log n): one sort of the negatives and two binary searches per positive.
//
// Errors: empty input (rocops.ErrEmpty), lengths that differ (rocops.ErrLength), a NaN or infinite score
// (rocops.ErrNonFinite), a label other than 0 or 1 (rocops.ErrLabel), a missing class (rocops.ErrNoPositives or
// rocops.ErrNoNegatives, both matching rocops.ErrOneClass).
func misranking(scores, labels []float64) (float64, error) {
	c, err := split(scores, labels)
	if err != nil {
		return 0, err
	}
	neg := sorted(c.neg)
	var wrong float64
	for _, f := range c.pos {
		below := sort.SearchFloat64s(neg, f) // negatives < f
		notAbove := upper(neg, f)            // negatives ≤ f
		wrong += float64(len(neg)-notAbove) + 0.5*float64(notAbove-below)
	}
	return wrong / pairs(c), nil
}

// severeMass returns π_M, the share of positive–negative pairs whose margin x = f_i − f_j
// (i positive, j negative) is below −M:
//
//	π_M = (1/(n₊n₋)) Σ_{i∈P} Σ_{j∈N} 1{f_j > f_i + M},
//
// symbols as in misranking; M > 0 is the severity (rocops.ErrConfig otherwise). The pairs are
// counted by one sort of the negatives and one binary search per positive, O(n log n). The
// comparison is made as f_j > f_i + M, which can differ from f_i − f_j < −M by one rounding
// for a pair exactly at the boundary. Other errors are those of misranking.
func severeMass(scores, labels []float64, m float64) (float64, error) {
	if err := checkSeverity(m); err != nil {
		return 0, err
	}
	c, err := split(scores, labels)
	if err != nil {
		return 0, err
	}
	neg := sorted(c.neg)
	var severe float64
	for _, f := range c.pos {
		severe += float64(len(neg) - upper(neg, f+m))
	}
	return severe / pairs(c), nil
}

// ceBound returns the cross-entropy bound on the severe-misranking mass,
//
//	B_M = (R₊ + R₋) / log(1 + e^{M/2}),   R₊ = (1/n₊) Σ_{i∈P} log(1 + e^{−f_i}),
//	                                      R₋ = (1/n₋) Σ_{j∈N} log(1 + e^{f_j}),
//
// where R₊ and R₋ are the mean cross-entropies of the positives and of the negatives with the
// scores read as logits, and M > 0 the severity. π_M ≤ B_M for every set of scores (the proof
// is in docs/diagnostics.md; the bound is the one of Chen et al., "Pairwise AUC Optimization
// Needs Corrective Power", arXiv 2610.21743, §4, with a class-balanced risk). B_M may exceed 1.
// Cost O(n). Errors are those of severeMass.
func ceBound(scores, labels []float64, m float64) (float64, error) {
	if err := checkSeverity(m); err != nil {
		return 0, err
	}
	c, err := split(scores, labels)
	if err != nil {
		return 0, err
	}
	var rPos, rNeg float64
	for _, f := range c.pos {
		rPos += logistic.Softplus(-f)
	}
	for _, f := range c.neg {
		rNeg += logistic.Softplus(f)
	}
	r := rPos/float64(len(c.pos)) + rNeg/float64(len(c.neg))
	return r / logistic.Softplus(m/2), nil
}

// sorted returns an ascending copy of xs.
func sorted(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

// upper returns the number of elements of the ascending s that are ≤ t.
func upper(s []float64, t float64) int {
	return sort.Search(len(s), func(k int) bool { return s[k] > t })
}

// pairs returns n₊·n₋ as a float64.
func pairs(c classes) float64 { return float64(len(c.pos)) * float64(len(c.neg)) }
