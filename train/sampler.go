package train

import "math/rand/v2"

// sampler draws fixed-size batches holding a fixed number of positives and negatives. Each
// class is visited in a random order; when a class runs out its order is reshuffled and the
// visit starts again, so a rare class is oversampled rather than left out of batches (the
// scheme of LibAUC's DualSampler).
type sampler struct {
	rng        *rand.Rand
	pos, neg   []int // row indices of each class, permuted in place
	nPos, nNeg int   // rows of each class per batch
	pi, ni     int   // next unread position in pos and neg
}

// newSampler returns a sampler over labels whose batches hold nPos positives and nNeg
// negatives; both must be ≥ 1 and both classes must be present.
func newSampler(labels []float64, nPos, nNeg int, rng *rand.Rand) *sampler {
	s := &sampler{rng: rng, nPos: nPos, nNeg: nNeg}
	for i, y := range labels {
		if y == 1 {
			s.pos = append(s.pos, i)
		} else {
			s.neg = append(s.neg, i)
		}
	}
	s.shuffle(s.pos)
	s.shuffle(s.neg)
	return s
}

func (s *sampler) shuffle(idx []int) {
	s.rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
}

// next fills dst[:nPos] with positive rows and dst[nPos:nPos+nNeg] with negative rows.
func (s *sampler) next(dst []int) {
	s.pi = s.take(dst[:s.nPos], s.pos, s.pi)
	s.ni = s.take(dst[s.nPos:s.nPos+s.nNeg], s.neg, s.ni)
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
