package optim

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
)

// TestPESGThreeSteps: PESG against a sequence worked by hand. Two model parameters θ = (θ₁, θ₂)
// start at (1, −1), a = b = α = 0; η = 0.1, Clip = 1, WeightDecay λ = 0.1, EpochDecay ε = 0.5,
// Momentum μ = 0.5, margin m = 1, and the reference point is set to θ_ref = (0.1, −0.2),
// a_ref = b_ref = 0. The gradients (g₁, g₂, g_a, g_b) of the three steps are given:
// (2, −0.5, −1, −0.5), (0.4, 3, 0.6, 0.3), (−1.5, 0.2, −0.2, 2). Per coordinate
// d = clip(g) + λθ + ε(θ − θ_ref), v = d at step 1 and (1 − μ)v + μd after, θ ← θ − ηv; then
// α ← clamp(α + η(2(m + b − a) − 2α), 0, 999).
//
// Step 1: θ₁: d = 1 + 0.1 + 0.5·0.9 = 1.55, θ₁ = 1 − 0.155 = 0.845;
// θ₂: d = −0.5 − 0.1 + 0.5·(−0.8) = −1, θ₂ = −0.9; a: d = −1, a = 0.1; b: d = −0.5, b = 0.05;
// α = 0.1·2(1 + 0.05 − 0.1) = 0.19.
// Step 2: θ₁: d = 0.4 + 0.0845 + 0.5·0.745 = 0.857, v = (1.55 + 0.857)/2 = 1.2035,
// θ₁ = 0.845 − 0.12035 = 0.72465; θ₂: d = 1 − 0.09 − 0.35 = 0.56, v = (−1 + 0.56)/2 = −0.22,
// θ₂ = −0.878; a: d = 0.6 + 0.01 + 0.05 = 0.66, v = −0.17, a = 0.117; b: d = 0.3 + 0.005 +
// 0.025 = 0.33, v = −0.085, b = 0.0585; α = 0.19 + 0.1·(2(1 + 0.0585 − 0.117) − 0.38) = 0.3403.
// Step 3: θ₁: d = −1 + 0.072465 + 0.5·0.62465 = −0.61521, v = (1.2035 − 0.61521)/2 =
// 0.294145, θ₁ = 0.6952355; θ₂: d = 0.2 − 0.0878 − 0.339 = −0.2268, v = −0.2234,
// θ₂ = −0.85566; a: d = −0.2 + 0.0117 + 0.0585 = −0.1298, v = −0.1499, a = 0.13199;
// b: d = 1 + 0.00585 + 0.02925 = 1.0351, v = 0.47505, b = 0.010995;
// α = 0.3403 + 0.1·(2(1 + 0.010995 − 0.13199) − 0.6806) = 0.448041.
// A decay epoch then sets θ_ref to the mean of the three iterates, θ₁: (0.845 + 0.72465 +
// 0.6952355)/3 = 0.7549618333…, and η to 0.1/10 = 0.01.
func TestPESGThreeSteps(t *testing.T) {
	const tol = 1e-12 // a few roundings of numbers below 2
	set := PESG{Clip: 1, WeightDecay: 0.1, EpochDecay: 0.5, Momentum: 0.5}
	require.NoError(t, set.Validate())
	p := NewPESGRun(set, 0.1, 1, []int{2}, 1, 1)
	p.ref[0] = []float64{0.1, -0.2}
	p.ref[1][0], p.ref[2][0] = 0, 0
	theta := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{1, -1}))
	steps := [][4]float64{{2, -0.5, -1, -0.5}, {0.4, 3, 0.6, 0.3}, {-1.5, 0.2, -0.2, 2}}
	want := []struct{ t1, t2, a, b, alpha float64 }{
		{0.845, -0.9, 0.1, 0.05, 0.19},
		{0.72465, -0.878, 0.117, 0.0585, 0.3403},
		{0.6952355, -0.85566, 0.13199, 0.010995, 0.448041},
	}
	for k, g := range steps {
		grad := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{g[0], g[1]}))
		require.NoError(t, p.Step([]*tensor.Dense{theta}, []*tensor.Dense{grad}, []float64{g[2]}, []float64{g[3]}))
		w := theta.Float64s()
		st := p.State()
		require.InDelta(t, want[k].t1, w[0], tol, "step %d θ₁", k+1)
		require.InDelta(t, want[k].t2, w[1], tol, "step %d θ₂", k+1)
		require.InDelta(t, want[k].a, st.A[0], tol, "step %d a", k+1)
		require.InDelta(t, want[k].b, st.B[0], tol, "step %d b", k+1)
		require.InDelta(t, want[k].alpha, st.Alpha[0], tol, "step %d α", k+1)
	}
	p.decayEpoch()
	require.InDelta(t, (0.845+0.72465+0.6952355)/3, p.ref[0][0], tol)
	require.InDelta(t, (0.1+0.117+0.13199)/3, p.ref[1][0], tol)
	require.InDelta(t, 0.01, p.State().LearningRate, 1e-15)
	st := p.State()
	require.Equal(t, []float64{p.A[0], p.B[0], p.Alpha[0], 0.01}, []float64{st.A[0], st.B[0], st.Alpha[0], st.LearningRate})
	require.Equal(t, []int{3, 0}, []int{st.Steps, st.SinceReset})
}

// TestPESGResume: an optimiser resumed from another's state, through JSON, takes the same
// next steps to the bit, momentum and reference points included.
func TestPESGResume(t *testing.T) {
	set := PESG{Clip: 1, WeightDecay: 0.1, EpochDecay: 0.5, Momentum: 0.5}
	p := NewPESGRun(set, 0.1, 1, []int{2}, 1, 1)
	theta := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{1, -1}))
	grad := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{0.7, -2}))
	for range 2 {
		require.NoError(t, p.Step([]*tensor.Dense{theta}, []*tensor.Dense{grad}, []float64{0.3}, []float64{-0.4}))
	}
	raw, err := json.Marshal(p.State())
	require.NoError(t, err)
	var st PESGState
	require.NoError(t, json.Unmarshal(raw, &st))
	q := NewPESGRun(set, 0.5, 1, []int{2}, 1, 99) // another rate and reference draw, both replaced
	require.NoError(t, q.Resume(st))
	theta2 := tensor.New(tensor.WithShape(2), tensor.WithBacking(slices.Clone(theta.Float64s())))
	for range 2 {
		require.NoError(t, p.Step([]*tensor.Dense{theta}, []*tensor.Dense{grad}, []float64{-0.1}, []float64{0.2}))
		require.NoError(t, q.Step([]*tensor.Dense{theta2}, []*tensor.Dense{grad}, []float64{-0.1}, []float64{0.2}))
	}
	p.decayEpoch()
	q.decayEpoch()
	require.Equal(t, theta.Float64s(), theta2.Float64s())
	require.Equal(t, p.State(), q.State())

	err = NewPESGRun(set, 0.1, 1, []int{3}, 1, 1).Resume(st)
	require.ErrorIs(t, err, rocops.ErrConfig, "another model's state")
	require.ErrorContains(t, err, "optim: invalid setting: PESG: ")
	bad := st
	bad.Alpha = []float64{math.NaN()}
	err = q.Resume(bad)
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.ErrorContains(t, err, "optim: invalid setting: PESG: ")
}

// TestPESGAlphaProjected: α's ascent is clamped at 0 (a far above b drives it down).
func TestPESGAlphaProjected(t *testing.T) {
	p := NewPESGRun(PESG{}, 1, 1, []int{1}, 1, 1)
	p.A[0], p.B[0] = 5, 0
	theta := tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{0}))
	grad := tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{0}))
	require.NoError(t, p.Step([]*tensor.Dense{theta}, []*tensor.Dense{grad}, []float64{0}, []float64{0}))
	require.Zero(t, p.Alpha[0]) // 0 + 1·2(1 + 0 − 5) = −8, projected to 0
}

// TestPESGResumeNonFinite: a state whose reference point, iterate sum or momentum holds NaN or
// ±Inf is refused on Resume, naming the tensor, instead of failing a later step with NaN scores.
func TestPESGResumeNonFinite(t *testing.T) {
	for _, part := range []string{"Ref", "Acc", "Momentum"} {
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			p := NewPESGRun(DefaultPESG(), 0.1, 1, []int{2}, 1, 1)
			st := p.State()
			map[string][][]float64{"Ref": st.Ref, "Acc": st.Acc, "Momentum": st.Momentum}[part][0][1] = bad
			err := NewPESGRun(DefaultPESG(), 0.1, 1, []int{2}, 1, 1).Resume(st)
			require.ErrorIs(t, err, rocops.ErrConfig, "%s %v", part, bad)
			require.ErrorContains(t, err, "the resumed state's "+part+" tensor 0 holds", "%s %v", part, bad)
		}
	}
}
