package experiment

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/rocops/rocops/train"
)

// PhasesOf counts the phases of a training and says how many of them the kept weights went
// through: phases is the number of runs of consecutive epochs of one kind, warm-up (or a
// recipe's cross-entropy first phase, which train labels train.Warmup) then main, in
// h.Epochs; kept is the 1-based phase of the kept epoch h.Best. kept < phases is a fallback:
// validation rejected the later phase, and the model holds the earlier phase's weights (train's
// FineTune restores them when its second phase does not improve the validation metric).
// Intervention epochs belong to the main phase. Both are 0 without a kept epoch.
func PhasesOf(h *train.History) (phases, kept int) {
	if h == nil || h.Best < 0 || h.Best >= len(h.Epochs) {
		return 0, 0
	}
	isWarmup := func(e train.Epoch) bool { return e.Phase == train.Warmup }
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

// Fallback reports whether the kept weights stop short of the training's last phase.
func (r *Result) Fallback() bool { return r.KeptPhases < r.Phases }

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

// SameScores reports whether r and o scored the test rows bit for bit alike and deployed the
// same point, so that a plot draws them once.
func (r *Result) SameScores(o *Result) bool {
	return r.ScoresHash == o.ScoresHash && r.DeployedTestFPR == o.DeployedTestFPR &&
		r.DeployedTestTPR == o.DeployedTestTPR
}

// Merge groups results whose test scores are bit for bit the same (SameScores), in order
// of each group's first member.
func Merge(results []Result) [][]Result {
	var groups [][]Result
next:
	for _, r := range results {
		for g := range groups {
			if groups[g][0].SameScores(&r) {
				groups[g] = append(groups[g], r)
				continue next
			}
		}
		groups = append(groups, []Result{r})
	}
	return groups
}

// SameAs lists the names of the runs of results whose every seed scored the test rows bit for
// bit like s's on that seed (SameScores), s itself left out: runs that are one model.
func SameAs(s *Summary, results []Summary) []string {
	var names []string
	for k := range results {
		o := &results[k]
		if o.Name == s.Name || len(o.PerSeed) != len(s.PerSeed) {
			continue
		}
		same := true
		for i := range s.PerSeed {
			same = same && s.PerSeed[i].Seed == o.PerSeed[i].Seed && s.PerSeed[i].SameScores(&o.PerSeed[i])
		}
		if same {
			names = append(names, o.Name)
		}
	}
	return names
}

// Series is the diagnoses of one run, drawn once for every run named in Names: the runs of
// a group of [Merge] whose diagnoses begin its longest run's.
type Series struct {
	Names  []string
	Result Result // the run with the longest diagnoses
}

// MergeDiagnoses returns the diagnoses to draw for groups of runs with equal test scores
// ([Merge]): within a group, a run whose diagnoses equal the first epochs of the group's
// longest run's bit for bit (whatever their phase labels: a ce run's main epochs are the
// warm-up of a kde run that kept them) is drawn as part of it; the others, and runs without
// diagnoses, are drawn apart or not at all.
func MergeDiagnoses(groups [][]Result) []Series {
	var out []Series
	for _, g := range groups {
		g = slices.Clone(g)
		slices.SortStableFunc(g, func(a, b Result) int { return len(b.Diagnostics) - len(a.Diagnostics) })
		if len(g[0].Diagnostics) == 0 {
			continue
		}
		main := Series{Names: []string{g[0].Name}, Result: g[0]}
		for _, r := range g[1:] {
			if n := len(r.Diagnostics); n > 0 && sameDiagnoses(r.Diagnostics, g[0].Diagnostics[:n]) {
				main.Names = append(main.Names, r.Name)
			} else if n > 0 {
				out = append(out, Series{Names: []string{r.Name}, Result: r})
			}
		}
		out = append(out, main)
	}
	return out
}

// sameDiagnoses reports whether a and b hold the same diagnoses bit for bit, phases aside.
// %v writes each float as the shortest text that reads back to it, and NaN as "NaN".
func sameDiagnoses(a, b []Diagnosis) bool {
	text := func(ds []Diagnosis) string {
		ds = slices.Clone(ds)
		for k := range ds {
			ds[k].Phase = ""
		}
		return fmt.Sprint(ds)
	}
	return text(a) == text(b)
}

// NextPhase is the epoch at which r's main phase follows its warm-up (or a recipe's
// cross-entropy phase) in its diagnoses, 0 when it has none.
func (r *Result) NextPhase() int {
	d := r.Diagnostics
	for k := 1; k < len(d); k++ {
		if d[k-1].Phase == train.Warmup.String() && d[k].Phase == train.Main.String() {
			return d[k].Epoch
		}
	}
	return 0
}

// Label names a group of runs, such as one of [Merge]: their names joined by " = ".
func Label(g []Result) string {
	names := make([]string, len(g))
	for k, r := range g {
		names[k] = r.Name
	}
	return strings.Join(names, " = ")
}
