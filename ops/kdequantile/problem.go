package kdequantile

import (
	"math"
	"sync"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// problem is a validated batch: the scores split by class, the bandwidths and a bracket of τ.
//
// A problem always solves the Alpha form of the loss. A Config with Recall is the Alpha form
// of the mirrored batch (−f, 1 − y) at α = 1 − r (Config.solverConfig); with mirror set, the
// scores are negated and the classes swapped where the input is copied in (split), and τ and
// the gradient are mapped back where results go out (result, scatter, sign). Nothing
// in between knows about the mirror: "negatives" and "positives" below are those of the form
// solved.
//
// The class scores are kept per block of the input: the negatives of input block b, in input
// order, are neg[lo : lo+n0_b] with lo = b·blockSize, and likewise for the positives, and the
// per-negative buffers of the passes use the same layout. Every pass then works block by
// block and the results go back to input order without index bookkeeping.
type problem struct {
	cfg       Config // the Alpha form solved
	mirror    bool   // the batch is (−f, 1 − y) of the input
	n, n0, n1 int
	neg, pos  []float64 // the workspace's class scores
	v0, v1    float64
	lo, hi    float64 // τ lies in [lo, hi]
	ws        *workspace
}

// workspace is the scratch memory of one call, pooled across calls.
type workspace struct {
	neg, pos []float64
	buf      []float64     // selection scratch, then e^{s_b − |z_j|} per negative, then weights
	in       []inputBlock  // per block of the input
	stats    []spreadStats // per block, of one class
	phi      []phiSums     // per block, of the negatives
	sums     []blockSums   // per block, of a weight or positives pass
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// grow returns s resized to n elements, reallocating only when its capacity is too small.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// inputBlock is what the split pass learns about one block of the input.
type inputBlock struct {
	n0, n1   int // negatives and positives in the block
	firstBad int // index of the first invalid element, or −1
	c0, c1   classStat
}

// newProblem validates the input, splits it by class and sets the bandwidths and the bracket.
func newProblem(scores, labels []float64, cfg Config) (*problem, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := check.Lengths(pkg, len(scores), len(labels)); err != nil {
		return nil, err
	}
	p := &problem{n: len(scores), ws: workspaces.Get().(*workspace)}
	p.cfg, p.mirror = cfg.solverConfig()
	c0, c1, err := p.split(scores, labels)
	if err != nil {
		p.release()
		return nil, err
	}
	p.bandwidths(c0, c1)
	// Every σ(τ − f_j; v0) is below 1 − α when τ < min f + logit(1−α)/v0 and above it when
	// τ > max f + logit(1−α)/v0, so the root lies between.
	alpha := p.cfg.Alpha
	shift := (math.Log1p(-alpha) - math.Log(alpha)) / p.v0
	p.lo, p.hi = c0.Min+shift, c0.Max+shift
	if math.IsInf(p.lo, 0) || math.IsInf(p.hi, 0) {
		p.release()
		return nil, check.Errorf(pkg, rocops.ErrRange, "the threshold overflows float64: scores in [%v, %v] with v0 = %v", c0.Min, c0.Max, p.v0)
	}
	return p, nil
}

// release returns the workspace to the pool; p must not be used afterwards.
func (p *problem) release() {
	workspaces.Put(p.ws)
	p.ws, p.neg, p.pos = nil, nil, nil
}

// result is the Result of the input for the solved form's τ and L.
func (p *problem) result(tau, loss float64) Result {
	if p.mirror {
		return Result{Tau: -tau, Loss: loss, V0: p.v1, V1: p.v0}
	}
	return Result{Tau: tau, Loss: loss, V0: p.v0, V1: p.v1}
}

// sign is −1 for a mirrored problem and +1 otherwise: a score or threshold of the input
// times sign is that of the form solved, and a derivative of the loss with respect to an
// input score is sign times that with respect to the solved form's score.
func (p *problem) sign() float64 {
	if p.mirror {
		return -1
	}
	return 1
}

// eachNeg calls fn(b, lo, hi) for each input block b, concurrently for large batches, where
// [lo, hi) holds the block's negatives in p.neg and ws.buf.
func (p *problem) eachNeg(fn func(b, lo, hi int)) {
	in := p.ws.in
	forBlocks(p.n, func(b, lo, _ int) { fn(b, lo, lo+in[b].n0) })
}

// eachPos is eachNeg for the positives in p.pos.
func (p *problem) eachPos(fn func(b, lo, hi int)) {
	in := p.ws.in
	forBlocks(p.n, func(b, lo, _ int) { fn(b, lo, lo+in[b].n1) })
}

// perBlock returns the workspace slice s resized to one element per input block.
func perBlock[T any](p *problem, s *[]T) []T {
	*s = grow(*s, numBlocks(p.n))
	return *s
}

// split validates scores and labels, copies the scores into p.neg and p.pos and returns the
// classes' summaries.
func (p *problem) split(scores, labels []float64) (c0, c1 classStat, err error) {
	ws := p.ws
	ws.neg, ws.pos, ws.buf = grow(ws.neg, p.n), grow(ws.pos, p.n), grow(ws.buf, p.n)
	p.neg, p.pos = ws.neg, ws.pos
	in := perBlock(p, &ws.in)
	forBlocks(p.n, func(b, lo, hi int) {
		blk := inputBlock{firstBad: -1}
		neg, pos := p.neg[lo:hi], p.pos[lo:hi]
		n0, n1 := 0, 0
		sign, flip := p.sign(), 0
		if p.mirror {
			flip = 1
		}
		for i := lo; i < hi; i++ {
			f, y := scores[i], labels[i]
			// f − f is 0 for finite f and NaN otherwise; y·(1 − y) is 0 only for y ∈ {0, 1}.
			if (f-f)+y*(1-y) != 0 {
				blk.firstBad = i
				break
			}
			// Write f to both classes and advance one: no branch on the label. A mirrored
			// problem stores −f under the label 1 − y.
			neg[n0], pos[n1] = sign*f, sign*f
			k := int(y) ^ flip
			n1 += k
			n0 += 1 - k
		}
		blk.n0, blk.n1 = n0, n1
		blk.c0, blk.c1 = summarize(neg[:n0]), summarize(pos[:n1])
		in[b] = blk
	})
	c0, c1 = emptyStats, emptyStats
	for _, blk := range in {
		if i := blk.firstBad; i >= 0 {
			return c0, c1, check.Element(pkg, i, scores[i], labels[i])
		}
		p.n0 += blk.n0
		p.n1 += blk.n1
		c0, c1 = c0.combine(blk.c0), c1.combine(blk.c1)
	}
	nPos, nNeg := p.n1, p.n0
	if p.mirror {
		nPos, nNeg = nNeg, nPos
	}
	return c0, c1, check.Classes(pkg, nPos, nNeg)
}
