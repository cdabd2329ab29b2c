package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"
)

// budgeted reports whether the budgets may stop k: the baselines, and the ops whose cost is
// quadratic. The other ops and the floors run at every size.
func (k kernel) budgeted() bool { return k.Kind == baseline || k.Growth > 1 }

// A kernel is one timed computation across sizes n.
type kernel struct {
	Name   string // unique, such as "pairwise/hinge/exact"
	Label  string // legend of the plots
	Kind   kind
	Growth float64 // the cost's exponent in n, to predict the next size: 1 for O(n log n), 2 for pairs
	// prepare builds what one call needs for the batch (a graph, buffers) and returns the call.
	prepare func(b *batch) (func() error, error)
}

type kind string

const (
	op       kind = "op"
	baseline kind = "baseline"
	floor    kind = "floor"
)

// batch is the benchmark's input at one size: n scores with 10% positives, negatives N(0, 1)
// and positives N(1.5, 1), in random order.
type batch struct {
	scores, labels []float64
	nPos           int
}

func newBatch(n int) *batch {
	rng := rand.New(rand.NewPCG(uint64(n), 0x62656e6368)) // "bench"
	b := &batch{scores: make([]float64, n), labels: make([]float64, n), nPos: max(1, n/10)}
	for i := range b.nPos {
		b.labels[i] = 1
	}
	rng.Shuffle(n, func(i, j int) { b.labels[i], b.labels[j] = b.labels[j], b.labels[i] })
	for i := range b.scores {
		b.scores[i] = rng.NormFloat64() + 1.5*b.labels[i]
	}
	return b
}

// stats are the repeats of one figure: their median, quartiles (by nearest rank: with 5
// repeats the 2nd and 4th smallest) and extremes.
type stats struct {
	Median  float64 `json:"median"`
	Q1      float64 `json:"q1"`
	Q3      float64 `json:"q3"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Repeats int     `json:"repeats"`
}

func summarize(xs []float64) stats {
	s := slices.Clone(xs)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	q := (len(s) - 1) / 4
	return stats{Median: m, Q1: s[q], Q3: s[len(s)-1-q], Min: s[0], Max: s[len(s)-1], Repeats: len(s)}
}

// summarizeCPU summarizes processor times: nil unless every one of the repeats has one.
func summarizeCPU(xs []float64, repeats int) *stats {
	if len(xs) == 0 || len(xs) != repeats {
		return nil
	}
	s := summarize(xs)
	return &s
}

// Spread is half the interquartile range of the repeats relative to their median: robust to
// one repeat slowed by other work on the machine.
func (s stats) Spread() float64 { return (s.Q3 - s.Q1) / (2 * s.Median) }

// point is a kernel's figures at one n.
type point struct {
	N       int   `json:"n"`
	Seconds stats `json:"seconds"` // wall time per call
	// CPU is the processor time per call, summed over the process's threads; nil where the
	// platform does not report it.
	CPU   *stats `json:"cpu_seconds,omitempty"`
	Calls int    `json:"calls"` // calls timed per repeat
	// Bytes is the heap allocated by building the kernel and running one cold call after a
	// full collection: an upper bound on the heap the call needs at its peak.
	Bytes int64 `json:"bytes"`
	probe bool  // taken by probe, not reported
}

// series is a kernel's figures over n.
type series struct {
	Name   string  `json:"name"`
	Label  string  `json:"label"`
	Kind   kind    `json:"kind"`
	Points []point `json:"points"`
	// Stopped says why the kernel was not run from StoppedAt on; empty when it ran at every n.
	Stopped   string `json:"stopped,omitempty"`
	StoppedAt int    `json:"stopped_at,omitempty"`
}

func (s *series) at(n int) (point, bool) {
	for _, p := range s.Points {
		if p.N == n {
			return p, true
		}
	}
	return point{}, false
}

// measureKernels times every kernel at every size of the settings, interleaving the repeats
// of the kernels at each size.
func measureKernels(rep *report, prog *progress) error {
	ks := kernels()
	rep.Kernels = make([]*series, len(ks))
	for i, k := range ks {
		rep.Kernels[i] = &series{Name: k.Name, Label: k.Label, Kind: k.Kind}
	}
	m := &kernelRun{ks: ks, rep: rep, last: make([]*point, len(ks)), prog: prog}
	s := rep.Settings
	for si, n := range s.Sizes {
		at := fmt.Sprintf("size %d/%d (n = %d)", si+1, len(s.Sizes), n)
		b := newBatch(n)
		var act []*active
		for i := range ks {
			a, err := m.start(i, b, at)
			if err != nil {
				return err
			}
			if a != nil {
				act = append(act, a)
			}
		}
		if err := m.repeat(act, n, at); err != nil {
			return err
		}
		for _, a := range act {
			sr := rep.Kernels[a.i]
			sr.Points = append(sr.Points, point{N: n, Seconds: summarize(a.times), CPU: summarizeCPU(a.cpu, s.Repeats),
				Calls: a.calls, Bytes: a.bytes})
			m.last[a.i] = &sr.Points[len(sr.Points)-1]
		}
	}
	return nil
}

// kernelRun is measureKernels' state across the sizes.
type kernelRun struct {
	ks  []kernel
	rep *report
	// last holds each kernel's latest figures, for predicting its next size: its last point,
	// or the probe taken before its first size.
	last []*point
	prog *progress
}

// active is a kernel timed at one size: its index in kernelRun.ks, its call, the calls per
// repeat, the heap of its cold call, and the time per call of each repeat, wall and processor.
type active struct {
	i     int
	call  func() error
	calls int
	times []float64
	cpu   []float64 // nil unless the platform reports processor time
	bytes int64
}

// start readies kernel i for timing on batch b, whose size at describes in the progress
// line. A stopped kernel, or a budgeted one whose predicted call is over the budgets (it is
// probed first when it has no figures to predict from), is not timed: start returns nil.
// Otherwise it prepares the kernel and runs a cold and a warm call, the shorter of which
// sets the calls per repeat.
func (m *kernelRun) start(i int, b *batch, at string) (*active, error) {
	k, sr, s, n := m.ks[i], m.rep.Kernels[i], m.rep.Settings, len(b.scores)
	if sr.Stopped != "" {
		return nil, nil
	}
	if k.budgeted() {
		if m.last[i] == nil && n > probeN {
			m.prog.line(fmt.Sprintf("%s: probing %s at n = %d", at, k.Name, probeN))
			p, err := probe(k)
			if err != nil {
				return nil, fmt.Errorf("%s at n = %d: %w", k.Name, probeN, err)
			}
			m.last[i] = &p
		}
		if why := overBudget(m.last[i], k.Growth, n, s); why != "" {
			sr.Stopped, sr.StoppedAt = why, n
			m.prog.note(fmt.Sprintf("%s stopped at n = %d: %s", k.Name, n, why))
			return nil, nil
		}
	}
	m.prog.line(fmt.Sprintf("%s: preparing %s", at, k.Name))
	call, bytes, first, err := coldCall(k, b)
	if err != nil {
		return nil, fmt.Errorf("%s at n = %d: %w", k.Name, n, err)
	}
	// A second, warm call sets the number of calls per repeat.
	t0 := time.Now()
	if err := call(); err != nil {
		return nil, fmt.Errorf("%s at n = %d: %w", k.Name, n, err)
	}
	warm := min(time.Since(t0), first)
	calls := 1
	if warm < s.MinTime {
		calls = int(math.Ceil(float64(s.MinTime) / float64(max(warm, time.Microsecond))))
	}
	return &active{i: i, call: call, calls: calls, bytes: bytes}, nil
}

// repeat runs the settings' repeats of the kernels act at size n, interleaved: in each repeat
// every kernel in turn times its calls, from a clean heap.
func (m *kernelRun) repeat(act []*active, n int, at string) error {
	s := m.rep.Settings
	for r := range s.Repeats {
		for _, a := range act {
			m.prog.line(fmt.Sprintf("%s: repeat %d/%d of %s", at, r+1, s.Repeats, m.ks[a.i].Name))
			runtime.GC() // start every repeat with a clean heap, so that none pays for another's garbage
			w := startWatch()
			for range a.calls {
				if err := a.call(); err != nil {
					return fmt.Errorf("%s at n = %d: %w", m.ks[a.i].Name, n, err)
				}
			}
			wall, cpu, ok := w.elapsed()
			a.times = append(a.times, wall/float64(a.calls))
			if ok {
				a.cpu = append(a.cpu, cpu/float64(a.calls))
			}
		}
	}
	return nil
}

// coldCall prepares k for b and runs it once after a full collection, returning the call,
// the heap allocated by preparing and calling, and the call's time.
func coldCall(k kernel, b *batch) (func() error, int64, time.Duration, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC() // a second cycle empties the sync.Pools, so that pooled scratch counts too
	runtime.ReadMemStats(&before)
	call, err := k.prepare(b)
	if err != nil {
		return nil, 0, 0, err
	}
	t0 := time.Now()
	if err := call(); err != nil {
		return nil, 0, 0, err
	}
	first := time.Since(t0)
	runtime.ReadMemStats(&after)
	return call, int64(after.TotalAlloc - before.TotalAlloc), first, nil
}

// probeN is the size at which a kernel is probed before a first size above it, so that even
// a first size can be predicted and stopped.
const probeN = 1 << 12

// probe returns a kernel's figures from one cold and one warm call at n = probeN.
func probe(k kernel) (point, error) {
	call, bytes, _, err := coldCall(k, newBatch(probeN))
	if err != nil {
		return point{}, err
	}
	w := startWatch()
	if err := call(); err != nil {
		return point{}, err
	}
	wall, cpu, ok := w.elapsed()
	p := point{N: probeN, Seconds: summarize([]float64{wall}), Calls: 1, Bytes: bytes, probe: true}
	if ok {
		p.CPU = summarizeCPU([]float64{cpu}, 1)
	}
	return p, nil
}

// probed says " in a probe" for the figures of a probe.
func (p *point) probed() string {
	if p.probe {
		return " in a probe"
	}
	return ""
}

// overBudget returns why a kernel must not run at n: the time (on the report's clock) or heap
// of one call predicted from its last figures, scaled by (n/last.N)^growth, beyond the
// budgets; "" when it may run or there is nothing to predict from.
func overBudget(last *point, growth float64, n int, s settings) string {
	if last == nil {
		return ""
	}
	scale := math.Pow(float64(n)/float64(last.N), growth)
	t0, cpu := last.Seconds.Median, s.Clock == cpuClock && last.CPU != nil
	if cpu {
		t0 = last.CPU.Median
	}
	if t := t0 * scale; t > s.TimeBudget.Seconds() {
		cost := "take about " + fmtSeconds(t)
		if cpu {
			cost = "use about " + fmtSeconds(t) + " of processor time"
		}
		return fmt.Sprintf("one call would %s (%s at n = %d%s, cost ∝ n^%g), over the budget of %s",
			cost, fmtSeconds(t0), last.N, last.probed(), growth, fmtSeconds(s.TimeBudget.Seconds()))
	}
	if m := float64(last.Bytes) * scale; m > float64(s.MemBudget) {
		return fmt.Sprintf("one call would allocate about %s (%s at n = %d%s, ∝ n^%g), over the budget of %s",
			fmtBytes(m), fmtBytes(float64(last.Bytes)), last.N, last.probed(), growth, fmtBytes(float64(s.MemBudget)))
	}
	return ""
}
