package kdequantile

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// The sharded KDE loss: one batch's scores spread over S workers that exchange only sums.
// [ShardedGradient] runs the protocol over shards held in one process; its types, the workers'
// shardState and the coordinator's solver, are the package's own.
//
// Every quantity of the loss is a sum over the batch or is computed from sums, so a batch
// whose scores live on S workers is solved by a coordinator that exchanges fixed-size
// messages with them, round by round:
//
//  1. Each worker sends shardState.Stats: per class the classStat that [Gradient] computes
//     for the bandwidth rule (the count, range and spread, the spread scaled by a power of
//     two). The coordinator adds them with shardStats.Combine and newSolver applies the
//     bandwidth rule of [Config] to the totals, as Gradient does, and brackets τ.
//  2. Until solver.Done, the coordinator broadcasts solver.Query (the pass, the
//     bandwidths and τ); each worker sends shardState.Phi, its negatives' Σσ(τ − f_j; v0) (as an
//     exact count plus tail sums) and the sums of σ′, σ″ and σ‴ that the solver's Newton and
//     cubic steps use; the coordinator combines them (shardPhi.Combine) and calls
//     solver.Update, which takes a safeguarded step or bisects. The worker sums carry their
//     own scale e^{s}, s the smallest |z_j| of the worker, so that no term underflows; Combine
//     rescales to the smallest.
//  3. Once Done, the coordinator broadcasts the Query of the solved τ; each worker sends
//     shardState.Finish: its positives' Σψ and Σσ′ (the loss and dF̂_1/dτ are their totals over
//     |B1|) and the log-sum-exp pair of its negatives' softmax logits ℓ_j: the largest,
//     ℓ(m_s) with m_s = min |z_j| (ℓ decreases in |z|), and Σ exp(ℓ_j − ℓ(m_s)).
//  4. solver.Final turns the totals into the [Result] and a final message, broadcast
//     back; shardState.Gradient gives the worker's ∂L/∂f_i in its input order.
//
// Every message carries the fingerprint of the Config its sender was made with, and every
// worker's answer the pass of the Query it answers and the number of scores it summed, so that
// the coordinator refuses, with errShard, what would otherwise give a wrong τ without a
// sign: shards of another configuration (Recall shards fed to an Alpha solver), a shard missing
// from a round or counted twice (the counts do not add up to the batch's), a stale answer (of
// another pass), sums that are NaN or infinite, statistics that are not a class's (N < 0,
// Min > Max), and Final before the solver is done. Combine keeps the first disagreement of two
// messages' fingerprints or passes, so that it cannot be hidden by later messages.
//
// Only sums travel: 104 bytes per worker in round 1, 80 bytes per worker and a 40-byte
// query per solver pass, 64 bytes per worker and a Query in round 3 and 64 bytes of broadcast
// in round 4 (the messages are fixed-size structs; encoding/binary writes them in these sizes).
// docs/scaling.md counts it for large batches. The result equals [Gradient] on the whole
// batch up to rounding: the solver stops at the same root to near machine precision, from a
// different start (the normal quantile of the negatives' mean and spread, since the
// empirical quantile [Gradient] starts from is not a sum).

// errShard reports a message of the sharded protocol that does not fit its solver or its
// round: of another configuration or pass, sums or statistics that no batch has (NaN or
// infinite sums, N < 0, Min > Max), counts that do not add up to the batch's (a shard missing
// or counted twice), or a step out of order (Update after Done, Final before it). The message
// names the message, the pass and what does not fit.
var errShard = errors.New("kdequantile: shard message does not fit")

// The tags of messages: 0 is the tag of the combination of no message, conflict that of two
// messages that disagree. Configuration fingerprints and pass numbers lie strictly between.
const conflict = math.MaxUint64

// joinTag returns the tag of the combination of two messages tagged a and b.
func joinTag(a, b uint64) uint64 {
	switch {
	case a == 0:
		return b
	case b == 0 || a == b:
		return a
	}
	return conflict
}

// fingerprint returns the fingerprint of cfg, a hash of every field: the FNV-1a hash of their
// bits, in [1, 2⁶⁴ − 2].
func fingerprint(cfg Config) uint64 {
	h := fnv.New64a()
	tail := 0.0
	if cfg.Tail {
		tail = 1
	}
	for _, x := range []float64{cfg.Alpha, cfg.Recall, cfg.V0, cfg.V1, cfg.Widen, tail} {
		var b [8]byte
		u := math.Float64bits(x)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()%(math.MaxUint64-1) + 1
}

// shardError returns errShard with the details.
func shardError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errShard, fmt.Sprintf(format, args...))
}

// checkConfig reports a message, what, whose configuration fingerprint is not want.
func checkConfig(what string, config, want uint64) error {
	switch {
	case config == conflict:
		return shardError("%s combine shards of different configurations", what)
	case config != want:
		return shardError("%s of configuration %016x, the solver's is %016x", what, config, want)
	}
	return nil
}

// checkTags reports a message, what, whose configuration fingerprint is not want or whose pass
// is not pass.
func checkTags(what string, config, want, got, pass uint64) error {
	if err := checkConfig(what, config, want); err != nil {
		return err
	}
	switch {
	case got == conflict:
		return shardError("%s combine the answers of different passes, want pass %d", what, pass)
	case got != pass:
		return shardError("%s answer pass %d, want pass %d", what, got, pass)
	}
	return nil
}

// shardState is one worker's part of a batch: its scores and labels, with the Config of the whole
// batch. It does not copy the input's labels, which must not change until its gradient is
// taken.
type shardState struct {
	cfg      Config // the Alpha form solved
	mirror   bool
	config   uint64 // the fingerprint of the Config given
	labels   []float64
	neg, pos []float64 // the solved form's class scores, in input order
	buf      []float64 // per negative scratch
}

// newShard returns the shard of scores f and labels y of one worker. Every worker of a batch
// must use the same cfg, also given to [newSolver]. A shard may be empty or hold one class
// only; the batch as a whole must hold both (NewSolver checks). Errors: an invalid cfg
// (rocops.ErrConfig), rocops.ErrLength, and rocops.ErrNonFinite or
// rocops.ErrLabel naming the element by its index in this shard.
func newShard(scores, labels []float64, cfg Config) (*shardState, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(scores) != len(labels) {
		return nil, check.Errorf(pkg, rocops.ErrLength, "%d scores, %d labels", len(scores), len(labels))
	}
	s := &shardState{labels: labels, config: fingerprint(cfg)}
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
func (s *shardState) signs() (sign, posLabel float64) {
	if s.mirror {
		return -1, 0
	}
	return 1, 1
}

// shardStats are a worker's first message: the fingerprint of its Config and the statistics of
// the negatives and of the positives of the form solved (with Config.Recall the mirrored
// batch, whose negatives are the input's positives with their scores negated). The zero value
// is the statistics of no shard.
type shardStats struct {
	Config   uint64
	Neg, Pos classStat
}

// Stats returns the shard's statistics, for [shardStats.Combine] and [newSolver].
func (s *shardState) Stats() shardStats {
	return shardStats{Config: s.config, Neg: classStats(s.neg), Pos: classStats(s.pos)}
}

// classStats returns the statistics of a shard's scores of one class: the range, and the
// spread two-pass on the scores times 2^(−e), e the binary exponent of the largest |score|, so
// that no square overflows or underflows at any scale and shards of other scales combine exactly.
func classStats(xs []float64) classStat {
	if len(xs) == 0 {
		return emptyStats
	}
	c := classStat{N: int64(len(xs)), Min: xs[0], Max: xs[0]}
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
func (a shardStats) Combine(b shardStats) shardStats {
	return shardStats{Config: joinTag(a.Config, b.Config), Neg: a.Neg.combine(b.Neg), Pos: a.Pos.combine(b.Pos)}
}

// valid reports, for the class named what, statistics that no scores have: N < 0, or for
// N > 0 a range that is not finite with Min ≤ Max, a Scale that is not finite and positive, a
// Mean or M2 that is not finite, a negative M2, or a Mean (times 1/Scale) outside the range
// beyond rounding.
func (c classStat) valid(what string) error {
	switch {
	case c.N < 0:
		return shardError("ShardStats: %s: N = %d", what, c.N)
	case c.N == 0:
		return nil
	case !(c.Min <= c.Max) || math.IsInf(c.Min, 0) || math.IsInf(c.Max, 0):
		return shardError("ShardStats: %s: Min = %v, Max = %v, want finite Min ≤ Max", what, c.Min, c.Max)
	case !(c.Scale > 0) || math.IsInf(c.Scale, 1):
		return shardError("ShardStats: %s: Scale = %v", what, c.Scale)
	case !(c.M2 >= 0) || math.IsInf(c.M2, 1) || math.IsNaN(c.Mean) || math.IsInf(c.Mean, 0):
		return shardError("ShardStats: %s: Mean = %v, M2 = %v", what, c.Mean, c.M2)
	}
	slack := 1e-9 * c.maxAbs() * c.Scale
	if !(c.Mean >= c.Min*c.Scale-slack && c.Mean <= c.Max*c.Scale+slack) {
		return shardError("ShardStats: %s: Mean = %v of the scores times %v, outside their range [%v, %v]",
			what, c.Mean, c.Scale, c.Min, c.Max)
	}
	return nil
}

// query is the coordinator's broadcast of one round: the fingerprint of its Config, the pass
// the round answers (1, 2, … for the rounds of [shardState.Phi]; [solver.Passes] + 1 once the
// solver is done, for [shardState.Finish]), the inverse bandwidths and τ of the form solved.
type query struct {
	Config, Pass uint64
	V0, V1, Tau  float64
}

// shardPhi are a worker's sums over its negatives at the τ of one Query: the fingerprint of its
// Config, the Query's pass, N the negatives summed and Above those above τ, and, all
// multiplied by e^{Scale}, TBelow and TAbove, Σσ(−|z_j|) over those at or below and above τ,
// and D1, D2, D3 the sums of σ′, σ″ and σ‴ at z_j = v0·(τ − f_j). Scale is the smallest
// |z_j| (+Inf for no negatives). The combination of no shard is shardPhi{Scale: +Inf}.
type shardPhi struct {
	Config, Pass               uint64
	N, Above                   int64
	TBelow, TAbove, D1, D2, D3 float64
	Scale                      float64
}

// Phi returns the shard's sums for the round q.
func (s *shardState) Phi(q query) shardPhi {
	out := shardPhi{Config: s.config, Pass: q.Pass, N: int64(len(s.neg)), Scale: math.Inf(1)}
	if len(s.neg) == 0 {
		return out
	}
	b := phiBlock(s.neg, s.buf, q.V0, q.Tau)
	out.Above, out.TBelow, out.TAbove, out.D1, out.D2, out.D3, out.Scale =
		int64(b.above), b.tBelow, b.tAbove, b.d1, b.d2, b.d3, b.scale
	return out
}

// Combine returns the sums of two disjoint shards, on the smaller of their scales. A Scale that
// is NaN or negative, or sums beside a Scale of +Inf (which stands for sums of no finite |z_j|),
// make the combined sums NaN, which Update refuses.
func (a shardPhi) Combine(b shardPhi) shardPhi {
	config, pass := joinTag(a.Config, b.Config), joinTag(a.Pass, b.Pass)
	if b.Scale < a.Scale {
		a, b = b, a
	}
	out := a
	out.Config, out.Pass = config, pass
	out.N += b.N
	out.Above += b.Above
	if !(a.Scale >= 0) || !(b.Scale >= 0) {
		out.Scale = math.NaN()
		return out
	}
	if math.IsInf(b.Scale, 1) {
		if b.TBelow != 0 || b.TAbove != 0 || b.D1 != 0 || b.D2 != 0 || b.D3 != 0 {
			out.TBelow = math.NaN()
		}
		return out // no negatives, or every |z| overflowed: only the counts add
	}
	c := math.Exp(a.Scale - b.Scale)
	out.TBelow += c * b.TBelow
	out.TAbove += c * b.TAbove
	out.D1 += c * b.D1
	out.D2 += c * b.D2
	out.D3 += c * b.D3
	return out
}

// solver is the coordinator's side: the bandwidths, the bracket of τ and the safeguarded
// Newton–cubic iteration of [Gradient], fed with the workers' combined sums.
type solver struct {
	cfg     Config // the Alpha form solved
	mirror  bool
	config  uint64 // the fingerprint of the Config given
	v0, v1  float64
	n0, n1  int64
	lo, hi  float64
	tau     float64
	stepOld float64
	step    float64
	passes  int
	done    bool
}

// newSolver returns the solver of a batch whose shards' statistics add up to total, for the
// cfg every shard was made with. Errors: an invalid cfg (rocops.ErrConfig); errShard for
// statistics of shards of another configuration, or not of a class; rocops.ErrEmpty,
// rocops.ErrNoPositives or rocops.ErrNoNegatives for the whole batch; and rocops.ErrRange when τ's
// bracket overflows.
func newSolver(total shardStats, cfg Config) (*solver, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &solver{n0: total.Neg.N, n1: total.Pos.N, config: fingerprint(cfg)}
	s.cfg, s.mirror = cfg.solverConfig()
	if total.Config != 0 || total.Neg.N+total.Pos.N > 0 { // the statistics of no shard are ErrEmpty below
		if err := checkConfig("ShardStats", total.Config, s.config); err != nil {
			return nil, err
		}
	}
	for _, c := range []struct {
		name string
		st   classStat
	}{{"negatives", total.Neg}, {"positives", total.Pos}} {
		if err := c.st.valid(c.name); err != nil {
			return nil, err
		}
	}
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
	s.v0, s.v1 = ruleBandwidths(s.cfg, total.Neg, total.Pos)
	alpha := s.cfg.Alpha
	shift := (math.Log1p(-alpha) - math.Log(alpha)) / s.v0
	s.lo, s.hi = total.Neg.Min+shift, total.Neg.Max+shift
	if math.IsInf(s.lo, 0) || math.IsInf(s.hi, 0) {
		return nil, check.Errorf(pkg, rocops.ErrRange, "the threshold overflows float64: scores in [%v, %v] with v0 = %v", total.Neg.Min, total.Neg.Max, s.v0)
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

// Query returns the broadcast of the next round: the τ at which the shards evaluate
// [shardState.Phi] next, or, once [solver.Done], the solved τ of the form solved, at which they
// evaluate [shardState.Finish].
func (s *solver) Query() query {
	return query{Config: s.config, Pass: uint64(s.passes) + 1, V0: s.v0, V1: s.v1, Tau: s.tau}
}

// Done reports whether τ is solved.
func (s *solver) Done() bool { return s.done }

// Passes returns the number of Update calls so far: the rounds of Phi sums exchanged.
func (s *solver) Passes() int { return s.passes }

// Update takes the combined [shardPhi] of every shard for [solver.Query] and moves τ towards
// the root (docs/kde-quantile.md, "The threshold solver"): a cubic-model step when it stays
// inside the bracket and shrinks fast enough, else bisection. Errors, errShard naming the
// pass, leave the solver as it was: sums of another configuration or pass, over another number
// of negatives than the batch's, with Above outside [0, N], or NaN or infinite (a Scale may be
// +Inf, for sums of no finite |z_j|), and any Update once Done.
func (s *solver) Update(total shardPhi) error {
	if s.done {
		return shardError("Update after Done (%d passes)", s.passes)
	}
	pass := uint64(s.passes) + 1
	if err := checkTags("PhiSums", total.Config, s.config, total.Pass, pass); err != nil {
		return err
	}
	switch {
	case total.N != s.n0:
		return shardError("PhiSums of pass %d sum %d negatives, the batch has %d: a shard is missing or counted twice", pass, total.N, s.n0)
	case total.Above < 0 || total.Above > total.N:
		return shardError("PhiSums of pass %d count %d negatives above τ of %d", pass, total.Above, total.N)
	case !finite(total.TBelow, total.TAbove, total.D1, total.D2, total.D3) || !(total.Scale >= 0) ||
		total.TBelow < 0 || total.TAbove < 0 || total.D1 < 0:
		return shardError("PhiSums of pass %d: TBelow = %v, TAbove = %v, D1 = %v, D2 = %v, D3 = %v, Scale = %v",
			pass, total.TBelow, total.TAbove, total.D1, total.D2, total.D3, total.Scale)
	}
	s.update(total)
	return nil
}

// update is Update on checked sums.
func (s *solver) update(total shardPhi) {
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
	next := s.tau + du/s.v0
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
func (s *solver) value(t shardPhi) phiValue {
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

// finishSums are a worker's sums at the solved τ: the fingerprint of its Config, the pass of
// the Query (Passes + 1), the numbers of positives NPos and negatives NNeg summed, Loss =
// Σψ(τ − f_i) and Slope = Σσ′ over its positives (σ′ of z = v1·(τ − f_i), without the factor
// v1; with Config.Tail, ψ and ψ′ of the tail), and its negatives' log-sum-exp pair: MinAbs, the
// smallest |z_j|, whose logit ℓ(MinAbs) is the largest, and Weight = Σ exp(ℓ_j − ℓ(MinAbs))
// (+Inf and 0 without negatives). The combination of no shard is finishSums{MinAbs: +Inf}.
type finishSums struct {
	Config, Pass   uint64
	NPos, NNeg     int64
	Loss, Slope    float64
	MinAbs, Weight float64
}

// Finish returns the shard's sums for the round q of the solved τ ([solver.Query] once Done).
func (s *shardState) Finish(q query) finishSums {
	f := finishSums{Config: s.config, Pass: q.Pass, NPos: int64(len(s.pos)), NNeg: int64(len(s.neg)), MinAbs: math.Inf(1)}
	for _, x := range s.pos {
		sig, d := posTerm(x, q.Tau, q.V1, s.cfg.Tail)
		f.Loss += sig
		f.Slope += d
	}
	for _, x := range s.neg {
		f.MinAbs = min(f.MinAbs, math.Abs(q.V0*(q.Tau-x)))
	}
	if !math.IsInf(f.MinAbs, 1) {
		for _, x := range s.neg {
			f.Weight += softmaxTerm(math.Abs(q.V0*(q.Tau-x)), f.MinAbs)
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
// logit, as log-sum-exp is. A MinAbs that is NaN or negative, or a Weight beside a MinAbs of
// +Inf (which stands for no finite |z_j|), make the combined Weight NaN, which Final refuses.
func (a finishSums) Combine(b finishSums) finishSums {
	config, pass := joinTag(a.Config, b.Config), joinTag(a.Pass, b.Pass)
	if b.MinAbs < a.MinAbs {
		a, b = b, a
	}
	out := finishSums{Config: config, Pass: pass, NPos: a.NPos + b.NPos, NNeg: a.NNeg + b.NNeg,
		Loss: a.Loss + b.Loss, Slope: a.Slope + b.Slope, MinAbs: a.MinAbs, Weight: a.Weight}
	switch {
	case !(a.MinAbs >= 0) || !(b.MinAbs >= 0) || math.IsInf(b.MinAbs, 1) && b.Weight != 0:
		out.Weight = math.NaN()
	case !math.IsInf(b.MinAbs, 1):
		out.Weight += b.Weight * softmaxTerm(b.MinAbs, a.MinAbs)
	}
	return out
}

// final is the coordinator's last broadcast: everything a shard needs for its gradient. Config
// is the fingerprint of the solver's Config; Tau, V0 and V1 are those of the form solved;
// PosFactor is ∂L/∂f_i per unit σ′ of a positive (−v1/|B1|); Slope is dF̂_1/dτ and MinAbs,
// Weight the batch's softmax normaliser (see finishSums).
type final struct {
	Config           uint64
	Tau, V0, V1      float64
	PosFactor, Slope float64
	MinAbs, Weight   float64
}

// Final returns the batch's [Result] and the message for [shardState.Gradient] from the combined
// finishSums of every shard for the Query of the solved τ. Errors, errShard: Final before
// Done, and sums of another configuration or pass, of other numbers of positives and negatives
// than the batch's, or that are NaN, infinite or negative (MinAbs may be +Inf, for sums of no
// finite |z_j|).
func (s *solver) Final(total finishSums) (Result, final, error) {
	if !s.done {
		return Result{}, final{}, shardError("Final before Done, after %d passes", s.passes)
	}
	pass := uint64(s.passes) + 1
	if err := checkTags("FinishSums", total.Config, s.config, total.Pass, pass); err != nil {
		return Result{}, final{}, err
	}
	switch {
	case total.NPos != s.n1 || total.NNeg != s.n0:
		return Result{}, final{}, shardError("FinishSums of pass %d sum %d positives and %d negatives, the batch has %d and %d: a shard is missing or counted twice",
			pass, total.NPos, total.NNeg, s.n1, s.n0)
	case !finite(total.Loss, total.Slope, total.Weight) || total.Loss < 0 || total.Slope < 0 || total.Weight < 0 || !(total.MinAbs >= 0):
		return Result{}, final{}, shardError("FinishSums of pass %d: Loss = %v, Slope = %v, MinAbs = %v, Weight = %v",
			pass, total.Loss, total.Slope, total.MinAbs, total.Weight)
	}
	n1 := float64(s.n1)
	fin := final{Config: s.config, Tau: s.tau, V0: s.v0, V1: s.v1, PosFactor: -s.v1 / n1,
		Slope: total.Slope / n1 * s.v1, MinAbs: total.MinAbs, Weight: total.Weight}
	res := Result{Tau: s.tau, Loss: total.Loss / n1, V0: s.v0, V1: s.v1}
	if s.mirror {
		res = Result{Tau: -s.tau, Loss: res.Loss, V0: s.v1, V1: s.v0}
	}
	if math.IsInf(total.MinAbs, 1) {
		fin.Weight = float64(s.n0) // every |z_j| overflowed: the slope is shared equally
	}
	return res, fin, nil
}

// Gradient returns ∂L/∂f_i of the whole batch's loss for the shard's scores, in its input
// order, from the coordinator's [final]. A Final of another configuration, or with a field that
// no solver gives (a τ or bandwidth that is not finite, a normaliser that is not positive), is
// errShard.
func (s *shardState) Gradient(fin final) ([]float64, error) {
	switch {
	case fin.Config != s.config:
		return nil, shardError("Final of configuration %016x, the shard's is %016x", fin.Config, s.config)
	case !finite(fin.Tau, fin.V0, fin.V1, fin.PosFactor, fin.Slope, fin.Weight) || !(fin.V0 > 0) || !(fin.V1 > 0) ||
		!(fin.Weight > 0) || !(fin.MinAbs >= 0):
		return nil, shardError("Final: %+v", fin)
	}
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
	return out, nil
}

// ShardedGradient runs the protocol above in process, as workers holding scores[k] and
// labels[k] and a coordinator would, and returns each shard's gradient, the batch's Result
// and the number of solver passes. It is the reference for an implementation that moves the
// messages between machines, and equals [Gradient] on the concatenated batch up to rounding.
func ShardedGradient(scores, labels [][]float64, cfg Config) (grads [][]float64, res Result, passes int, err error) {
	if len(scores) != len(labels) {
		return nil, Result{}, 0, check.Errorf(pkg, rocops.ErrLength, "%d score shards, %d label shards", len(scores), len(labels))
	}
	shards := make([]*shardState, len(scores))
	var stats shardStats
	for k := range shards {
		if shards[k], err = newShard(scores[k], labels[k], cfg); err != nil {
			return nil, Result{}, 0, fmt.Errorf("%w (shard %d)", err, k)
		}
		stats = stats.Combine(shards[k].Stats())
	}
	sv, err := newSolver(stats, cfg)
	if err != nil {
		return nil, Result{}, 0, err
	}
	for !sv.Done() {
		q, total := sv.Query(), shardPhi{Scale: math.Inf(1)}
		for _, sh := range shards {
			total = total.Combine(sh.Phi(q))
		}
		if err := sv.Update(total); err != nil {
			return nil, Result{}, 0, err
		}
	}
	q, fin := sv.Query(), finishSums{MinAbs: math.Inf(1)}
	for _, sh := range shards {
		fin = fin.Combine(sh.Finish(q))
	}
	res, final, err := sv.Final(fin)
	if err != nil {
		return nil, Result{}, 0, err
	}
	grads = make([][]float64, len(shards))
	for k, sh := range shards {
		if grads[k], err = sh.Gradient(final); err != nil {
			return nil, Result{}, 0, fmt.Errorf("%w (shard %d)", err, k)
		}
	}
	return grads, res, sv.Passes(), nil
}

// finite reports whether every x is neither NaN nor infinite.
func finite(xs ...float64) bool {
	for _, x := range xs {
		if x-x != 0 {
			return false
		}
	}
	return true
}
