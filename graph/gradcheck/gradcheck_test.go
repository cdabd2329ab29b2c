package gradcheck

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/logistic"
	"github.com/rocops/rocops/internal/opkit"
)

// problem is a graph with its gradients derived by hand.
type problem struct {
	cost     *gorgonia.Node
	wrt      gorgonia.Nodes
	wantCost float64
	wantGrad [][]float64 // one per wrt node, row-major
}

// values returns the node's value as float64 (for float32 graphs: the rounded values the graph
// really holds, from which the expected results are computed).
func values(t testing.TB, n *gorgonia.Node) []float64 {
	t.Helper()
	xs, err := floatsOf(n.Value())
	require.NoError(t, err)
	return xs
}

// gradOf returns the gradient Gorgonia holds for n (its dual value's, or its gradient node's).
func gradOf(t testing.TB, n *gorgonia.Node) []float64 {
	t.Helper()
	v, err := n.Grad()
	require.NoError(t, err)
	xs, err := floatsOf(v)
	require.NoError(t, err)
	return xs
}

func constant(t testing.TB, dt tensor.Dtype, x float64) *gorgonia.Node {
	t.Helper()
	v, err := opkit.NewScalar(dt, x)
	require.NoError(t, err)
	return gorgonia.NewConstant(v)
}

// sumOfSquares: c = Σ x_i², ∂c/∂x_i = 2x_i.
func sumOfSquares(t testing.TB, dt tensor.Dtype, rng *rand.Rand) problem {
	g := gorgonia.NewGraph()
	x := input(t, g, dt, "x", uniform(rng, 5, -2, 2))
	cost := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Square(x))))
	xs := values(t, x)
	p := problem{cost: cost, wrt: gorgonia.Nodes{x}, wantGrad: [][]float64{make([]float64, len(xs))}}
	for i, v := range xs {
		p.wantCost += v * v
		p.wantGrad[0][i] = 2 * v
	}
	return p
}

// logisticGraph builds z = X·w + b for an n×d design X and returns the pieces.
func logisticGraph(t testing.TB, dt tensor.Dtype, rng *rand.Rand, n, d int) (g *gorgonia.ExprGraph, X, w, b, y, z *gorgonia.Node) {
	g = gorgonia.NewGraph()
	X = input(t, g, dt, "X", uniform(rng, n*d, -1.5, 1.5), n, d)
	w = input(t, g, dt, "w", uniform(rng, d, -1, 1))
	b = input(t, g, dt, "b", []float64{0.3}, []int{}...)
	y = input(t, g, dt, "y", labels(rng, n))
	z = gorgonia.Must(gorgonia.Add(gorgonia.Must(gorgonia.Mul(X, w)), b))
	return g, X, w, b, y, z
}

// ceGradients returns, for z = X·w + b and the mean cross-entropy on logits (Bishop, Pattern
// Recognition and Machine Learning, §4.3.2: ∂L/∂z_i = (σ(z_i) − y_i)/n), the cost L, ∂L/∂w =
// Xᵀ(σ(z) − y)/n and ∂L/∂b = Σ_i (σ(z_i) − y_i)/n.
func ceGradients(t testing.TB, X, w, b, y *gorgonia.Node) (cost float64, dw, db []float64) {
	xs, ws, bs, ys := values(t, X), values(t, w), values(t, b), values(t, y)
	n, d := len(ys), len(ws)
	dw, db = make([]float64, d), make([]float64, 1)
	for i := 0; i < n; i++ {
		z := bs[0]
		for j := 0; j < d; j++ {
			z += xs[i*d+j] * ws[j]
		}
		cost += (logistic.Softplus(z) - ys[i]*z) / float64(n)
		r := (logistic.Sigmoid(z) - ys[i]) / float64(n)
		for j := 0; j < d; j++ {
			dw[j] += xs[i*d+j] * r
		}
		db[0] += r
	}
	return cost, dw, db
}

// logisticRegression: the mean cross-entropy written with standard Gorgonia ops,
// L = mean(softplus(z) − y⊙z), built from gorgonia.Softplus.
func logisticRegression(t testing.TB, dt tensor.Dtype, rng *rand.Rand) problem {
	_, X, w, b, y, z := logisticGraph(t, dt, rng, 12, 3)
	cost := gorgonia.Must(gorgonia.Mean(gorgonia.Must(gorgonia.Sub(gorgonia.Must(gorgonia.Softplus(z)), gorgonia.Must(gorgonia.HadamardProd(y, z))))))
	c, dw, db := ceGradients(t, X, w, b, y)
	return problem{cost: cost, wrt: gorgonia.Nodes{w, b}, wantCost: c, wantGrad: [][]float64{dw, db}}
}

// customOpWithDecay: the same loss as an opkit op plus weight decay in standard ops,
// c = L + λ·Σ w_j², ∂c/∂w = Xᵀ(σ(z) − y)/n + 2λw.
func customOpWithDecay(t testing.TB, dt tensor.Dtype, rng *rand.Rand) problem {
	const lambda = 0.25
	_, X, w, b, y, z := logisticGraph(t, dt, rng, 12, 3)
	loss, err := opkit.Apply(meanCE{Scale: 1}, z, y)
	require.NoError(t, err)
	decay := gorgonia.Must(gorgonia.Mul(constant(t, dt, lambda), gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Square(w))))))
	cost := gorgonia.Must(gorgonia.Add(loss, decay))
	c, dw, db := ceGradients(t, X, w, b, y)
	for j, v := range values(t, w) {
		c += lambda * v * v
		dw[j] += 2 * lambda * v
	}
	return problem{cost: cost, wrt: gorgonia.Nodes{w, b}, wantCost: c, wantGrad: [][]float64{dw, db}}
}

// hiddenLayer: a learnable matrix W, c = mean_{ik} σ((XW)_ik),
// ∂c/∂W_jk = Σ_i X_ij·σ′((XW)_ik) / (n·h) with σ′ = σ(1 − σ).
func hiddenLayer(t testing.TB, dt tensor.Dtype, rng *rand.Rand) problem {
	const n, d, h = 6, 3, 4
	g := gorgonia.NewGraph()
	X := input(t, g, dt, "X", uniform(rng, n*d, -1, 1), n, d)
	W := input(t, g, dt, "W", uniform(rng, d*h, -1, 1), d, h)
	cost := gorgonia.Must(gorgonia.Mean(gorgonia.Must(gorgonia.Sigmoid(gorgonia.Must(gorgonia.Mul(X, W))))))
	xs, ws := values(t, X), values(t, W)
	p := problem{cost: cost, wrt: gorgonia.Nodes{W}, wantGrad: [][]float64{make([]float64, d*h)}}
	for i := 0; i < n; i++ {
		for k := 0; k < h; k++ {
			z := 0.0
			for j := 0; j < d; j++ {
				z += xs[i*d+j] * ws[j*h+k]
			}
			s := logistic.Sigmoid(z)
			p.wantCost += s / (n * h)
			for j := 0; j < d; j++ {
				p.wantGrad[0][j*h+k] += xs[i*d+j] * s * (1 - s) / (n * h)
			}
		}
	}
	return p
}

var problems = []struct {
	name  string
	build func(testing.TB, tensor.Dtype, *rand.Rand) problem
}{
	{"sum-of-squares", sumOfSquares},
	{"logistic-regression", logisticRegression},
	{"custom-op-with-decay", customOpWithDecay},
	{"hidden-layer", hiddenLayer},
}

// Tolerances against the hand-derived gradients.
const (
	// Gorgonia's float64 ops differ from the test's loops only in summation order.
	tolMachine64 = 1e-12
	// The five-point stencil at h = 1e-3: truncation h⁴f⁽⁵⁾/30 ≈ 1e-13 and rounding
	// 1.5ε|c|/h ≈ 1e-13, relative to gradients of order 0.1.
	tolNumeric64 = 1e-9
	// float32 ops round each result to 6e-8; a few ops in a row stay below 1e-6.
	tolMachine32 = 1e-5
	// Rounding of the float32 forward pass, 1.5·ε32·|c|/h ≈ 1e-5·|c|, on gradients of order
	// 0.05: a few 1e-4. Well inside defaultTol32.
	tolNumeric32 = 5e-4
)

func TestKnownGradients(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		tolMachine, tolNumeric, step, tol := tolMachine64, tolNumeric64, defaultStep64, defaultTol64
		if dt == tensor.Float32 {
			tolMachine, tolNumeric, step, tol = tolMachine32, tolNumeric32, defaultStep32, defaultTol32
		}
		for _, pr := range problems {
			t.Run(dt.String()+"/"+pr.name, func(t *testing.T) {
				p := pr.build(t, dt, rand.New(rand.NewPCG(4, 2)))
				rec := &recorder{TB: t}
				r := Assert(rec, p.cost, p.wrt, Config{})
				require.Empty(t, rec.fatals)
				require.Empty(t, rec.errors)
				require.Equal(t, dt, r.Dtype)
				require.Equal(t, step, r.Step)
				require.Equal(t, tol, r.Tol)
				require.Equal(t, []Machine{Tape, Lisp}, r.Machines)
				require.Empty(t, r.LispSkipped)
				require.InEpsilon(t, p.wantCost, r.Cost, tolMachine)
				require.Len(t, r.Nodes, len(p.wrt))
				for k, n := range r.Nodes {
					require.Equal(t, p.wrt[k].Name(), n.Name)
					require.True(t, p.wrt[k].Shape().Eq(n.Shape))
					require.LessOrEqual(t, normRelErr(t, n.Tape.Grad, p.wantGrad[k]), tolMachine, "tape")
					require.LessOrEqual(t, normRelErr(t, n.Lisp.Grad, p.wantGrad[k]), tolMachine, "lisp")
					require.LessOrEqual(t, normRelErr(t, n.Numeric, p.wantGrad[k]), tolNumeric, "numeric")
					// The reported errors follow the documented definitions.
					for _, c := range []Comparison{n.Tape, n.Lisp} {
						require.InDelta(t, normRelErr(t, c.Grad, n.Numeric), c.MaxRel, 1e-15)
						require.Equal(t, math.Abs(c.Grad[c.Worst]-n.Numeric[c.Worst]), c.MaxAbs)
					}
				}
				require.LessOrEqual(t, r.MaxRel(), tolNumeric)
			})
		}
	}
}

func TestWrongGradientDetected(t *testing.T) {
	// With a = c·g and n ≈ g, MaxAbs = |c−1|·‖g‖∞ and MaxRel = |c−1| / max(1, |c|).
	cases := []struct {
		dt    tensor.Dtype
		scale float64
		tol   float64 // on MaxRel: the numeric gradient's own error
	}{
		{tensor.Float64, 2, tolNumeric64},
		{tensor.Float64, -1, tolNumeric64},
		{tensor.Float64, 1.001, tolNumeric64},
		{tensor.Float32, 2, tolNumeric32},
		{tensor.Float32, -1, tolNumeric32},
		{tensor.Float32, 1.01, tolNumeric32},
	}
	for _, c := range cases {
		t.Run(c.dt.String()+"/"+strings.ReplaceAll(meanCE{c.scale}.String(), " ", ""), func(t *testing.T) {
			_, _, w, _, y, z := logisticGraph(t, c.dt, rand.New(rand.NewPCG(7, 1)), 10, 4)
			cost, err := opkit.Apply(meanCE{Scale: c.scale}, z, y)
			require.NoError(t, err)
			r, err := Check(cost, gorgonia.Nodes{w}, Config{})
			require.NoError(t, err)
			want := math.Abs(c.scale-1) / math.Max(1, math.Abs(c.scale))
			require.Equal(t, []Machine{Tape, Lisp}, r.Machines)
			require.InDelta(t, want, r.Nodes[0].Tape.MaxRel, c.tol)
			require.InDelta(t, want, r.Nodes[0].Lisp.MaxRel, c.tol)
			require.Greater(t, r.MaxRel(), r.Tol)

			rec := &recorder{TB: t}
			require.NotNil(t, Assert(rec, cost, gorgonia.Nodes{w}, Config{}))
			require.Empty(t, rec.fatals)
			require.Len(t, rec.errors, 1)
			msg := rec.errors[0]
			require.Contains(t, msg, "exceeds tolerance")
			require.Contains(t, msg, "worst elements:")
			// Both machines' rows for w in the report, then their worst elements (all 4 of them).
			require.Equal(t, 2+2*min(worstShown, 4), strings.Count(msg, "\nw "), msg)
		})
	}
}

func TestLispSelection(t *testing.T) {
	// c = Σ x_i² + max(x): gorgonia.Max has SymDiff but no DoDiff. ∂c/∂x = 2x + e_argmax.
	xs := []float64{0.5, -1.25, 2, 0.75}
	build := func(t *testing.T) (cost, x *gorgonia.Node, want []float64) {
		g := gorgonia.NewGraph()
		x = input(t, g, tensor.Float64, "x", xs)
		cost = gorgonia.Must(gorgonia.Add(gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Square(x)))), gorgonia.Must(gorgonia.Max(x))))
		want = []float64{1, -2.5, 5, 1.5}
		return cost, x, want
	}

	t.Run("auto skips", func(t *testing.T) {
		cost, x, want := build(t)
		r, err := Check(cost, gorgonia.Nodes{x}, Config{})
		require.NoError(t, err)
		require.Equal(t, []Machine{Tape}, r.Machines)
		require.Contains(t, r.LispSkipped, "no DoDiff")
		require.Contains(t, r.LispSkipped, "MaxAlong")
		require.Nil(t, r.Nodes[0].Lisp.Grad)
		require.LessOrEqual(t, normRelErr(t, r.Nodes[0].Tape.Grad, want), tolMachine64)
		require.LessOrEqual(t, r.MaxRel(), tolNumeric64)
		require.Contains(t, r.String(), "lisp skipped: no DoDiff")
	})
	t.Run("require fails", func(t *testing.T) {
		cost, x, _ := build(t)
		_, err := Check(cost, gorgonia.Nodes{x}, Config{Lisp: LispRequire})
		require.ErrorIs(t, err, ErrLispUnsupported)
		require.Contains(t, err.Error(), "MaxAlong")
	})
	t.Run("off", func(t *testing.T) {
		p := sumOfSquares(t, tensor.Float64, rand.New(rand.NewPCG(1, 1)))
		r, err := Check(p.cost, p.wrt, Config{Lisp: LispOff})
		require.NoError(t, err)
		require.Equal(t, []Machine{Tape}, r.Machines)
		require.Equal(t, "turned off by Config.Lisp", r.LispSkipped)
	})
	t.Run("require runs", func(t *testing.T) {
		p := sumOfSquares(t, tensor.Float64, rand.New(rand.NewPCG(1, 1)))
		r, err := Check(p.cost, p.wrt, Config{Lisp: LispRequire})
		require.NoError(t, err)
		require.Equal(t, []Machine{Tape, Lisp}, r.Machines)
		require.LessOrEqual(t, normRelErr(t, r.Nodes[0].Lisp.Grad, p.wantGrad[0]), tolMachine64)
	})
	t.Run("op off the path", func(t *testing.T) {
		// max(u) does not depend on x, so the LispMachine can still differentiate with
		// respect to x: c = Σ x_i² + max(u), ∂c/∂x = 2x.
		g := gorgonia.NewGraph()
		x := input(t, g, tensor.Float64, "x", xs)
		u := input(t, g, tensor.Float64, "u", []float64{3, 1})
		cost := gorgonia.Must(gorgonia.Add(gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Square(x)))), gorgonia.Must(gorgonia.Max(u))))
		r, err := Check(cost, gorgonia.Nodes{x}, Config{Lisp: LispRequire})
		require.NoError(t, err)
		require.Equal(t, []Machine{Tape, Lisp}, r.Machines)
		require.LessOrEqual(t, normRelErr(t, r.Nodes[0].Lisp.Grad, []float64{1, -2.5, 4, 1.5}), tolMachine64)
	})
}

// snapshot records what Check must leave unchanged in the caller's graph.
type snapshot struct {
	nodes  int
	values []gorgonia.Value // the value objects themselves
	data   [][]float64
	derivs []*gorgonia.Node
}

func takeSnapshot(t *testing.T, g *gorgonia.ExprGraph, wrt gorgonia.Nodes) snapshot {
	s := snapshot{nodes: len(g.AllNodes())}
	for _, w := range wrt {
		s.values = append(s.values, w.Value())
		s.data = append(s.data, values(t, w))
		s.derivs = append(s.derivs, w.Deriv())
	}
	return s
}

func TestGraphUnchanged(t *testing.T) {
	build := func(t *testing.T, limit float64) (g *gorgonia.ExprGraph, x *gorgonia.Node, cost *gorgonia.Node) {
		g = gorgonia.NewGraph()
		// Values whose float32 perturbations round, to catch an inexact restore.
		x = input(t, g, tensor.Float32, "x", []float64{0.1, 1.9999999, -0.3, 0.7})
		y := input(t, g, tensor.Float32, "y", []float64{0, 1, 0, 1})
		cost, err := opkit.Apply(capped{Limit: limit}, x, y)
		require.NoError(t, err)
		return g, x, cost
	}
	for _, c := range []struct {
		name  string
		limit float64
	}{
		{"success", 10},
		// Element 1 moved up by 2h = 0.04 exceeds the limit: the run fails midway.
		{"error while perturbing", 2.03},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, x, cost := build(t, c.limit)
			before := takeSnapshot(t, g, gorgonia.Nodes{x})
			_, err := Check(cost, gorgonia.Nodes{x}, Config{})
			if c.limit < 10 {
				require.ErrorIs(t, err, ErrRun)
				require.Contains(t, err.Error(), errTooLarge.Error())
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, before, takeSnapshot(t, g, gorgonia.Nodes{x}))
			_, err = x.Grad()
			require.Error(t, err, "Check left a gradient (dual value) on the caller's node")
		})
	}
}

func TestAfterUserRuns(t *testing.T) {
	t.Run("user ran Grad of another cost and a TapeMachine twice", func(t *testing.T) {
		p := customOpWithDecay(t, tensor.Float64, rand.New(rand.NewPCG(3, 3)))
		g := p.cost.Graph()
		// Gradient nodes of 3·cost for w only: Check must neither use nor need them.
		tripled := gorgonia.Must(gorgonia.Mul(constant(t, tensor.Float64, 3), p.cost))
		_, err := gorgonia.Grad(tripled, p.wrt[0])
		require.NoError(t, err)
		m := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(p.wrt[0]))
		for range 2 { // the dual values accumulate: 2·3 = 6 times the gradient
			m.Reset()
			require.NoError(t, m.RunAll())
		}
		require.NoError(t, m.Close())
		before := takeSnapshot(t, g, p.wrt)
		accumulated := gradOf(t, p.wrt[0])
		require.InDelta(t, 6*p.wantGrad[0][0], accumulated[0], 1e-12)

		r, err := Check(p.cost, p.wrt, Config{Lisp: LispRequire})
		require.NoError(t, err)
		for k, n := range r.Nodes {
			require.LessOrEqual(t, normRelErr(t, n.Tape.Grad, p.wantGrad[k]), tolMachine64)
			require.LessOrEqual(t, normRelErr(t, n.Lisp.Grad, p.wantGrad[k]), tolMachine64)
		}
		require.Equal(t, before, takeSnapshot(t, g, p.wrt))
		require.Equal(t, accumulated, gradOf(t, p.wrt[0]))
	})
	t.Run("user ran a LispMachine", func(t *testing.T) {
		p := customOpWithDecay(t, tensor.Float64, rand.New(rand.NewPCG(3, 3)))
		m := gorgonia.NewLispMachine(p.cost.Graph())
		require.NoError(t, m.RunAll())
		require.NoError(t, m.Close())
		left := gradOf(t, p.wrt[0])
		require.LessOrEqual(t, normRelErr(t, left, p.wantGrad[0]), tolMachine64)

		r, err := Check(p.cost, p.wrt, Config{Lisp: LispRequire})
		require.NoError(t, err)
		for k, n := range r.Nodes {
			require.LessOrEqual(t, normRelErr(t, n.Tape.Grad, p.wantGrad[k]), tolMachine64)
			// Not 2× the gradient: the gradient left in the dual values is not accumulated into.
			require.LessOrEqual(t, normRelErr(t, n.Lisp.Grad, p.wantGrad[k]), tolMachine64)
		}
		require.Equal(t, left, gradOf(t, p.wrt[0]))
	})
	t.Run("repeated checks agree", func(t *testing.T) {
		p := logisticRegression(t, tensor.Float64, rand.New(rand.NewPCG(5, 5)))
		first, err := Check(p.cost, p.wrt, Config{})
		require.NoError(t, err)
		second, err := Check(p.cost, p.wrt, Config{})
		require.NoError(t, err)
		require.Equal(t, first, second)
	})
}

func TestBadInput(t *testing.T) {
	g := gorgonia.NewGraph()
	x := input(t, g, tensor.Float64, "x", []float64{1, 2, 3})
	sq := gorgonia.Must(gorgonia.Square(x))
	cost := gorgonia.Must(gorgonia.Sum(sq))
	unbound := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(3), gorgonia.WithName("unbound"))
	f32 := input(t, g, tensor.Float32, "f32", []float64{1, 2, 3})
	other := input(t, gorgonia.NewGraph(), tensor.Float64, "other", []float64{1})
	ints := gorgonia.NewScalar(g, tensor.Int, gorgonia.WithName("ints"), gorgonia.WithValue(3))

	// A cost depending on an input without a value.
	withUnbound := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(x, unbound))))

	cases := []struct {
		name string
		cost *gorgonia.Node
		wrt  gorgonia.Nodes
		cfg  Config
		want error
	}{
		{"nil cost", nil, gorgonia.Nodes{x}, Config{}, ErrCost},
		{"vector cost", sq, gorgonia.Nodes{x}, Config{}, ErrCost},
		{"int cost", ints, gorgonia.Nodes{x}, Config{}, ErrCost},
		{"no wrt", cost, nil, Config{}, ErrWRT},
		{"nil wrt", cost, gorgonia.Nodes{nil}, Config{}, ErrWRT},
		{"no value", cost, gorgonia.Nodes{unbound}, Config{}, ErrWRT},
		{"wrong dtype", cost, gorgonia.Nodes{f32}, Config{}, ErrWRT},
		{"other graph", cost, gorgonia.Nodes{other}, Config{}, ErrWRT},
		{"not an input", cost, gorgonia.Nodes{sq}, Config{}, ErrWRT},
		{"twice", cost, gorgonia.Nodes{x, x}, Config{}, ErrWRT},
		{"cost needs an unbound input", withUnbound, gorgonia.Nodes{x}, Config{}, ErrCost},
		{"wrt in the cost without value", withUnbound, gorgonia.Nodes{unbound}, Config{}, ErrWRT},
		{"negative step", cost, gorgonia.Nodes{x}, Config{Step: -1e-3}, rocops.ErrConfig},
		{"NaN tol", cost, gorgonia.Nodes{x}, Config{Tol: math.NaN()}, rocops.ErrConfig},
		{"infinite step", cost, gorgonia.Nodes{x}, Config{Step: math.Inf(1)}, rocops.ErrConfig},
		{"unknown lisp mode", cost, gorgonia.Nodes{x}, Config{Lisp: LispOff + 1}, rocops.ErrConfig},
		{"step below precision", cost, gorgonia.Nodes{x}, Config{Step: 1e-17}, rocops.ErrConfig},
		{"cost independent of wrt", cost, gorgonia.Nodes{input(t, g, tensor.Float64, "unused", []float64{1})}, Config{}, ErrWRT},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Check(c.cost, c.wrt, c.cfg)
			require.Nil(t, r)
			require.ErrorIs(t, err, c.want)
			require.True(t, strings.HasPrefix(err.Error(), "gradcheck: "), err.Error())

			rec := &recorder{TB: t}
			require.Nil(t, Assert(rec, c.cost, c.wrt, c.cfg))
			require.Len(t, rec.fatals, 1)
			require.Equal(t, err.Error(), rec.fatals[0])
			require.Empty(t, rec.errors)
		})
	}
}

func TestReportString(t *testing.T) {
	p := hiddenLayer(t, tensor.Float64, rand.New(rand.NewPCG(2, 2)))
	r, err := Check(p.cost, p.wrt, Config{})
	require.NoError(t, err)
	s := r.String()
	require.True(t, strings.HasPrefix(s, "gradcheck: cost "), s)
	require.Contains(t, s, "machines: tape, lisp")
	require.NotContains(t, s, "lisp skipped")
	lines := strings.Split(strings.TrimSpace(s), "\n")
	require.Len(t, lines, 4, s) // summary, header, one row per machine
	require.True(t, strings.HasPrefix(lines[2], "W     (3, 4)  tape"), lines[2])
	require.True(t, strings.HasPrefix(lines[3], "W     (3, 4)  lisp"), lines[3])
}

func TestIndex(t *testing.T) {
	cases := []struct {
		shape tensor.Shape
		i     int
		want  string
	}{
		{tensor.ScalarShape(), 0, "0"},
		{tensor.Shape{5}, 3, "3"},
		{tensor.Shape{3, 4}, 7, "7 (1,3)"},
		{tensor.Shape{2, 3, 4}, 23, "23 (1,2,3)"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, index(c.shape, c.i))
	}
}

func TestLispModeString(t *testing.T) {
	for m, want := range map[LispMode]string{LispAuto: "LispAuto", LispRequire: "LispRequire", LispOff: "LispOff"} {
		require.Equal(t, want, m.String())
	}
	require.Equal(t, "LispMode(7)", LispMode(7).String())
}
