package experiment

import (
	"hash/fnv"
	"math"

	"github.com/rocops/rocops/train"
)

// phasesOf counts the phases of a training and says how many of them the kept weights went
// through: phases is the number of runs of consecutive epochs of one kind, warm-up (or a
// recipe's cross-entropy first phase, which train labels train.Warmup) then main, in
// h.Epochs; kept is the 1-based phase of the kept epoch h.Best. kept < phases is a fallback:
// validation rejected the later phase, and the model holds the earlier phase's weights (train's
// FineTune restores them when its second phase does not improve the validation metric).
// Intervention epochs belong to the main phase. Both are 0 without a kept epoch.
func phasesOf(h *train.History) (phases, kept int) {
	if h == nil || h.Best < 0 || h.Best >= len(h.Epochs) {
		return 0, 0
	}
	isWarmup := func(e train.Epoch) bool { return e.Stage == train.Warmup }
	for k, e := range h.Epochs {
		if k == 0 || isWarmup(e) != isWarmup(h.Epochs[k-1]) {
			phases++
		}
		if k == h.Best {
			kept = phases
		}
	}
	return phases, kept
}

// fallback reports whether the kept weights stop short of the training's last phase.
func (r *Result) fallback() bool { return r.KeptPhases < r.Phases }

// hashScores is an FNV-1a hash of the scores' bits, in order: two runs with equal hashes
// scored every test row alike, bit for bit (up to a 2⁻⁶⁴ chance of a collision).
func hashScores(scores []float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, s := range scores {
		u := math.Float64bits(s)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}
