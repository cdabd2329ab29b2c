package nn

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestGraphRunsAgain: the ops of a model's graph write into tensors of their own and reuse
// them, so a machine run again must compute each run's values afresh, whatever the machine
// wrote into those tensors in between. The graph reshapes the scores to (B, 1) for the cost
// Σᵢ wᵢ·sᵢ (the TapeMachine writes the gradient with respect to w into the scores' tensor, in
// place, once nothing else reads it) and runs on rows x₁, x₂, then x₁ again, on one
// TapeMachine reset between runs and on a new LispMachine per run: every run gives, bit for
// bit, the scores and gradients of a graph built afresh for its rows, and the scores keep
// their shape (B).
func TestGraphRunsAgain(t *testing.T) {
	const rows, in = 7, 4
	x1, x2, w := randomRows(61, rows, in), randomRows(62, rows, in), randomRows(63, rows, 1)
	for _, dt := range dtypes {
		for _, hidden := range [][]int{nil, {5}, {6, 3}} {
			for _, machine := range []string{"tape", "lisp"} {
				t.Run(fmt.Sprintf("%v/hidden=%v/%s", dt, hidden, machine), func(t *testing.T) {
					m, err := NewMLP(MLPConfig{In: in, Hidden: hidden, Seed: 8, Dtype: dt})
					require.NoError(t, err)
					xv, err := newMatrix(dt, rows, in, x1)
					require.NoError(t, err)
					g := gorgonia.NewGraph()
					cost, learnables, scores, xn := reshapedCost(t, g, m, xv, w)
					var tape gorgonia.VM
					if machine == "tape" {
						_, err = gorgonia.Grad(cost, learnables...)
						require.NoError(t, err)
						tape = gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learnables...))
						defer tape.Close()
					}
					for run, x := range [][]float64{x1, x2, x1} {
						xv, err := newMatrix(dt, rows, in, x)
						require.NoError(t, err)
						require.NoError(t, gorgonia.Let(xn, xv))
						for _, l := range learnables {
							if gv, err := l.Grad(); err == nil && gv != nil {
								gv.(*tensor.Dense).Zero()
							}
						}
						if machine == "tape" {
							tape.Reset()
							require.NoError(t, tape.RunAll())
						} else {
							lisp := gorgonia.NewLispMachine(g)
							require.NoError(t, lisp.RunAll())
							lisp.Close()
						}
						s, grads := values64(t, scores, learnables)

						fresh := gorgonia.NewGraph()
						fc, fl, fs, _ := reshapedCost(t, fresh, m, xv, w)
						ws, wg := runGraph(t, fresh, fc, fl, fs)
						require.Equal(t, tensor.Shape{rows}, scores.Value().Shape(), "run %d", run)
						sameGraph(t, s, ws, grads, wg)
					}
				})
			}
		}
	}
}

// reshapedCost builds m in g on the rows xv and returns the cost Σᵢ wᵢ·sᵢ of its scores s
// reshaped to (B, 1), the learnables, the scores node and the input node.
func reshapedCost(t *testing.T, g *gorgonia.ExprGraph, m Model, xv *tensor.Dense, w []float64) (cost *gorgonia.Node, learnables gorgonia.Nodes, scores, xn *gorgonia.Node) {
	t.Helper()
	dt, rows := m.Dtype(), xv.Shape()[0]
	xn = gorgonia.NewMatrix(g, dt, gorgonia.WithShape(xv.Shape()...), gorgonia.WithValue(xv), gorgonia.WithName("x"))
	wv, err := newMatrix(dt, rows, 1, w)
	require.NoError(t, err)
	wn := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, 1), gorgonia.WithValue(wv), gorgonia.WithName("w"))
	scores, learnables, err = m.Build(g, xn)
	require.NoError(t, err)
	col, err := gorgonia.Reshape(scores, tensor.Shape{rows, 1})
	require.NoError(t, err)
	prod, err := gorgonia.HadamardProd(col, wn)
	require.NoError(t, err)
	cost, err = gorgonia.Sum(prod)
	require.NoError(t, err)
	return cost, learnables, scores, xn
}

// values64 returns copies of the values of scores and of the learnables' gradients.
func values64(t *testing.T, scores *gorgonia.Node, learnables gorgonia.Nodes) ([]float64, [][]float64) {
	t.Helper()
	s := paramValues(t, Param{Value: scores.Value().(*tensor.Dense)})
	var grads [][]float64
	for _, l := range learnables {
		gv, err := l.Grad()
		require.NoError(t, err)
		grads = append(grads, paramValues(t, Param{Value: gv.(*tensor.Dense)}))
	}
	return s, grads
}

// TestOutputNext: an op's output tensor is allocated once and returned by every run; one whose
// shape was changed in place since (as a Reshape's UnsafeDo does) is replaced by a tensor of
// the op's shape over the same values.
func TestOutputNext(t *testing.T) {
	o := output[float32]{shape: tensor.Shape{6}}
	d, first := o.next()
	require.Len(t, d, 6)
	require.Equal(t, tensor.Shape{6}, first.Shape())
	d2, again := o.next()
	require.Same(t, first, again)
	require.Same(t, &d[0], &d2[0])
	require.NoError(t, first.Reshape(6, 1))
	d3, fixed := o.next()
	require.NotSame(t, first, fixed)
	require.Equal(t, tensor.Shape{6}, fixed.Shape())
	require.Same(t, &d[0], &d3[0])
	require.Same(t, &d[0], &fixed.Data().([]float32)[0])
}

// TestBuildIsGorgoniaGraph: a model's graph gives the scores and parameter gradients of the
// same model written with Gorgonia's own ops (gorgoniaModel: Mul, BroadcastAdd, Rectify or
// Tanh, Reshape), bit for bit — for the cost Σᵢ wᵢ·sᵢ (Σ_ic w_ic·s_ic for k outputs), both
// dtypes, a linear scorer and MLPs of one and two hidden layers narrower than, as wide as and
// wider than the kernels' tiles (8 columns in float64, 16 in float32), each activation, 3
// outputs, 9 rows (one of them zero, where every ReLU of a zero-bias layer sits at its kink)
// and 64, under the default build's BLAS and under gonum's own; and with an infinite output
// weight, where gonum's products skip the zero terms that would be NaN (∞·0).
func TestBuildIsGorgoniaGraph(t *testing.T) {
	type model struct {
		hidden  []int
		act     Activation
		outputs int
	}
	models := []model{
		{nil, ReLU, 0}, {[]int{1}, ReLU, 0}, {[]int{6}, ReLU, 0}, {[]int{8}, ReLU, 0}, {[]int{16}, ReLU, 0},
		{[]int{17}, ReLU, 0}, {[]int{64}, ReLU, 0}, {[]int{20, 3}, ReLU, 0}, {[]int{6, 6}, ReLU, 0},
		{[]int{8, 9}, ReLU, 0}, {[]int{6}, Tanh, 0}, {[]int{6, 4}, Tanh, 0}, {[]int{17}, Tanh, 0},
		{[]int{3}, Identity, 0}, {nil, ReLU, 3}, {[]int{7}, ReLU, 3}, {[]int{5}, Tanh, 3},
	}
	blases := map[string]gorgonia.BLAS{"default": gorgonia.WhichBLAS(), "gonum": gonum.Implementation{}}
	defer gorgonia.Use(gorgonia.WhichBLAS())
	const in = 5
	for _, bl := range []string{"default", "gonum"} {
		for _, dt := range dtypes {
			for _, rows := range []int{9, 64} {
				for _, c := range models {
					for _, inf := range []bool{false, true} {
						name := fmt.Sprintf("%s/%v/rows=%d/hidden=%v/%v/outputs=%d/inf=%v", bl, dt, rows, c.hidden, c.act, c.outputs, inf)
						t.Run(name, func(t *testing.T) {
							gorgonia.Use(blases[bl])
							m, err := NewMLP(MLPConfig{In: in, Hidden: c.hidden, Activation: c.act, Outputs: c.outputs, Seed: 11, Dtype: dt})
							require.NoError(t, err)
							if inf { // an infinite weight from the first unit of the last hidden layer
								last := m.layers[len(m.layers)-1].weight
								require.NoError(t, last.SetAt(infOf(dt), 0, 0))
							}
							x := randomRows(71, rows, in)
							clear(x[in : 2*in]) // row 1 is zero
							sameAsGorgonia(t, m, x, rows, 72)
						})
					}
				}
			}
		}
	}
}

// infOf returns +Inf in dtype dt.
func infOf(dt tensor.Dtype) any {
	if dt == tensor.Float32 {
		return float32(math.Inf(1))
	}
	return math.Inf(1)
}

// weightedCost is weightedScoreCost for k ≥ 1 outputs: the cost Σ_ic w_ic·s_ic of the (B) or
// (B, k) scores s, with w of the scores' shape.
func weightedCost(t testing.TB, g *gorgonia.ExprGraph, m Model, x []float64, rows int, w []float64, k int) (cost *gorgonia.Node, learnables gorgonia.Nodes, scores *gorgonia.Node) {
	t.Helper()
	if k == 1 {
		return weightedScoreCost(t, g, m, x, rows, w)
	}
	dt := m.Dtype()
	xv, err := newMatrix(dt, rows, m.InputSize(), x)
	require.NoError(t, err)
	wv, err := newMatrix(dt, rows, k, w)
	require.NoError(t, err)
	xn := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, m.InputSize()), gorgonia.WithValue(xv), gorgonia.WithName("x"))
	wn := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, k), gorgonia.WithValue(wv), gorgonia.WithName("w"))
	scores, learnables, err = m.Build(g, xn)
	require.NoError(t, err)
	prod, err := gorgonia.HadamardProd(scores, wn)
	require.NoError(t, err)
	cost, err = gorgonia.Sum(prod)
	require.NoError(t, err)
	return cost, learnables, scores
}

// TestBuildIsGorgoniaGraphLoRA: a model with LoRA adapters (B drawn at random, so that the
// adapters' terms are not zero) gives, through its graph, the scores and gradients of the
// same model written with Gorgonia's own ops, bit for bit: adapters on a hidden body under a
// new head, on every layer (the one-column output layer's included) and on a linear scorer,
// with scales 1 and 0.75, 3 outputs, both dtypes.
func TestBuildIsGorgoniaGraphLoRA(t *testing.T) {
	const rows, in = 9, 6
	for _, dt := range dtypes {
		for _, c := range []struct {
			name string
			base MLPConfig
			cfg  TransferConfig
		}{
			{"body/r=2/s=1", MLPConfig{In: in, Hidden: []int{20, 17}}, TransferConfig{Rank: 2, Alpha: 2}},
			{"every layer/r=4/s=0.75", MLPConfig{In: in, Hidden: []int{20, 17}}, TransferConfig{Body: 3, Rank: 4, Alpha: 3}},
			{"tanh/3 outputs", MLPConfig{In: in, Hidden: []int{9}, Activation: Tanh, Outputs: 3}, TransferConfig{Body: 2, Rank: 3, Alpha: 2.25}},
			{"linear", MLPConfig{In: in}, TransferConfig{Body: 1, Rank: 1}},
		} {
			t.Run(fmt.Sprintf("%v/%s", dt, c.name), func(t *testing.T) {
				c.base.Dtype = dt
				m, err := Transfer(trainedBase(t, c.base, 111), c.cfg)
				require.NoError(t, err)
				for i, p := range m.Params() {
					if strings.HasSuffix(p.Name, ".lora_b") {
						copyInto(p.Value, randomRows(112+uint64(i), p.Value.Len(), 1))
					}
				}
				x := randomRows(113, rows, in)
				sameAsGorgonia(t, m, x, rows, 114)
			})
		}
	}
}

// TestRectify: rectify and rectifyGrad give, bit for bit, Gorgonia's Rectify z·[z ≥ 0] and its
// gradient [z ≥ 0]·∂L/∂h on the values where a result formed from bits could go wrong: ±0,
// the smallest subnormals, ±1, the largest finite values, ±Inf and NaNs of either sign, as
// z and as ∂L/∂h, every pair.
func TestRectify(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1, -1.5, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(math.NaN(), -1), math.Float64frombits(0x7ff0000000000001)}
	special32 := []uint32{0, 0x80000000, 0x00000001, 0x80000001, 0x3f800000, 0xbfc00000, 0x7f7fffff, 0xff7fffff,
		0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001}
	n := len(special)
	t.Run("float64", func(t *testing.T) {
		z, dh := make([]float64, n*n), make([]float64, n*n)
		for i := range z {
			z[i], dh[i] = special[i/n], special[i%n]
		}
		h, d := make([]float64, len(z)), make([]float64, len(z))
		rectify(h, z)
		rectifyGrad(d, z, dh)
		for i, x := range z {
			m := 0.0
			if x >= 0 {
				m = 1
			}
			want := x * m
			assert.Equal(t, math.Float64bits(want), math.Float64bits(h[i]), "rectify(%v) = %v, want %v", x, h[i], want)
			want = m * dh[i]
			assert.Equal(t, math.Float64bits(want), math.Float64bits(d[i]), "rectifyGrad(%v, %v) = %v, want %v", x, dh[i], d[i], want)
		}
	})
	t.Run("float32", func(t *testing.T) {
		z, dh := make([]float32, n*n), make([]float32, n*n)
		for i := range z {
			z[i], dh[i] = math.Float32frombits(special32[i/n]), math.Float32frombits(special32[i%n])
		}
		h, d := make([]float32, len(z)), make([]float32, len(z))
		rectify(h, z)
		rectifyGrad(d, z, dh)
		for i, x := range z {
			var m float32
			if x >= 0 {
				m = 1
			}
			want := x * m
			assert.Equal(t, math.Float32bits(want), math.Float32bits(h[i]), "rectify(%v) = %v, want %v", x, h[i], want)
			want = m * dh[i]
			assert.Equal(t, math.Float32bits(want), math.Float32bits(d[i]), "rectifyGrad(%v, %v) = %v, want %v", x, dh[i], d[i], want)
		}
	})
}

// sameAsGorgonia checks that m's graph and the same network in Gorgonia's own ops
// (gorgoniaModel) give the same scores and gradients, bit for bit, of a cost weighting the
// outputs on rows×in inputs x by random weights drawn with seed.
func sameAsGorgonia(t *testing.T, m *MLP, x []float64, rows int, seed uint64) {
	t.Helper()
	k := Outputs(m)
	w := randomRows(seed, rows, k)
	run := func(model Model) ([]float64, [][]float64) {
		g := gorgonia.NewGraph()
		cost, learnables, scores := weightedCost(t, g, model, x, rows, w, k)
		return runGraph(t, g, cost, learnables, scores)
	}
	ws, wg := run(gorgoniaModel{m})
	s, g := run(m)
	sameGraph(t, s, ws, g, wg)
}
