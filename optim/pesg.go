package optim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
)

// pesgError returns the rocops.ErrConfig error of a bad PESG setting or state: a setting that
// is negative, NaN or infinite, a momentum above 1, a decay factor below 1 or a decay epoch
// below 1, or a state that does not fit the run.
func pesgError(format string, args ...any) error {
	return check.Errorf("optim", rocops.ErrConfig, "PESG: "+format, args...)
}

// PESG holds the settings of the proximal epoch stochastic gradient method that LibAUC trains
// the AUC-M loss with (Yuan, Yan, Sonka and Yang, "Large-scale robust deep AUC maximization",
// ICCV 2021, arXiv 2012.03173; LibAUC 2.x, libauc/optimizers/pesg.py, its SGD mode). The
// fields are taken as given: start from [DefaultPESG] for LibAUC's defaults. A step, for every
// model parameter θ and for a and b, with gradient g of the AUC-M loss, is
//
//	d = clip(g, −Clip, Clip) + EpochDecay·(θ − θ_ref) + WeightDecay·θ
//	v = d at the first step, v ← (1 − Momentum)·v + Momentum·d after it
//	θ ← θ − η·v
//
// (LibAUC's own momentum form, not PyTorch's v ← μ·v + d; with Momentum = 0, v = d), and then
// for α its own projected ascent step, with the a and b just updated and the margin m,
//
//	α ← min(max(α + η·(2(m + b − a) − 2α), 0), 999).
//
// At the end of each epoch listed in DecayEpochs, θ_ref becomes the mean of the iterates θ
// since the last such reset (the start), and η ← η/DecayFactor. θ_ref starts as Gaussian noise
// N(0, 0.01²), as in LibAUC, drawn from the run's seed (train.Config.Seed); the term is left out when
// EpochDecay is 0.
type PESG struct {
	// LearningRate is η; 0 = the run's learning rate (train.Config.LearningRate), or 0.1 when that is 0 too.
	LearningRate float64
	// Clip bounds every gradient element to [−Clip, Clip]; 0 = no clipping.
	Clip float64
	// WeightDecay is the coefficient of the L2 term added to the gradient.
	WeightDecay float64
	// EpochDecay is the coefficient of the pull towards the reference point θ_ref.
	EpochDecay float64
	// Momentum is μ of LibAUC's momentum form, in [0, 1]; 0 = none.
	Momentum float64
	// DecayEpochs are the main-phase epochs (1-based, counted on from PESGState.Epochs when
	// a run resumes) after which the reference point is reset and the learning rate divided;
	// nil = none. LibAUC's examples decay after half and
	// three quarters of the epochs.
	DecayEpochs []int
	// DecayFactor divides the learning rate at every decay epoch; 0 = 10. It must be ≥ 1.
	DecayFactor float64
}

// DefaultPESG returns LibAUC's defaults: learning rate 0.1 (left 0 here, so that it can come
// from Config.LearningRate), Clip 1, WeightDecay 1e-5, EpochDecay 2e-3, Momentum 0.9, no
// decay epochs and a decay factor of 10.
func DefaultPESG() PESG {
	return PESG{Clip: 1, WeightDecay: 1e-5, EpochDecay: 2e-3, Momentum: 0.9}
}

func (p PESG) Validate() error {
	for _, s := range []struct {
		name string
		v    float64
	}{{"LearningRate", p.LearningRate}, {"Clip", p.Clip}, {"WeightDecay", p.WeightDecay},
		{"EpochDecay", p.EpochDecay}, {"Momentum", p.Momentum}, {"DecayFactor", p.DecayFactor}} {
		if !(s.v >= 0) || math.IsInf(s.v, 0) {
			return pesgError("%s = %v is not a finite number ≥ 0", s.name, s.v)
		}
	}
	switch {
	case p.Momentum > 1:
		return pesgError("Momentum = %v is above 1", p.Momentum)
	case p.DecayFactor != 0 && p.DecayFactor < 1:
		return pesgError("DecayFactor = %v is below 1", p.DecayFactor)
	}
	for _, e := range p.DecayEpochs {
		if e < 1 {
			return pesgError("decay epoch %d is below 1", e)
		}
	}
	return nil
}

// PESGState is the trained state PESG keeps beside the model's weights: the auxiliary
// variables of the AUC-M loss, the learning rate after its decays, the step counts, and per
// parameter tensor (the model's in Params order, then a and b) the reference point, the sum of
// the iterates since the last reset and the momentum buffer. With the model's nn checkpoint it
// is everything a run needs to continue ([AUCM].Resume); its fields are exported so that
// encoding/json writes it; [PESGState.MarshalBinary] and [SavePESGState] give it a versioned,
// checksummed binary form.
type PESGState struct {
	// A, B and Alpha hold a, b and α: one element each for a binary run, k for a run on k
	// classes or labels (A[c] is a_c, column c's).
	A, B, Alpha  []float64
	LearningRate float64 // η now, after the decays so far
	Steps        int     // steps taken
	SinceReset   int     // steps since the reference point was last reset
	// Epochs is the number of main-phase epochs completed; a resumed run counts its epochs,
	// and so PESG.DecayEpochs, on from it.
	Epochs   int
	Ref      [][]float64
	Acc      [][]float64
	Momentum [][]float64
	// ModelSHA256 is the SHA-256 of the model file the state was saved with (roctrain -out
	// writes the model's, so that a state names the model it belongs to); zero for none, as
	// a run leaves it, and in a state file of format version 1.
	ModelSHA256 [32]byte
}

// PESGRun is the PESG optimiser of one run: per parameter tensor (the model's, then a and b) its reference
// point, the sum of its iterates since the last reset and its momentum buffer, in float64.
type PESGRun struct {
	set    PESG
	lr     float64
	margin float64
	// A, B and Alpha are the AUC-M loss's a, b and α: k elements each (1 for binary data); a
	// and b are updated like parameters, α by its ascent form.
	A, B, Alpha []float64
	ref         [][]float64
	acc         [][]float64
	buf         [][]float64
	steps       int
	since       int
	epochs      int // main-phase epochs completed
}

// NewPESGRun returns the optimiser for parameter tensors of the given sizes (the model's; a and
// b, of k elements each, are added), with its reference points drawn from seed when
// EpochDecay > 0. The settings must have passed check, lr > 0 be the effective learning rate
// and k ≥ 1 the number of the loss's columns (1 for binary data).
func NewPESGRun(set PESG, lr, margin float64, sizes []int, k int, seed uint64) *PESGRun {
	p := &PESGRun{set: set, lr: lr, margin: margin, A: make([]float64, k), B: make([]float64, k), Alpha: make([]float64, k)}
	sizes = append(slices.Clone(sizes), k, k)
	rng := rand.New(rand.NewPCG(seed, 0x70657367)) // "pesg"
	for _, n := range sizes {
		ref := make([]float64, n)
		if set.EpochDecay > 0 {
			for i := range ref {
				ref[i] = 0.01 * rng.NormFloat64()
			}
		}
		p.ref = append(p.ref, ref)
		p.acc = append(p.acc, make([]float64, n))
		p.buf = append(p.buf, make([]float64, n))
	}
	return p
}

// Step updates the model's parameters from their gradients, a and b from da and db (k
// elements each), and every α_c by its ascent form.
func (p *PESGRun) Step(params, grads []*tensor.Dense, da, db []float64) error {
	if len(params) != len(grads) || len(params)+2 != len(p.ref) {
		return fmt.Errorf("optim: PESG over %d tensors got %d parameters and %d gradients",
			len(p.ref)-2, len(params), len(grads))
	}
	if len(da) != len(p.A) || len(db) != len(p.B) {
		return fmt.Errorf("optim: PESG of %d columns got %d and %d derivatives of a and b", len(p.A), len(da), len(db))
	}
	for i, w := range params {
		switch w.Dtype() {
		case tensor.Float64:
			pesgUpdate(p, i, w.Float64s(), grads[i].Float64s())
		case tensor.Float32:
			pesgUpdate(p, i, w.Float32s(), grads[i].Float32s())
		default:
			return fmt.Errorf("optim: unsupported parameter dtype %v", w.Dtype())
		}
	}
	n := len(params)
	pesgUpdate(p, n, p.A, da)
	pesgUpdate(p, n+1, p.B, db)
	for c, al := range p.Alpha {
		al += p.lr * (2*(p.margin+p.B[c]-p.A[c]) - 2*al)
		p.Alpha[c] = min(max(al, 0), 999)
	}
	p.steps++
	p.since++
	return nil
}

// pesgUpdate is the step of tensor i, with values w and gradient g, computed in float64.
func pesgUpdate[T floats.Float](p *PESGRun, i int, w, g []T) {
	ref, acc, buf := p.ref[i], p.acc[i], p.buf[i]
	s := p.set
	for k := range w {
		theta, grad := float64(w[k]), float64(g[k])
		if s.Clip > 0 {
			grad = min(max(grad, -s.Clip), s.Clip)
		}
		d := grad + s.WeightDecay*theta
		if s.EpochDecay > 0 {
			d += s.EpochDecay * (theta - ref[k])
		}
		if s.Momentum != 0 {
			if p.steps == 0 {
				buf[k] = d
			} else {
				buf[k] = (1-s.Momentum)*buf[k] + s.Momentum*d
			}
			d = buf[k]
		}
		w[k] = T(theta - p.lr*d)
		if s.EpochDecay > 0 {
			acc[k] += float64(w[k])
		}
	}
}

// EndEpoch counts a main-phase epoch done and, when it is one of the decay epochs, decays.
func (p *PESGRun) EndEpoch() {
	p.epochs++
	if slices.Contains(p.set.DecayEpochs, p.epochs) {
		p.decayEpoch()
	}
}

// decayEpoch resets the reference points to the mean iterate since the last reset and divides
// the learning rate by the decay factor (LibAUC's update_regularizer).
func (p *PESGRun) decayEpoch() {
	factor := p.set.DecayFactor
	if factor == 0 {
		factor = 10
	}
	p.lr /= factor
	if p.set.EpochDecay > 0 && p.since > 0 {
		for i := range p.ref {
			for k := range p.ref[i] {
				p.ref[i][k] = p.acc[i][k] / float64(p.since)
				p.acc[i][k] = 0
			}
		}
	}
	p.since = 0
}

// State returns a copy of the run's state, to save (SavePESGState) and to resume from.
func (p *PESGRun) State() PESGState {
	clone := func(xs [][]float64) [][]float64 {
		out := make([][]float64, len(xs))
		for i, x := range xs {
			out[i] = slices.Clone(x)
		}
		return out
	}
	return PESGState{
		A: slices.Clone(p.A), B: slices.Clone(p.B), Alpha: slices.Clone(p.Alpha),
		LearningRate: p.lr, Steps: p.steps, SinceReset: p.since, Epochs: p.epochs,
		Ref: clone(p.ref), Acc: clone(p.acc), Momentum: clone(p.buf),
	}
}

// Resume sets the optimiser to st, which must hold tensors of its sizes and a, b, α of its k
// columns.
func (p *PESGRun) Resume(st PESGState) error {
	if k := len(p.A); len(st.A) != k || len(st.B) != k || len(st.Alpha) != k {
		return pesgError("the resumed state has a, b and α of %d, %d and %d columns, the run %d",
			len(st.A), len(st.B), len(st.Alpha), k)
	}
	for _, part := range []struct {
		name     string
		dst, src [][]float64
	}{{"Ref", p.ref, st.Ref}, {"Acc", p.acc, st.Acc}, {"Momentum", p.buf, st.Momentum}} {
		if len(part.src) != len(part.dst) {
			return pesgError("the resumed state has %d %s tensors, the run %d",
				len(part.src), part.name, len(part.dst))
		}
		for i, x := range part.src {
			if len(x) != len(part.dst[i]) {
				return pesgError("the resumed state's %s tensor %d has %d elements, the run's %d",
					part.name, i, len(x), len(part.dst[i]))
			}
		}
	}
	scalars := append(append(append([]float64{st.LearningRate}, st.A...), st.B...), st.Alpha...)
	for _, x := range scalars {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return pesgError("the resumed state holds %v", x)
		}
	}
	for _, part := range []struct {
		name string
		xs   [][]float64
	}{{"Ref", st.Ref}, {"Acc", st.Acc}, {"Momentum", st.Momentum}} {
		for i, x := range part.xs {
			for j, v := range x {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return pesgError("the resumed state's %s tensor %d holds %v at %d", part.name, i, v, j)
				}
			}
		}
	}
	if !(st.LearningRate > 0) || st.Steps < 0 || st.SinceReset < 0 || st.Epochs < 0 || slices.Min(st.Alpha) < 0 {
		return pesgError("the resumed state has learning rate %v, α %v, steps %d and %d, epochs %d",
			st.LearningRate, st.Alpha, st.Steps, st.SinceReset, st.Epochs)
	}
	for i := range p.ref {
		copy(p.ref[i], st.Ref[i])
		copy(p.acc[i], st.Acc[i])
		copy(p.buf[i], st.Momentum[i])
	}
	copy(p.A, st.A)
	copy(p.B, st.B)
	copy(p.Alpha, st.Alpha)
	p.lr, p.steps, p.since, p.epochs = st.LearningRate, st.Steps, st.SinceReset, st.Epochs
	return nil
}
