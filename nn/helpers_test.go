package nn

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dtypes are the two dtypes every numeric test runs with.
var dtypes = []tensor.Dtype{tensor.Float64, tensor.Float32}

// paramValues returns a copy of p's values as float64.
func paramValues(t testing.TB, p Param) []float64 {
	t.Helper()
	v, err := opkit.Floats(p.Value)
	require.NoError(t, err)
	return append([]float64(nil), v...)
}

// randomRows returns rows × cols values drawn uniformly from [−2, 2) by a seeded generator
// (testbatch.Uniform on stream 1).
func randomRows(seed uint64, rows, cols int) []float64 {
	return testbatch.Uniform[float64](seed, 1, rows, cols)
}

// referenceScores is an independent forward pass in plain Go and float64: the parameters come
// in (weight, bias) pairs from the input to the output; every layer but the last is followed
// by act.
func referenceScores(t testing.TB, ps []Param, act Activation, x []float64, rows int) []float64 {
	t.Helper()
	return referenceScoresLoRA(t, ps, act, x, rows, 1)
}

// loraScale returns the scale α/r of m's adapters, 1 for a model without any.
func loraScale(m Model) float64 {
	if m, ok := m.(*MLP); ok {
		for _, l := range m.layers {
			if l.lora != nil {
				return l.lora.scale()
			}
		}
	}
	return 1
}

// referenceScoresLoRA is referenceScores where a pair may be followed by (lora_a, lora_b) for a
// layer with a LoRA adapter of scale s.
func referenceScoresLoRA(t testing.TB, ps []Param, act Activation, x []float64, rows int, s float64) []float64 {
	t.Helper()
	h := x
	cols := len(x) / rows
	for k := 0; k < len(ps); k += 2 {
		w, b := paramValues(t, ps[k]), paramValues(t, ps[k+1])
		out := len(b)
		require.Equal(t, cols*out, len(w), "%s has %d values, want %d×%d", ps[k].Name, len(w), cols, out)
		var a, bb []float64 // the adapter's A (r × cols) and B (out × r)
		var r int
		if k+3 < len(ps) && strings.HasSuffix(ps[k+2].Name, ".lora_a") {
			a, bb = paramValues(t, ps[k+2]), paramValues(t, ps[k+3])
			r = len(a) / cols
			k += 2
		}
		next := make([]float64, rows*out)
		for row := 0; row < rows; row++ {
			for j := 0; j < out; j++ {
				u := b[j]
				for i := 0; i < cols; i++ {
					u += h[row*cols+i] * w[i*out+j]
				}
				for q := 0; q < r; q++ { // s·(h·Aᵀ)_q·B_jq
					c := 0.0
					for i := 0; i < cols; i++ {
						c += h[row*cols+i] * a[q*cols+i]
					}
					u += s * c * bb[j*r+q]
				}
				if k+2 < len(ps) {
					switch act {
					case ReLU:
						u = math.Max(u, 0)
					case Tanh:
						u = math.Tanh(u)
					case Identity:
					default:
						require.Fail(t, fmt.Sprintf("activation %v", act))
					}
				}
				next[row*out+j] = u
			}
		}
		h, cols = next, out
	}
	return h
}

// paramBits returns the bit patterns of m's parameter values, to compare models exactly.
func paramBits(t testing.TB, m Model) [][]uint64 {
	t.Helper()
	var out [][]uint64
	for _, p := range m.Params() {
		v := paramValues(t, p)
		bits := make([]uint64, len(v))
		for i, x := range v {
			bits[i] = math.Float64bits(x)
		}
		out = append(out, bits)
	}
	return out
}

// sameBits reports, through assert, every score and gradient of a run after the parameters
// were moved by off elements whose bits differ from those of the run before (s0, g0), and
// returns whether all were the same.
func sameBits(t testing.TB, off int, s, s0 []float64, g, g0 [][]float64) bool {
	t.Helper()
	if !assert.True(t, len(s) == len(s0) && len(g) == len(g0), "parameters moved by %d: %d scores and %d gradients, before %d and %d", off, len(s), len(g), len(s0), len(g0)) {
		return false
	}
	same := true
	for i := range s0 {
		same = assert.Equal(t, math.Float64bits(s0[i]), math.Float64bits(s[i]), "parameters moved by %d: score %d is %.9g, before %.9g", off, i, s[i], s0[i]) && same
	}
	for j := range g0 {
		if !assert.Len(t, g[j], len(g0[j]), "parameters moved by %d: gradient %d has %d values, before %d", off, j, len(g[j]), len(g0[j])) {
			same = false
			continue
		}
		for i := range g0[j] {
			same = assert.Equal(t, math.Float64bits(g0[j][i]), math.Float64bits(g[j][i]), "parameters moved by %d: gradient %d[%d] is %.9g, before %.9g", off, j, i, g[j][i], g0[j][i]) && same
		}
	}
	return same
}

// assertClose fails unless |got[i] − want[i]| ≤ tol·max(1, |want[i]|) for every i.
func assertClose(t testing.TB, what string, got, want []float64, tol float64) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s: %d values, want %d", what, len(got), len(want))
	for i := range want {
		d := math.Abs(got[i] - want[i])
		require.LessOrEqual(t, d, tol*math.Max(1, math.Abs(want[i])), "%s[%d] = %.17g, want %.17g (difference %.3g, tolerance %.3g)", what, i, got[i], want[i], d, tol)
	}
}

// weightedScoreCost builds m in g on the input x (rows × InputSize) and returns the cost
// c = Σᵢ wᵢ·sᵢ of its scores s, with the learnables and the scores node (whose value is the
// graph's forward pass once the graph has run), so that ∂c/∂θ exercises every score.
func weightedScoreCost(t testing.TB, g *gorgonia.ExprGraph, m Model, x []float64, rows int, w []float64) (cost *gorgonia.Node, learnables gorgonia.Nodes, scores *gorgonia.Node) {
	t.Helper()
	dt := m.Dtype()
	xv, err := newMatrix(dt, rows, m.InputSize(), x)
	if err != nil {
		t.Fatal(err)
	}
	wv, err := opkit.NewVector(dt, append([]float64(nil), w...))
	if err != nil {
		t.Fatal(err)
	}
	xn := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, m.InputSize()), gorgonia.WithValue(xv), gorgonia.WithName("x"))
	wn := gorgonia.NewVector(g, dt, gorgonia.WithShape(rows), gorgonia.WithValue(wv), gorgonia.WithName("w"))
	scores, learnables, err = m.Build(g, xn)
	if err != nil {
		t.Fatal(err)
	}
	prod, err := gorgonia.HadamardProd(scores, wn)
	if err != nil {
		t.Fatal(err)
	}
	if cost, err = gorgonia.Sum(prod); err != nil {
		t.Fatal(err)
	}
	return cost, learnables, scores
}

// newMatrix returns a copy of xs, rows × cols row-major, as a matrix of dtype dt.
func newMatrix(dt tensor.Dtype, rows, cols int, xs []float64) (*tensor.Dense, error) {
	var backing any
	switch dt {
	case tensor.Float64:
		backing = floats.From64[float64](xs)
	case tensor.Float32:
		backing = floats.From64[float32](xs)
	default:
		return nil, fmt.Errorf("%w: unsupported dtype %v", ErrInput, dt)
	}
	return tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(backing)), nil
}

// gorgoniaModel is m with the graph Build made before the network's layers were ops of this
// package: Gorgonia's own x·W (Mul), + b (BroadcastAdd), a LoRA adapter's term, Rectify or
// Tanh, and a Reshape of a one-column output to (B). It is an independent reference for Build's graph and for a Pass.
type gorgoniaModel struct{ *MLP }

func (m gorgoniaModel) Build(g *gorgonia.ExprGraph, x *gorgonia.Node) (scores *gorgonia.Node, learnables gorgonia.Nodes, err error) {
	n := &m.network
	for _, p := range n.Params() {
		learnables = append(learnables, gorgonia.NewTensor(g, n.dtype, p.Value.Dims(),
			gorgonia.WithShape(p.Value.Shape()...), gorgonia.WithName(p.Name), gorgonia.WithValue(p.Value)))
	}
	h, i := x, 0 // i: the layer's first learnable
	for _, l := range n.layers {
		hw, err := gorgonia.Mul(h, learnables[i])
		if err != nil {
			return nil, nil, err
		}
		z, err := gorgonia.BroadcastAdd(hw, learnables[i+1], nil, []byte{0})
		if err == nil && l.lora != nil {
			z, err = l.lora.build(z, h, learnables[i+2], learnables[i+3])
			i += 2
		}
		i += 2
		if err != nil {
			return nil, nil, err
		}
		h = z
		switch l.act {
		case ReLU:
			h, err = gorgonia.Rectify(h)
		case Tanh:
			h, err = gorgonia.Tanh(h)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if n.Outputs() > 1 {
		return h, learnables, nil
	}
	scores, err = gorgonia.Reshape(h, tensor.Shape{x.Shape()[0]})
	return scores, learnables, err
}

// runGraph differentiates cost with respect to learnables, runs it once on a TapeMachine, and
// returns the values of scores and of the learnables' gradients as float64.
func runGraph(t testing.TB, g *gorgonia.ExprGraph, cost *gorgonia.Node, learnables gorgonia.Nodes, scores *gorgonia.Node) ([]float64, [][]float64) {
	t.Helper()
	if _, err := gorgonia.Grad(cost, learnables...); err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learnables...))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	s, err := opkit.Floats(scores.Value())
	if err != nil {
		t.Fatal(err)
	}
	s = append([]float64(nil), s...)
	var grads [][]float64
	for _, l := range learnables {
		gv, err := l.Grad()
		if err != nil {
			t.Fatal(err)
		}
		v, err := opkit.Floats(gv)
		if err != nil {
			t.Fatal(err)
		}
		grads = append(grads, append([]float64(nil), v...))
	}
	return s, grads
}

// sameGraph reports, with t.Errorf, every score and gradient of a graph (s, g) whose bits
// differ from those of another (ws, wg).
func sameGraph(t testing.TB, s, ws []float64, g, wg [][]float64) {
	t.Helper()
	if len(s) != len(ws) || len(g) != len(wg) {
		t.Fatalf("%d scores and %d gradients, want %d and %d", len(s), len(g), len(ws), len(wg))
	}
	for i := range ws {
		if math.Float64bits(s[i]) != math.Float64bits(ws[i]) {
			t.Errorf("score %d is %.17g, want %.17g", i, s[i], ws[i])
		}
	}
	for j := range wg {
		if len(g[j]) != len(wg[j]) {
			t.Fatalf("gradient %d has %d values, want %d", j, len(g[j]), len(wg[j]))
		}
		for i := range wg[j] {
			if math.Float64bits(g[j][i]) != math.Float64bits(wg[j][i]) {
				t.Errorf("gradient %d[%d] is %.17g, want %.17g", j, i, g[j][i], wg[j][i])
			}
		}
	}
}
