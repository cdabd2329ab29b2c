package train

import (
	"math/rand/v2"

	"github.com/rocops/rocops/data"
)

// sampler draws fixed-size batches made of strata: each stratum is a set of rows of which
// every batch holds a fixed number. A binary batch has two, the positives and the negatives;
// a multi-class batch one per class; a multi-label batch one of positives and one of
// negatives per label plus one of all rows (see [newClassSampler], [newLabelSampler]). Each
// stratum is visited in a random order; when it runs out its order is reshuffled and the
// visit starts again, so a rare class is oversampled rather than left out of batches (the
// scheme of LibAUC's DualSampler).
type sampler struct {
	rng    *rand.Rand
	strata []stratum
}

// stratum is one set of rows of a sampler.
type stratum struct {
	rows []int // row indices, permuted in place
	per  int   // rows per batch
	at   int   // next unread position in rows
}

// newSampler returns a sampler over the strata of binary data (the negatives, then the
// positives: data.Dataset.Strata) whose batches hold nPos positives and nNeg negatives; both
// must be ≥ 1 and both classes must be present. It permutes the strata's rows in place.
func newSampler(strata data.Strata, nPos, nNeg int, rng *rand.Rand) *sampler {
	return newStrata(rng, stratum{rows: strata[1], per: nPos}, stratum{rows: strata[0], per: nNeg})
}

// newStrata returns a sampler over strata, each non-empty, shuffling them in order.
func newStrata(rng *rand.Rand, strata ...stratum) *sampler {
	s := &sampler{rng: rng, strata: strata}
	for _, st := range strata {
		s.shuffle(st.rows)
	}
	return s
}

func (s *sampler) shuffle(idx []int) {
	s.rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
}

// size returns the number of rows of a batch.
func (s *sampler) size() int {
	n := 0
	for _, st := range s.strata {
		n += st.per
	}
	return n
}

// next fills dst, of length size(), with the strata's rows in order: for a binary sampler
// dst[:nPos] with positive rows and dst[nPos:nPos+nNeg] with negative rows.
func (s *sampler) next(dst []int) {
	off := 0
	for i := range s.strata {
		st := &s.strata[i]
		st.at = s.take(dst[off:off+st.per], st.rows, st.at)
		off += st.per
	}
}

// take copies the next len(dst) entries of the class order idx from position at, reshuffling
// whenever the order is used up, and returns the new position.
func (s *sampler) take(dst, idx []int, at int) int {
	for k := range dst {
		if at == len(idx) {
			s.shuffle(idx)
			at = 0
		}
		dst[k] = idx[at]
		at++
	}
	return at
}

// batchComposition returns how many positives and negatives a batch of size b holds when
// the requested positive fraction is frac (0 = the training data's own fraction p). Both
// counts are at least 1.
func batchComposition(b int, frac, p float64) (nPos, nNeg int) {
	if frac == 0 {
		frac = p
	}
	nPos = int(frac*float64(b) + 0.5)
	nPos = max(1, min(nPos, b-1))
	return nPos, b - nPos
}

// withPool returns the negatives of a batch holding nNeg negatives plus a pool of pool more
// (Config.NegativePool), capped at the have negatives of the training data; a batch never
// holds fewer than its nNeg. Any pool ≥ 0 up to math.MaxInt is capped: nNeg + pool is never
// formed when it could overflow.
func withPool(nNeg, pool, have int) int {
	if pool >= have-nNeg {
		return max(nNeg, have)
	}
	return nNeg + pool
}
