package kdequantile

import "math"

// Constants of the bandwidth rule documented at Config.
const (
	// silverman is the normal-reference factor of h = 1.06·s·n^(−1/5) (Silverman 1986, §3.4).
	silverman = 1.06
	// minRelSpread is the smallest usable spread relative to the largest |score| it came
	// from: a smaller one would be resolved by too few float64 steps.
	minRelSpread = 1e-6
	// fallbackV is the inverse bandwidth used when no spread of the batch is usable.
	fallbackV = 1
)

// bandwidths sets p.v0 and p.v1: the configured values, or the rule's, from the classes'
// summaries.
func (p *problem) bandwidths(c0, c1 classSummary) {
	p.v0, p.v1 = p.cfg.V0, p.cfg.V1
	if p.v0 > 0 && p.v1 > 0 {
		return
	}
	m0, m1 := c0.r.maxAbs(), c1.r.maxAbs()
	s0, s1, scale := c0.st, c1.st, 1.0
	if m := max(m0, m1); m > 0 && !(m >= 1e-150 && m <= 1e150) {
		// Squares of differences could overflow, or underflow while still usable: recompute
		// on scores divided by their largest magnitude.
		scale = min(1/m, math.MaxFloat64)
		s0, s1 = p.spreadOf(p.neg, p.eachNeg, scale), p.spreadOf(p.pos, p.eachPos, scale)
	}
	all := s0.merge(s1)
	widen := p.cfg.Widen
	if widen == 0 {
		widen = 1
	}
	rule := func(own spreadStats, ownMax float64, n int) float64 {
		if v, ok := ruleV(own, ownMax*scale, n, scale, widen); ok {
			return v
		}
		if v, ok := ruleV(all, max(m0, m1)*scale, n, scale, widen); ok {
			return v
		}
		return fallbackV / widen // at most 1e6: Widen ≥ 1e-6
	}
	if p.v0 == 0 {
		p.v0 = rule(s0, m0, p.n0)
	}
	if p.v1 == 0 {
		p.v1 = rule(s1, m1, p.n1)
	}
}

// ruleV returns π/(√3·h)/widen with h = silverman·s·n^(−1/5) for the spread s of st, and
// whether that spread is usable: an inverse bandwidth that is finite after the widening too.
// Scores were multiplied by scale; maxAbs is their largest magnitude after scaling.
func ruleV(st spreadStats, maxAbs float64, n int, scale, widen float64) (float64, bool) {
	s := st.std()
	if st.n < 2 || !(s > minRelSpread*maxAbs) {
		return 0, false
	}
	h := silverman * s * math.Pow(float64(n), -0.2)
	v := math.Pi / math.Sqrt(3) * scale / h / widen
	return v, v > 0 && !math.IsInf(v, 0)
}

// scoreRange is the smallest and largest of some scores.
type scoreRange struct{ min, max float64 }

func (r scoreRange) maxAbs() float64 { return max(math.Abs(r.min), math.Abs(r.max)) }

// union returns the smallest range holding r and q.
func (r scoreRange) union(q scoreRange) scoreRange {
	if q.min < r.min {
		r.min = q.min
	}
	if q.max > r.max {
		r.max = q.max
	}
	return r
}

// emptyRange is the range of no score.
var emptyRange = scoreRange{min: math.Inf(1), max: math.Inf(-1)}

// classSummary is the range and spread of some scores of one class.
type classSummary struct {
	r  scoreRange
	st spreadStats
}

func (c classSummary) merge(d classSummary) classSummary {
	return classSummary{r: c.r.union(d.r), st: c.st.merge(d.st)}
}

// summarize returns the summary of xs in one pass, the spread from sums of differences from
// the first score (exact enough unless squares overflow or underflow, which bandwidths
// checks for).
func summarize(xs []float64) classSummary {
	if len(xs) == 0 {
		return classSummary{r: emptyRange}
	}
	x0 := xs[0]
	lo, hi, sum, sq := x0, x0, 0.0, 0.0
	for _, x := range xs {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
		d := x - x0
		sum += d
		sq += d * d
	}
	n := float64(len(xs))
	return classSummary{
		r:  scoreRange{min: lo, max: hi},
		st: spreadStats{n: n, mean: x0 + sum/n, m2: max(sq-sum*sum/n, 0)},
	}
}

// spreadStats are the count, mean and sum of squared deviations of some scores.
type spreadStats struct{ n, mean, m2 float64 }

// merge combines the statistics of two disjoint sets (Chan, Golub and LeVeque 1979).
func (a spreadStats) merge(b spreadStats) spreadStats {
	if a.n == 0 {
		return b
	}
	if b.n == 0 {
		return a
	}
	n := a.n + b.n
	d := b.mean - a.mean
	return spreadStats{n: n, mean: a.mean + d*(b.n/n), m2: a.m2 + b.m2 + d*d*(a.n/n)*b.n}
}

// std is the sample standard deviation (0 for fewer than two scores).
func (a spreadStats) std() float64 {
	if a.n < 2 {
		return 0
	}
	return math.Sqrt(a.m2 / (a.n - 1))
}

// spreadOf returns the statistics of scale·x over the scores of one class, xs with its
// blocks visited by each, merged block by block in order.
func (p *problem) spreadOf(xs []float64, each func(func(b, lo, hi int)), scale float64) spreadStats {
	st := perBlock(p, &p.ws.stats)
	each(func(b, lo, hi int) {
		if lo == hi {
			st[b] = spreadStats{}
			return
		}
		sum := 0.0
		for _, x := range xs[lo:hi] {
			sum += x * scale
		}
		n := float64(hi - lo)
		mean := sum / n
		m2 := 0.0
		for _, x := range xs[lo:hi] {
			d := x*scale - mean
			m2 += d * d
		}
		st[b] = spreadStats{n: n, mean: mean, m2: m2}
	})
	var all spreadStats
	for _, s := range st {
		all = all.merge(s)
	}
	return all
}
