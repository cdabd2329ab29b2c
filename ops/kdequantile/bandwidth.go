package kdequantile

import (
	"cmp"
	"math"
)

// Constants of the bandwidth rule documented at Config.
const (
	// silverman is the normal-reference factor of h = 1.06·s·n^(−1/5) (Silverman 1986, §3.4).
	silverman = 1.06
	// minRelSpread is the smallest usable spread relative to the largest |score| it came
	// from: a smaller one would be resolved by too few float64 steps.
	minRelSpread = 1e-6
	// fallbackV is the inverse bandwidth used when no spread of the batch is usable.
	fallbackV = 1
	// minInRange and maxInRange bound the largest |score| whose squared differences can be
	// summed as they are: beyond them the spread is taken from rescaled scores.
	minInRange, maxInRange = 1e-150, 1e150
)

// classStat are the statistics of some scores of one class that the bandwidth rule of Config
// needs, the one summary of a class both [Gradient] and the shards ([shardState.Stats]) compute:
// the count N, the range [Min, Max] (+Inf and −Inf for no score), and Mean and M2 (the sum of
// squared deviations from the mean) of the scores times Scale, a positive factor chosen so that
// no square overflows or underflows. The rule needs no order statistic: a standard deviation
// and the largest |score|.
type classStat struct {
	N        int64
	Min, Max float64
	Scale    float64
	Mean, M2 float64
}

// emptyStats are the statistics of no score.
var emptyStats = classStat{Min: math.Inf(1), Max: math.Inf(-1), Scale: 1}

// maxAbs is the largest |score|.
func (c classStat) maxAbs() float64 { return max(math.Abs(c.Min), math.Abs(c.Max)) }

// spread returns the count, mean and M2 of the scores times c.Scale.
func (c classStat) spread() spreadStats {
	return spreadStats{n: float64(c.N), mean: c.Mean, m2: c.M2}
}

// at returns c with its spread that of the scores times scale (exact for a power of two of
// scale/c.Scale, unless the results fall below the normal range, where they are negligible
// beside the scores of the larger scale).
func (c classStat) at(scale float64) classStat {
	if scale == c.Scale {
		return c
	}
	f := scale / c.Scale
	c.Scale, c.Mean, c.M2 = scale, c.Mean*f, c.M2*f*f
	return c
}

// combine returns the statistics of the union of two disjoint sets of scores, on the smaller
// of their scales (that of the larger scores) when they differ: Chan, Golub and LeVeque's
// pairwise update of the spread, the union of the ranges.
func (c classStat) combine(d classStat) classStat {
	if c.N == 0 {
		return d
	}
	if d.N == 0 {
		return c
	}
	scale := min(c.Scale, d.Scale)
	m := c.at(scale).spread().merge(d.at(scale).spread())
	out := classStat{N: c.N + d.N, Min: c.Min, Max: c.Max, Scale: scale, Mean: m.mean, M2: m.m2}
	if d.Min < out.Min {
		out.Min = d.Min
	}
	if d.Max > out.Max {
		out.Max = d.Max
	}
	return out
}

// ruleBandwidths returns the inverse bandwidths of cfg: those it sets, and the rule's of the
// classes' statistics c0 (negatives) and c1 (positives) for those it leaves 0.
func ruleBandwidths(cfg Config, c0, c1 classStat) (v0, v1 float64) {
	v0, v1 = cfg.V0, cfg.V1
	if v0 > 0 && v1 > 0 {
		return v0, v1
	}
	all := c0.combine(c1)
	widen := cmp.Or(cfg.Widen, 1)
	rule := func(own classStat) float64 {
		for _, c := range []classStat{own, all} {
			if v, ok := ruleV(c.spread(), c.maxAbs()*c.Scale, int(own.N), c.Scale, widen); ok {
				return v
			}
		}
		return fallbackV / widen // at most 1e6: Widen ≥ 1e-6
	}
	if v0 == 0 {
		v0 = rule(c0)
	}
	if v1 == 0 {
		v1 = rule(c1)
	}
	return v0, v1
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

// summarize returns the statistics of xs in one pass at scale 1, the spread from sums of
// differences from the first score: exact enough unless their squares overflow or underflow,
// which the largest |score| tells (see minInRange).
func summarize(xs []float64) classStat {
	if len(xs) == 0 {
		return emptyStats
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
	return classStat{N: int64(len(xs)), Min: lo, Max: hi, Scale: 1, Mean: x0 + sum/n, M2: max(sq-sum*sum/n, 0)}
}

// scaledSpread returns the count, mean and M2 of scale·x over xs by the two-pass formula.
func scaledSpread(xs []float64, scale float64) spreadStats {
	if len(xs) == 0 {
		return spreadStats{}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x * scale
	}
	n := float64(len(xs))
	mean := sum / n
	m2 := 0.0
	for _, x := range xs {
		d := x*scale - mean
		m2 += d * d
	}
	return spreadStats{n: n, mean: mean, m2: m2}
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

// bandwidths sets p.v0 and p.v1: the configured values, or the rule's from the classes'
// statistics; when the largest |score| is outside [minInRange, maxInRange] the spreads are
// taken again, two-pass, from the scores divided by it.
func (p *problem) bandwidths(c0, c1 classStat) {
	if p.cfg.V0 == 0 || p.cfg.V1 == 0 {
		if m := max(c0.maxAbs(), c1.maxAbs()); m > 0 && !(m >= minInRange && m <= maxInRange) {
			scale := min(1/m, math.MaxFloat64)
			c0, c1 = p.rescaled(c0, p.neg, p.eachNeg, scale), p.rescaled(c1, p.pos, p.eachPos, scale)
		}
	}
	p.v0, p.v1 = ruleBandwidths(p.cfg, c0, c1)
}

// rescaled returns c with the spread of scale·x over the scores of its class, xs with its
// blocks visited by each, merged block by block in order.
func (p *problem) rescaled(c classStat, xs []float64, each func(func(b, lo, hi int)), scale float64) classStat {
	st := perBlock(p, &p.ws.stats)
	each(func(b, lo, hi int) { st[b] = scaledSpread(xs[lo:hi], scale) })
	var all spreadStats
	for _, s := range st {
		all = all.merge(s)
	}
	c.Scale, c.Mean, c.M2 = scale, all.mean, all.m2
	return c
}
