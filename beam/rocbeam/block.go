package rocbeam

import (
	"math"
	"slices"

	"github.com/rocops/rocops/metrics"
)

// bucketBits is how many of the order key's top bits name a bucket: the sign, the 11 exponent
// bits and 4 mantissa bits, so every binade of scores (such as [0.5, 1)) spreads over 16
// buckets and a model's probabilities in (0, 1) over a few hundred. Buckets are disjoint,
// ascending ranges of scores, and each is merged on its own by the combine.
const bucketBits = 16

// orderKey maps a finite score to a uint64 whose unsigned order is the scores' order: the bits
// of a non-negative float with the sign bit set, those of a negative one all flipped. −0 is
// mapped as +0, so that the two are one score, as == has it.
func orderKey(x float64) uint64 {
	if x == 0 {
		x = 0
	}
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// bucket is the bucket of score x: the top bucketBits bits of its order key, as the int64 the
// combine keys by (the SDK cannot key by a float64; this key is also few).
func bucket(x float64) int64 { return int64(orderKey(x) >> (64 - bucketBits)) }

// Block holds counts per distinct score, the scores ascending and distinct: Pos[k] positives
// and Neg[k] negatives score exactly Scores[k]. It is what the pipeline shuffles: one per
// bucket and bundle, merged by bucket.
type Block struct {
	Scores   []float64
	Pos, Neg []int64
}

// Len returns the number of distinct scores in b.
func (b Block) Len() int { return len(b.Scores) }

// appendAt appends score k of b, with counts pos and neg, to out.
func (out *Block) appendAt(x float64, pos, neg int64) {
	out.Scores, out.Pos, out.Neg = append(out.Scores, x), append(out.Pos, pos), append(out.Neg, neg)
}

// merge returns the counts of a and b together, both ascending and distinct, in one linear
// pass.
func merge(a, b Block) Block {
	if a.Len() == 0 {
		return b
	}
	if b.Len() == 0 {
		return a
	}
	n := a.Len() + b.Len()
	out := Block{Scores: make([]float64, 0, n), Pos: make([]int64, 0, n), Neg: make([]int64, 0, n)}
	i, j := 0, 0
	for i < a.Len() || j < b.Len() {
		switch {
		case j == b.Len() || (i < a.Len() && a.Scores[i] < b.Scores[j]):
			out.appendAt(a.Scores[i], a.Pos[i], a.Neg[i])
			i++
		case i == a.Len() || b.Scores[j] < a.Scores[i]:
			out.appendAt(b.Scores[j], b.Pos[j], b.Neg[j])
			j++
		default: // equal scores
			out.appendAt(a.Scores[i], a.Pos[i]+b.Pos[j], a.Neg[i]+b.Neg[j])
			i++
			j++
		}
	}
	return out
}

// mergeFn is the combine of the blocks of one bucket.
type mergeFn struct{}

// MergeAccumulators merges two blocks of one bucket.
func (mergeFn) MergeAccumulators(a, b Block) Block { return merge(a, b) }

// tally counts rows per distinct score as a worker reads them, a map that is emitted as one
// sorted Block per bucket when the bundle ends, or earlier when it holds maxTally scores.
type tally struct {
	counts map[float64]*[2]int64 // score → {negatives, positives}
}

// maxTally bounds the distinct scores a tally holds before it is flushed: about 80 MB of map.
// (A variable, so that tests can make bundles flush often.)
var maxTally = 1 << 20

// add counts one row; x is finite and label 0 or 1.
func (t *tally) add(x float64, label int) {
	if x == 0 {
		x = 0 // −0 as +0
	}
	if t.counts == nil {
		t.counts = make(map[float64]*[2]int64)
	}
	c := t.counts[x]
	if c == nil {
		c = new([2]int64)
		t.counts[x] = c
	}
	c[label]++
}

// full reports whether the tally should be flushed.
func (t *tally) full() bool { return len(t.counts) >= maxTally }

// flush emits the tally as one Block per bucket, ascending, and empties it.
func (t *tally) flush(emit func(int64, Block)) {
	if len(t.counts) == 0 {
		return
	}
	scores := make([]float64, 0, len(t.counts))
	for x := range t.counts {
		scores = append(scores, x)
	}
	slices.Sort(scores)
	for lo := 0; lo < len(scores); {
		key := bucket(scores[lo])
		hi := lo
		for hi < len(scores) && bucket(scores[hi]) == key {
			hi++
		}
		b := Block{Scores: scores[lo:hi:hi], Pos: make([]int64, hi-lo), Neg: make([]int64, hi-lo)}
		for k, x := range b.Scores {
			c := t.counts[x]
			b.Neg[k], b.Pos[k] = c[0], c[1]
		}
		emit(key, b)
		lo = hi
	}
	clear(t.counts)
}

// gather turns the merged blocks of every bucket, in any order, into a metrics.Curve.
func gather(blocks []Block) (*metrics.Curve, error) {
	var n int
	for _, b := range blocks {
		n += b.Len()
	}
	all := make([]metrics.ScoreCount, 0, n)
	for _, b := range blocks {
		for k, x := range b.Scores {
			all = append(all, metrics.ScoreCount{Score: x, Pos: b.Pos[k], Neg: b.Neg[k]})
		}
	}
	return metrics.NewCurveFromCounts(all)
}
