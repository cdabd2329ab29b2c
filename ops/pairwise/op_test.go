package pairwise

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/internal/testbatch"
)

// opScores puts the positives at 1/8 modulo 1/4 and the negatives at multiples of 1/4, so
// every pair margin x = f_pos − f_neg is at least 1/8 away from the kinks of margins 1 and
// 0.5: the hinge types are smooth within the finite-difference stencil (checked in the test).
var (
	opScores = []float64{1.625, 0.25, 0.375, -1.25, -0.625, 1, 2.875, 2.5, -0.25, 0.75}
	opLabels = []float64{1, 0, 1, 0, 1, 0, 1, 0, 0, 0}
)

const kinkGap = 0.1 // ≥ 2h of float32 gradcheck (h = 1e-2·max(1, |f|) ≤ 0.03 here)

func newGraph(t *testing.T, dt tensor.Dtype, f, y []float64) (g *gorgonia.ExprGraph, scores, labels *gorgonia.Node) {
	t.Helper()
	g = gorgonia.NewGraph()
	scores, err := graph.Input(g, dt, "scores", f)
	require.NoError(t, err)
	labels, err = graph.Input(g, dt, "labels", y)
	require.NoError(t, err)
	return g, scores, labels
}

// TestLossGradcheck compares the op's TapeMachine and LispMachine gradients with finite
// differences, for every surrogate, both dtypes, exact and sampled pairs.
func TestLossGradcheck(t *testing.T) {
	for _, m := range []float64{1, 0.5} {
		for i, yi := range opLabels {
			for j, yj := range opLabels {
				if yi == 1 && yj == 0 {
					require.Greater(t, math.Abs(opScores[i]-opScores[j]-m), kinkGap, "pair (%d, %d) near the kink", i, j)
				}
			}
		}
	}
	for _, s := range Surrogates() {
		for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
			for _, cfg := range []Config{{Surrogate: s}, {Surrogate: s, Margin: 0.5, Pairs: 17, Seed: 3}} {
				t.Run(fmt.Sprintf("%v/%v/pairs=%d", s, dt, cfg.Pairs), func(t *testing.T) {
					_, scores, labels := newGraph(t, dt, opScores, opLabels)
					cost, err := Loss(scores, labels, cfg)
					require.NoError(t, err)
					r := gradcheck.Assert(t, cost, gorgonia.Nodes{scores}, gradcheck.Config{Lisp: gradcheck.LispRequire})
					require.Equal(t, []gradcheck.Machine{gradcheck.Tape, gradcheck.Lisp}, r.Machines)
				})
			}
		}
	}
}

// TestLossMatchesGradient: the node's value and its gradient by both machines equal Evaluate
// and Gradient on the same (dtype-rounded) scores.
func TestLossMatchesGradient(t *testing.T) {
	tol := map[tensor.Dtype]float64{
		tensor.Float64: 1e-15, // the same float64 computation; only the upstream 1·g
		tensor.Float32: 1e-6,  // the results rounded to float32 (ε ≈ 6e-8) once
	}
	f, y := testbatch.Shifted(12, 7, 40, 0.3, 0.5)
	for _, s := range Surrogates() {
		for dt, tl := range tol {
			for _, machine := range []string{"tape", "lisp"} {
				t.Run(fmt.Sprintf("%v/%v/%s", s, dt, machine), func(t *testing.T) {
					g, scores, labels := newGraph(t, dt, f, y)
					cfg := Config{Surrogate: s}
					cost, err := Loss(scores, labels, cfg)
					require.NoError(t, err)
					var vm gorgonia.VM
					if machine == "tape" {
						_, err = gorgonia.Grad(cost, scores)
						require.NoError(t, err)
						vm = gorgonia.NewTapeMachine(g)
					} else {
						vm = gorgonia.NewLispMachine(g)
					}
					defer vm.Close()
					require.NoError(t, vm.RunAll())

					rounded, err := opkit.Floats(scores.Value())
					require.NoError(t, err)
					want, wantLoss, err := Gradient(rounded, y, cfg)
					require.NoError(t, err)
					loss, err := opkit.Scalar(cost.Value())
					require.NoError(t, err)
					require.InDelta(t, wantLoss, loss, tl*math.Abs(wantLoss))
					gv, err := scores.Grad()
					require.NoError(t, err)
					got, err := opkit.Floats(gv)
					require.NoError(t, err)
					for k := range want {
						require.InDelta(t, want[k], got[k], tl*math.Max(math.Abs(want[k]), 1e-3), "gradient[%d]", k)
					}
				})
			}
		}
	}
}

// TestLossNodesDoNotMerge: Gorgonia merges nodes whose ops hash alike, so two losses of the
// same inputs that differ in any setting must keep their own values.
func TestLossNodesDoNotMerge(t *testing.T) {
	g, scores, labels := newGraph(t, tensor.Float64, opScores, opLabels)
	cfgs := []Config{
		{Surrogate: Hinge}, {Surrogate: Hinge, Margin: 2}, {Surrogate: SquaredHinge},
		{Surrogate: Hinge, Pairs: 5}, {Surrogate: Hinge, Pairs: 5, Seed: 1},
	}
	nodes := make([]*gorgonia.Node, len(cfgs))
	for k, cfg := range cfgs {
		var err error
		nodes[k], err = Loss(scores, labels, cfg)
		require.NoError(t, err)
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	require.NoError(t, vm.RunAll())
	for k, cfg := range cfgs {
		want, err := Evaluate(opScores, opLabels, cfg)
		require.NoError(t, err)
		got, err := opkit.Scalar(nodes[k].Value())
		require.NoError(t, err)
		require.Equal(t, want, got, "%+v", cfg)
	}
}

func TestLossErrors(t *testing.T) {
	g, scores, labels := newGraph(t, tensor.Float64, []float64{1, 2, 3}, []float64{1, 0, 2})
	for cfg, says := range map[Config]string{{Margin: -2}: "Margin = -2", {Surrogate: 7}: "Surrogate = 7", {Pairs: -3}: "Pairs = -3"} {
		_, err := Loss(scores, labels, cfg)
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.ErrorContains(t, err, "pairwise: invalid setting: "+says)
	}
	_, err := Loss(nil, labels, Config{})
	require.ErrorContains(t, err, "pairwise: ")

	// The label 2 is seen when the graph runs.
	cost, err := Loss(scores, labels, Config{})
	require.NoError(t, err)
	_, err = gorgonia.Grad(cost, scores)
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	err = vm.RunAll()
	require.ErrorContains(t, err, "pairwise: label is not 0 or 1")
}
