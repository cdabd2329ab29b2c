package pairwise

import "math/rand/v2"

// pairStream is the PCG stream of the pair draw (the ASCII bytes of "pairs"); Config.Seed is
// the PCG seed.
const pairStream = 0x7061697273

// sampled is the mean of ℓ over k pairs drawn uniformly with replacement: i uniform in B1 and
// j uniform in B0, independently, from a PCG generator seeded by seed. When grad is not nil
// it stores the gradient of that mean, −w/k on the positive and +w/k on the negative of each
// drawn pair. Each pair is drawn the same way whatever the scores are, which is what makes
// value and gradient unbiased (docs/pairwise.md).
func sampled(s Surrogate, m float64, b batch, k int, seed uint64, grad []float64) float64 {
	pos, neg := b.indices()
	r := rand.New(rand.NewPCG(seed, pairStream))
	var loss float64
	for range k {
		i, j := pos[r.IntN(len(pos))], neg[r.IntN(len(neg))]
		x := b.scores[i] - b.scores[j]
		loss += pairLoss(s, m, x)
		if grad != nil {
			w := weight(s, m, x)
			grad[i] -= w
			grad[j] += w
		}
	}
	for i := range grad {
		grad[i] /= float64(k)
	}
	return loss / float64(k)
}
