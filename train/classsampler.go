package train

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/rocops/rocops/data"
)

// newClassSampler returns the sampler of multi-class batches of b rows over ds's k classes:
// one stratum per class, class c holding
//
//	q_c = 1 + ⌊(b − k)·n_c/n⌋ + r_c
//
// rows of every batch, where n_c is the class's training rows, n = Σ_c n_c, and the r_c ∈ {0, 1}
// hand the b − k − Σ_c ⌊(b − k)·n_c/n⌋ rows left over to the classes of the largest remainders
// (ties to the lower index). Every batch thus holds every class, the rest in the data's
// proportions. The fallback for a class of fewer rows than the batches of an epoch ask of it
// is the stratum's own: its rows are reshuffled and drawn again, so that class is resampled,
// with replacement across passes, never left out. A batch smaller than k is ErrClasses, as is
// a class without rows. rows are ds's strata (data.Dataset.Strata: the rows of each class),
// permuted in place.
func newClassSampler(ds *data.Dataset, rows data.Strata, b int, rng *rand.Rand) (*sampler, error) {
	k := len(ds.Classes)
	if b < k {
		return nil, fmt.Errorf("%w: a batch of %d rows cannot hold one row of each of %d classes; set BatchSize ≥ %d",
			ErrClasses, b, k, k)
	}
	counts := make([]int, k)
	for c, r := range rows {
		if len(r) == 0 {
			return nil, fmt.Errorf("%w: class %q has no training rows", ErrClasses, ds.Classes[c])
		}
		counts[c] = len(r)
	}
	strata := make([]stratum, k)
	for c, q := range classQuotas(counts, b) {
		strata[c] = stratum{rows: rows[c], per: q}
	}
	return newStrata(rng, strata...), nil
}

// classQuotas returns the rows q_c of each class in a multi-class batch of b ≥ k rows, as
// newClassSampler gives them, from the classes' training rows n_c ≥ 1.
func classQuotas(counts []int, b int) []int {
	k, n := len(counts), 0
	for _, m := range counts {
		n += m
	}
	q := make([]int, k)
	rem := make([]int, k) // (b − k)·n_c mod n, the remainder of each class's share
	left := b - k
	for c, m := range counts {
		share := (b - k) * m // ≤ b·n, far below MaxInt for any batch that fits in memory
		q[c] = 1 + share/n
		rem[c] = share % n
		left -= share / n
	}
	order := make([]int, k)
	for c := range order {
		order[c] = c
	}
	slices.SortStableFunc(order, func(a, c int) int { return cmp.Compare(rem[c], rem[a]) })
	for _, c := range order[:left] {
		q[c]++
	}
	return q
}

// newLabelSampler returns the sampler of multi-label batches of b rows over ds's k labels: for
// every label c one row with label c = 1 and one with label c = 0, then b − 2k rows of all the
// training rows, each of these 2k + 1 strata visited in its own random order as in
// newClassSampler. Every batch thus holds both classes of every label; the 2k guaranteed rows
// raise each label's share of the rarer class in a batch above its share in the data by at
// most 1/b. A batch smaller than 2k is ErrClasses, as is a label that is all 0 or all 1.
func newLabelSampler(ds *data.Dataset, b int, rng *rand.Rand) (*sampler, error) {
	k := len(ds.Labels)
	if b < 2*k {
		return nil, fmt.Errorf("%w: a batch of %d rows cannot hold a positive and a negative of each of %d labels; set BatchSize ≥ %d",
			ErrClasses, b, k, 2*k)
	}
	strata := make([]stratum, 0, 2*k+1)
	all := make([]int, ds.Rows)
	for i := range all {
		all[i] = i
	}
	for c := range k {
		var pos, neg []int
		for i := range ds.Rows {
			if ds.Y[i*k+c] == 1 {
				pos = append(pos, i)
			} else {
				neg = append(neg, i)
			}
		}
		if len(pos) == 0 || len(neg) == 0 {
			return nil, fmt.Errorf("%w: label %q is %v on every training row", ErrClasses, ds.Labels[c], ds.Y[c])
		}
		strata = append(strata, stratum{rows: pos, per: 1}, stratum{rows: neg, per: 1})
	}
	return newStrata(rng, append(strata, stratum{rows: all, per: b - 2*k})...), nil
}
