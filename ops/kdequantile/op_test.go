package kdequantile

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/internal/race"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// machines are the two ways Gorgonia differentiates a graph.
var machines = []string{"tape", "lisp"}

// graphOf is a cost built from a score vector f and a label vector y.
type graphOf func(f, y *gorgonia.Node) (*gorgonia.Node, error)

// runGraph builds cost(f, y) in dtype dt with the given values, differentiates it with the
// machine ("tape": gorgonia.Grad and a TapeMachine; "lisp": a LispMachine) and returns the cost
// and ∂cost/∂f in float64. Errors from building are fatal; the machine's are returned.
func runGraph(t testing.TB, dt tensor.Dtype, machine string, scores, labels []float64, cost graphOf) (float64, []float64, error) {
	t.Helper()
	g := gorgonia.NewGraph()
	input := func(name string, xs []float64) *gorgonia.Node {
		v, err := opkit.NewVector(dt, slices.Clone(xs))
		require.NoError(t, err)
		return gorgonia.NewVector(g, dt, gorgonia.WithName(name), gorgonia.WithShape(len(xs)), gorgonia.WithValue(v))
	}
	f, y := input("f", scores), input("y", labels)
	c, err := cost(f, y)
	require.NoError(t, err)
	var vm gorgonia.VM
	if machine == "tape" {
		_, err := gorgonia.Grad(c, f)
		require.NoError(t, err)
		vm = gorgonia.NewTapeMachine(g)
	} else {
		vm = gorgonia.NewLispMachine(g)
	}
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		return 0, nil, err
	}
	value, err := opkit.Scalar(c.Value())
	require.NoError(t, err)
	gv, err := f.Grad()
	require.NoError(t, err)
	grad, err := opkit.Floats(gv)
	require.NoError(t, err)
	return value, slices.Clone(grad), nil
}

func lossOf(cfg Config) graphOf {
	return func(f, y *gorgonia.Node) (*gorgonia.Node, error) { return Loss(f, y, cfg) }
}

func thresholdOf(cfg Config) graphOf {
	return func(f, y *gorgonia.Node) (*gorgonia.Node, error) { return Threshold(f, y, cfg) }
}

// roundTo32 returns xs rounded to float32, as a float32 graph holds them.
func roundTo32(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(float32(x))
	}
	return out
}

// TestOpsMatchSlices checks both ops on both machines and dtypes against Evaluate and
// Gradient on the scores the graph holds.
func TestOpsMatchSlices(t *testing.T) {
	const (
		tol64 = 1e-12 // the backward pass re-solves τ from the forward τ: equal to rounding
		tol32 = 1e-6  // float32 rounding of the op's float64 result
	)
	scores, labels := testbatch.Shifted(11, 7, 200, 0.2, 1)
	for _, cfg := range []Config{{Alpha: 0.1}, {Alpha: 0.3, V0: 4, V1: 2}} {
		for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
			f, tol := scores, tol64
			if dt == tensor.Float32 {
				f, tol = roundTo32(scores), tol32
			}
			want, r := mustGradient(t, f, labels, cfg)
			wantDTau, _, err := thresholdGradient(f, labels, cfg)
			require.NoError(t, err)
			for _, m := range machines {
				t.Run(fmt.Sprintf("%+v/%v/%s", cfg, dt, m), func(t *testing.T) {
					l, g, err := runGraph(t, dt, m, f, labels, lossOf(cfg))
					require.NoError(t, err)
					require.LessOrEqual(t, relErr(l, r.Loss, 0), tol, "Loss: %v, %v; want %v, %v", l, g, r.Loss, want)
					require.LessOrEqual(t, relDiff(g, want), tol, "Loss: %v, %v; want %v, %v", l, g, r.Loss, want)
					tau, w, err := runGraph(t, dt, m, f, labels, thresholdOf(cfg))
					require.NoError(t, err)
					require.LessOrEqual(t, relErr(tau, r.Tau, 1), tol, "Threshold: %v, %v; want %v, %v", tau, w, r.Tau, wantDTau)
					require.LessOrEqual(t, relDiff(w, wantDTau), tol, "Threshold: %v, %v; want %v, %v", tau, w, r.Tau, wantDTau)
				})
			}
		}
	}
}

// TestFloat32MatchesFloat64 checks that a float32 graph gives the float64 graph's loss and
// gradient to 1e-4 relative.
func TestFloat32MatchesFloat64(t *testing.T) {
	const tol = 1e-4 // float32 scores and results; the reductions are float64 in both
	for i, cfg := range []Config{{Alpha: 0.05}, {Alpha: 0.2, V0: 3, V1: 3}} {
		scores, labels := testbatch.Shifted(uint64(20+i), 7, 500, 0.1, 1.5)
		for _, m := range machines {
			l64, g64, err := runGraph(t, tensor.Float64, m, scores, labels, lossOf(cfg))
			require.NoError(t, err)
			l32, g32, err := runGraph(t, tensor.Float32, m, scores, labels, lossOf(cfg))
			require.NoError(t, err)
			d := relErr(l32, l64, 0)
			require.LessOrEqual(t, d, tol, "%+v/%s: float32 L = %v, float64 %v (%.2g)", cfg, m, l32, l64, d)
			d = relDiff(g32, g64)
			require.LessOrEqual(t, d, tol, "%+v/%s: float32 gradient differs by %.2g", cfg, m, d)
		}
	}
}

// TestThresholdComposes checks that Threshold followed by F̂_1 written with standard Gorgonia
// ops gives the fused Loss's value and gradient: the gradient through τ is Threshold's.
func TestThresholdComposes(t *testing.T) {
	const tol = 1e-12 // same arithmetic up to rounding
	cfg := Config{Alpha: 0.1, V0: 2.5, V1: 1.5}
	scores, labels := testbatch.Shifted(31, 7, 120, 0.25, 1)
	n1 := 0.0
	for _, y := range labels {
		n1 += y
	}
	// F̂_1(τ) = Σ_i y_i·σ(v1·(τ − f_i)) / |B1|.
	composed := func(f, y *gorgonia.Node) (*gorgonia.Node, error) {
		tau, err := Threshold(f, y, cfg)
		if err != nil {
			return nil, err
		}
		u, err := gorgonia.Sub(tau, f)
		if err != nil {
			return nil, err
		}
		if u, err = gorgonia.Mul(gorgonia.NewConstant(cfg.V1), u); err != nil {
			return nil, err
		}
		if u, err = gorgonia.Sigmoid(u); err != nil {
			return nil, err
		}
		if u, err = gorgonia.HadamardProd(u, y); err != nil {
			return nil, err
		}
		if u, err = gorgonia.Sum(u); err != nil {
			return nil, err
		}
		return gorgonia.Div(u, gorgonia.NewConstant(n1))
	}
	for _, m := range machines {
		want, wantGrad, err := runGraph(t, tensor.Float64, m, scores, labels, lossOf(cfg))
		require.NoError(t, err)
		got, grad, err := runGraph(t, tensor.Float64, m, scores, labels, composed)
		require.NoError(t, err)
		require.LessOrEqual(t, relErr(got, want, 0), tol, "%s: composed L = %v, fused %v; gradients differ by %.2g", m, got, want, relDiff(grad, wantGrad))
		require.LessOrEqual(t, relDiff(grad, wantGrad), tol, "%s: composed L = %v, fused %v; gradients differ by %.2g", m, got, want, relDiff(grad, wantGrad))
	}
}

// TestOpsAreDistinctByConfig checks that two losses with different parameters on the same
// inputs are not merged by the graph (the op hash includes every parameter).
func TestOpsAreDistinctByConfig(t *testing.T) {
	scores, labels := testbatch.Shifted(41, 7, 50, 0.3, 1)
	a, b := Config{Alpha: 0.1, V0: 2, V1: 2}, Config{Alpha: 0.1, V0: 2, V1: 3}
	sum := func(f, y *gorgonia.Node) (*gorgonia.Node, error) {
		la, err := Loss(f, y, a)
		if err != nil {
			return nil, err
		}
		lb, err := Loss(f, y, b)
		if err != nil {
			return nil, err
		}
		return gorgonia.Add(la, lb)
	}
	got, _, err := runGraph(t, tensor.Float64, "tape", scores, labels, sum)
	require.NoError(t, err)
	want := mustEvaluate(t, scores, labels, a).Loss + mustEvaluate(t, scores, labels, b).Loss
	require.LessOrEqual(t, relErr(got, want, 0), 1e-15, "L_a + L_b = %v, want %v", got, want)
}

// opError returns the error an op returned inside a Gorgonia machine error.
func opError(err error) error { return graph.Cause(err) }

// TestOpErrors checks that invalid configurations fail when the graph is built and invalid
// batches when it runs, on both machines, with the package's errors.
func TestOpErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want error
	}{
		{Config{}, rocops.ErrConfig},
		{Config{Alpha: 0.1, Recall: 0.9}, rocops.ErrConfig},
		{Config{Alpha: 1}, rocops.ErrConfig},
		{Config{Recall: 1.5}, rocops.ErrConfig},
		{Config{Alpha: 0.1, V0: -1}, rocops.ErrConfig},
		{Config{Recall: 0.9, V1: math.NaN()}, rocops.ErrConfig},
	} {
		g := gorgonia.NewGraph()
		f := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("f"), gorgonia.WithShape(3))
		_, err := Loss(f, f, c.cfg)
		require.ErrorIs(t, err, c.want, "Loss(%+v): %v, want %v", c.cfg, err, c.want)
		_, err = Threshold(f, f, c.cfg)
		require.ErrorIs(t, err, c.want, "Threshold(%+v): %v, want %v", c.cfg, err, c.want)
	}
	g := gorgonia.NewGraph()
	three := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("three"), gorgonia.WithShape(3))
	two := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("two"), gorgonia.WithShape(2))
	_, err := Loss(three, two, Config{Alpha: 0.1})
	require.ErrorIs(t, err, rocops.ErrLength, "Loss on 3 scores and 2 labels: %v", err)
	cases := []struct {
		name           string
		scores, labels []float64
		want           error
	}{
		{"NaN score", []float64{0, math.NaN(), 1}, []float64{0, 0, 1}, rocops.ErrNonFinite},
		{"infinite score", []float64{0, math.Inf(1), 1}, []float64{0, 0, 1}, rocops.ErrNonFinite},
		{"no positives", []float64{0, 1, 2}, []float64{0, 0, 0}, rocops.ErrNoPositives},
		{"no negatives", []float64{0, 1, 2}, []float64{1, 1, 1}, rocops.ErrNoNegatives},
		{"label 2", []float64{0, 1, 2}, []float64{0, 2, 1}, rocops.ErrLabel},
	}
	for _, c := range cases {
		for _, m := range machines {
			for name, op := range map[string]graphOf{"Loss": lossOf(Config{Alpha: 0.1}), "Threshold": thresholdOf(Config{Alpha: 0.1})} {
				t.Run(c.name+"/"+m+"/"+name, func(t *testing.T) {
					if m == "lisp" && race.Enabled {
						t.Skip("a failing LispMachine run races inside Gorgonia (package internal/race)")
					}
					_, _, err := runGraph(t, tensor.Float64, m, c.scores, c.labels, op)
					require.ErrorIs(t, opError(err), c.want, "RunAll: %v, want %v", err, c.want)
				})
			}
		}
	}
}
