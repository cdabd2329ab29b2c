package kdequantile

import (
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// The sharded KDE loss: one batch's scores spread over S workers that exchange only sums.
//
// Every quantity of the loss is a sum over the batch or is computed from sums, so a batch
// whose scores live on S workers is solved by a coordinator that exchanges fixed-size
// messages with them, round by round:
//
//  1. Each worker sends [Shard.Stats]: per class the [ClassStats] that [Gradient] computes
//     for the bandwidth rule (the count, range and spread, the spread scaled by a power of
//     two). The coordinator adds them with [ShardStats.Combine] and [NewSolver] applies the
//     bandwidth rule of [Config] to the totals, as Gradient does, and brackets τ.
//  2. Until [Solver.Done], the coordinator broadcasts τ = [Solver.Tau]; each worker sends
//     [Shard.Phi], its negatives' Σσ(τ − f_j; v0) (as an exact count plus tail sums) and
//     the sums of σ′, σ″ and σ‴ that the solver's Newton and cubic steps use; the
//     coordinator combines them ([PhiSums.Combine]) and calls [Solver.Update], which takes
//     a safeguarded step or bisects. The worker sums carry their own scale e^{s}, s the
//     smallest |z_j| of the worker, so that no term underflows; Combine rescales to the
//     smallest.
//  3. Each worker sends [Shard.Finish] at the solved τ: its positives' Σψ and Σσ′ (the loss
//     and dF̂_1/dτ are their totals over |B1|) and the log-sum-exp pair of its negatives'
//     softmax logits ℓ_j: the largest, ℓ(m_s) with m_s = min |z_j| (ℓ decreases in |z|),
//     and Σ exp(ℓ_j − ℓ(m_s)).
//  4. [Solver.Final] turns the totals into the [Result] and a [Final] message, broadcast
//     back; [Shard.Gradient] gives the worker's ∂L/∂f_i in its input order.
//
// Only sums travel: 96 bytes per worker and 16 bytes of broadcast ([Plan]) in round 1, 56
// bytes per worker and 8 bytes of broadcast per solver pass, 32 bytes per worker in round 3
// and 56 bytes of broadcast in round 4 (the messages are fixed-size structs; encoding/binary
// writes them in these sizes).
// docs/scaling.md counts it for large batches. The result equals [Gradient] on the whole
// batch up to rounding: the solver stops at the same root to near machine precision, from a
// different start (the normal quantile of the negatives' mean and spread, since the
// empirical quantile [Gradient] starts from is not a sum).

// Shard is one worker's part of a batch: its scores and labels, with the Config of the whole
// batch. It does not copy the input's labels, which must not change until its gradient is
// taken.
type Shard struct {
	cfg      Config // the Alpha form solved
	mirror   bool
	labels   []float64
	neg, pos []float64 // the solved form's class scores, in input order
	buf      []float64 // per negative scratch
}

// NewShard returns the shard of scores f and labels y of one worker. Every worker of a batch
// must use the same cfg, also given to [NewSolver]. A shard may be empty or hold one class
// only; the batch as a whole must hold both (NewSolver checks). Errors: an invalid cfg
// (rocops.ErrConfig), rocops.ErrLength, and rocops.ErrNonFinite or
// rocops.ErrLabel naming the element by its index in this shard.
func NewShard(scores, labels []float64, cfg Config) (*Shard, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(scores) != len(labels) {
		return nil, check.Errorf(pkg, rocops.ErrLength, "%d scores, %d labels", len(scores), len(labels))
	}
	s := &Shard{labels: labels}
	s.cfg, s.mirror = cfg.solverConfig()
	sign, posLabel := s.signs()
	for i, f := range scores {
		if err := check.Element(pkg, i, f, labels[i]); err != nil {
			return nil, err
		}
		if labels[i] == posLabel {
			s.pos = append(s.pos, sign*f)
		} else {
			s.neg = append(s.neg, sign*f)
		}
	}
	s.buf = make([]float64, len(s.neg))
	return s, nil
}

// signs returns the factor from an input score to the solved form's and the input label of
// the solved form's positives.
func (s *Shard) signs() (sign, posLabel float64) {
	if s.mirror {
		return -1, 0
	}
	return 1, 1
}

// ShardStats are a worker's first message: the statistics of the negatives and of the
// positives of the form solved (with Config.Recall the mirrored batch, whose negatives are
// the input's positives with their scores negated).
type ShardStats struct{ Neg, Pos ClassStats }

// Stats returns the shard's statistics, for [ShardStats.Combine] and [NewSolver].
func (s *Shard) Stats() ShardStats {
	return ShardStats{Neg: classStats(s.neg), Pos: classStats(s.pos)}
}

// classStats returns the statistics of a shard's scores of one class: the range, and the
// spread two-pass on the scores times 2^(−e), e the binary exponent of the largest |score|, so
// that no square overflows or underflows at any scale and shards of other scales combine exactly.
func classStats(xs []float64) ClassStats {
	if len(xs) == 0 {
		return emptyStats
	}
	c := ClassStats{N: int64(len(xs)), Min: xs[0], Max: xs[0]}
	for _, x := range xs {
		c.Min, c.Max = min(c.Min, x), max(c.Max, x)
	}
	_, e := math.Frexp(c.maxAbs())
	c.Scale = math.Ldexp(1, -e)
	st := scaledSpread(xs, c.Scale)
	c.Mean, c.M2 = st.mean, st.m2
	return c
}

// Combine returns the statistics of the union of two disjoint shards.
func (a ShardStats) Combine(b ShardStats) ShardStats {
	return ShardStats{Neg: a.Neg.Combine(b.Neg), Pos: a.Pos.Combine(b.Pos)}
}

// Plan holds the inverse bandwidths of the form solved, as [Solver.Plan] broadcasts them.
type Plan struct{ V0, V1 float64 }

// PhiSums are a worker's sums over its negatives at one τ, all multiplied by e^{Scale}:
// Above counts the negatives above τ, TBelow and TAbove are Σσ(−|z_j|) over those at or below
// and above τ, and D1, D2, D3 the sums of σ′, σ″ and σ‴ at z_j = v0·(τ − f_j). Scale is the
// smallest |z_j| (+Inf for no negatives).
type PhiSums struct {
	Above                      int64
	TBelow, TAbove, D1, D2, D3 float64
	Scale                      float64
}

// Phi returns the shard's sums at τ under the plan's bandwidths.
func (s *Shard) Phi(p Plan, tau float64) PhiSums {
	if len(s.neg) == 0 {
		return PhiSums{Scale: math.Inf(1)}
	}
	b := phiBlock(s.neg, s.buf, p.V0, tau)
	return PhiSums{Above: int64(b.above), TBelow: b.tBelow, TAbove: b.tAbove, D1: b.d1, D2: b.d2, D3: b.d3, Scale: b.scale}
}

// Combine returns the sums of two disjoint shards, on the smaller of their scales.
func (a PhiSums) Combine(b PhiSums) PhiSums {
	if b.Scale < a.Scale {
		a, b = b, a
	}
	out := a
	out.Above += b.Above
	if math.IsInf(b.Scale, 1) {
		return out // no negatives, or every |z| overflowed: only the count adds
	}
	c := math.Exp(a.Scale - b.Scale)
	out.TBelow += c * b.TBelow
	out.TAbove += c * b.TAbove
	out.D1 += c * b.D1
	out.D2 += c * b.D2
	out.D3 += c * b.D3
	return out
}

// Solver is the coordinator's side: the bandwidths, the bracket of τ and the safeguarded
// Newton–cubic iteration of [Gradient], fed with the workers' combined sums.
type Solver struct {
	cfg     Config // the Alpha form solved
	mirror  bool
	plan    Plan
	n0, n1  int64
	lo, hi  float64
	tau     float64
	stepOld float64
	step    float64
	passes  int
	done    bool
}

// NewSolver returns the solver of a batch whose shards' statistics add up to total, for the
// cfg every shard was made with. Errors: an invalid cfg, rocops.ErrEmpty, rocops.ErrNoPositives or
// rocops.ErrNoNegatives for the whole batch, and rocops.ErrRange when τ's bracket overflows.
func NewSolver(total ShardStats, cfg Config) (*Solver, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Solver{n0: total.Neg.N, n1: total.Pos.N}
	s.cfg, s.mirror = cfg.solverConfig()
	if s.n0+s.n1 == 0 {
		return nil, check.Errorf(pkg, rocops.ErrEmpty, "no scores in any shard")
	}
	nPos, nNeg := int(s.n1), int(s.n0)
	if s.mirror {
		nPos, nNeg = nNeg, nPos
	}
	if err := check.Classes(pkg, nPos, nNeg); err != nil {
		return nil, err
	}
	s.plan.V0, s.plan.V1 = ruleBandwidths(s.cfg, total.Neg, total.Pos)
	alpha := s.cfg.Alpha
	shift := (math.Log1p(-alpha) - math.Log(alpha)) / s.plan.V0
	s.lo, s.hi = total.Neg.Min+shift, total.Neg.Max+shift
	if math.IsInf(s.lo, 0) || math.IsInf(s.hi, 0) {
		return nil, check.Errorf(pkg, rocops.ErrRange, "the threshold overflows float64: scores in [%v, %v] with v0 = %v", total.Neg.Min, total.Neg.Max, s.plan.V0)
	}
	// Start from the normal (1 − α)-quantile of the negatives' mean and spread.
	sd := total.Neg.spread().std()
	start := (total.Neg.Mean + sd*math.Sqrt2*math.Erfinv(1-2*alpha)) / total.Neg.Scale
	if !(start >= s.lo && start <= s.hi) {
		start = midpoint(s.lo, s.hi)
	}
	s.tau = start
	s.step, s.stepOld = s.hi-s.lo, s.hi-s.lo
	return s, nil
}

// Plan returns the bandwidths the shards use, to broadcast once.
func (s *Solver) Plan() Plan { return s.plan }

// Tau returns the τ at which the shards evaluate [Shard.Phi] next, or, once [Solver.Done],
// the solved τ of the form solved, at which they evaluate [Shard.Finish].
func (s *Solver) Tau() float64 { return s.tau }

// Done reports whether τ is solved.
func (s *Solver) Done() bool { return s.done }

// Passes returns the number of Update calls so far: the rounds of Phi sums exchanged.
func (s *Solver) Passes() int { return s.passes }

// Update takes the combined [PhiSums] of every shard at [Solver.Tau] and moves τ towards the
// root (docs/kde-quantile.md, "The threshold solver"): a cubic-model step when it stays
// inside the bracket and shrinks fast enough, else bisection. It does nothing once Done.
func (s *Solver) Update(total PhiSums) {
	if s.done {
		return
	}
	s.passes++
	e := s.value(total)
	if math.Abs(e.phi) <= e.tol || s.passes == maxPasses {
		s.done = true
		return
	}
	if e.phi < 0 {
		s.lo = s.tau
	} else {
		s.hi = s.tau
	}
	du, bound, ok := e.step()
	next := s.tau + du/s.plan.V0
	if ok && math.Abs(du) <= 1 && bound <= e.tol {
		s.tau, s.done = next, true
		return
	}
	if !ok || !(next > s.lo && next < s.hi) || math.Abs(next-s.tau) > math.Abs(s.stepOld)/2 {
		next = midpoint(s.lo, s.hi)
		if next == s.lo || next == s.hi {
			s.done = true // the bracket is two adjacent floats
			return
		}
	}
	s.stepOld, s.step = s.step, next-s.tau
	s.tau = next
}

// value is φ and its derivatives from the combined sums, as evalPhi forms them.
func (s *Solver) value(t PhiSums) phiValue {
	v := phiValue{d1: t.D1, d2: t.D2, d3: t.D3}
	c0 := float64(s.n0)*s.cfg.Alpha - float64(t.Above)
	if c0 != 0 {
		c0 *= math.Exp(t.Scale)
	}
	v.phi = (c0 - t.TBelow) + t.TAbove
	v.tol = 4 * epsilon * (math.Abs(c0) + t.TBelow + t.TAbove)
	if math.IsInf(c0, 0) {
		v.phi, v.tol = c0, 0
	}
	return v
}

// FinishSums are a worker's sums at the solved τ: Loss = Σψ(τ − f_i) and Slope = Σσ′ over
// its positives (σ′ of z = v1·(τ − f_i), without the factor v1; with Config.Tail, ψ and
// ψ′ of the tail), and its negatives' log-sum-exp pair: MinAbs, the smallest |z_j|, whose
// logit ℓ(MinAbs) is the largest, and Weight = Σ exp(ℓ_j − ℓ(MinAbs)) (0 and +Inf without
// negatives).
type FinishSums struct {
	Loss, Slope    float64
	MinAbs, Weight float64
}

// Finish returns the shard's sums at the solved τ of the form solved ([Solver.Tau] once Done).
func (s *Shard) Finish(p Plan, tau float64) FinishSums {
	f := FinishSums{MinAbs: math.Inf(1)}
	for _, x := range s.pos {
		sig, d := posTerm(x, tau, p.V1, s.cfg.Tail)
		f.Loss += sig
		f.Slope += d
	}
	for _, x := range s.neg {
		f.MinAbs = min(f.MinAbs, math.Abs(p.V0*(tau-x)))
	}
	if !math.IsInf(f.MinAbs, 1) {
		for _, x := range s.neg {
			f.Weight += softmaxTerm(math.Abs(p.V0*(tau-x)), f.MinAbs)
		}
	}
	return f
}

// posTerm returns ψ(τ − f) and ψ′ in units of v1 for a positive f: σ(z) and σ(z)(1 − σ(z))
// at z = v1·(τ − f), or the tangent of σ at 0 for z > 0 with tail.
func posTerm(f, tau, v1 float64, tail bool) (sig, d float64) {
	if tail && tau > f {
		return 0.5 + v1*(tau-f)/4, 0.25
	}
	e := math.Exp(-math.Abs(v1 * (tau - f)))
	q := 1 / (1 + e)
	sig = q
	if tau < f {
		sig = e * q
	}
	return sig, e * q * q
}

// softmaxTerm returns exp(ℓ(a) − ℓ(ref)), ℓ(a) = −a − 2·log(1 + e^{−a}), for a ≥ ref ≥ 0, in
// the form of Gradient's weights that never forms σ(1 − σ).
func softmaxTerm(a, ref float64) float64 {
	q := (1 + math.Exp(-ref)) / (1 + math.Exp(-a))
	return math.Exp(ref-a) * q * q
}

// Combine returns the sums of two disjoint shards; the softmax pair is combined on the larger
// logit, as log-sum-exp is.
func (a FinishSums) Combine(b FinishSums) FinishSums {
	if b.MinAbs < a.MinAbs {
		a, b = b, a
	}
	out := FinishSums{Loss: a.Loss + b.Loss, Slope: a.Slope + b.Slope, MinAbs: a.MinAbs, Weight: a.Weight}
	if !math.IsInf(b.MinAbs, 1) {
		out.Weight += b.Weight * softmaxTerm(b.MinAbs, a.MinAbs)
	}
	return out
}

// Final is the coordinator's last broadcast: everything a shard needs for its gradient. Tau,
// V0 and V1 are those of the form solved; PosFactor is ∂L/∂f_i per unit σ′ of a positive
// (−v1/|B1|); Slope is dF̂_1/dτ and MinAbs, Weight the batch's softmax normaliser (see
// [FinishSums]).
type Final struct {
	Tau, V0, V1      float64
	PosFactor, Slope float64
	MinAbs, Weight   float64
}

// Final returns the batch's [Result] and the message for [Shard.Gradient] from the combined
// [FinishSums] of every shard at the solved τ.
func (s *Solver) Final(total FinishSums) (Result, Final) {
	n1 := float64(s.n1)
	fin := Final{Tau: s.tau, V0: s.plan.V0, V1: s.plan.V1, PosFactor: -s.plan.V1 / n1,
		Slope: total.Slope / n1 * s.plan.V1, MinAbs: total.MinAbs, Weight: total.Weight}
	res := Result{Tau: s.tau, Loss: total.Loss / n1, V0: s.plan.V0, V1: s.plan.V1}
	if s.mirror {
		res = Result{Tau: -s.tau, Loss: res.Loss, V0: s.plan.V1, V1: s.plan.V0}
	}
	if math.IsInf(total.MinAbs, 1) {
		fin.Weight = float64(s.n0) // every |z_j| overflowed: the slope is shared equally
	}
	return res, fin
}

// Gradient returns ∂L/∂f_i of the whole batch's loss for the shard's scores, in its input
// order, from the coordinator's [Final].
func (s *Shard) Gradient(fin Final) []float64 {
	sign, posLabel := s.signs()
	out := make([]float64, len(s.labels))
	i0, i1 := 0, 0
	negFactor := sign * fin.Slope / fin.Weight
	for i, y := range s.labels {
		if y == posLabel {
			_, d := posTerm(s.pos[i1], fin.Tau, fin.V1, s.cfg.Tail)
			out[i] = sign * fin.PosFactor * d
			i1++
			continue
		}
		r := 1.0
		if !math.IsInf(fin.MinAbs, 1) {
			r = softmaxTerm(math.Abs(fin.V0*(fin.Tau-s.neg[i0])), fin.MinAbs)
		}
		out[i] = negFactor * r
		i0++
	}
	return out
}

// ShardedGradient runs the protocol above in process, as workers holding scores[k] and
// labels[k] and a coordinator would, and returns each shard's gradient, the batch's Result
// and the number of solver passes. It is the reference for an implementation that moves the
// messages between machines, and equals [Gradient] on the concatenated batch up to rounding.
func ShardedGradient(scores, labels [][]float64, cfg Config) (grads [][]float64, res Result, passes int, err error) {
	if len(scores) != len(labels) {
		return nil, Result{}, 0, check.Errorf(pkg, rocops.ErrLength, "%d score shards, %d label shards", len(scores), len(labels))
	}
	shards := make([]*Shard, len(scores))
	var stats ShardStats
	for k := range shards {
		if shards[k], err = NewShard(scores[k], labels[k], cfg); err != nil {
			return nil, Result{}, 0, fmt.Errorf("shard %d: %w", k, err)
		}
		if k == 0 {
			stats = shards[k].Stats()
		} else {
			stats = stats.Combine(shards[k].Stats())
		}
	}
	sv, err := NewSolver(stats, cfg)
	if err != nil {
		return nil, Result{}, 0, err
	}
	plan := sv.Plan()
	for !sv.Done() {
		total := PhiSums{Scale: math.Inf(1)}
		for _, sh := range shards {
			total = total.Combine(sh.Phi(plan, sv.Tau()))
		}
		sv.Update(total)
	}
	fin := FinishSums{MinAbs: math.Inf(1)}
	for _, sh := range shards {
		fin = fin.Combine(sh.Finish(plan, sv.Tau()))
	}
	res, final := sv.Final(fin)
	grads = make([][]float64, len(shards))
	for k, sh := range shards {
		grads[k] = sh.Gradient(final)
	}
	return grads, res, sv.Passes(), nil
}
