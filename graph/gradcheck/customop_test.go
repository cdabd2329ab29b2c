package gradcheck

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chewxy/hm"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// cube is the elementwise op y_i = x_i³ on float64 vectors, ∂y_i/∂x_i = 3x_i². Its SymDiff is
// right; its DoDiff multiplies the gradient by lispScale, so lispScale = 0 reproduces an op
// whose LispMachine gradient is silently zero.
type cube struct{ lispScale float64 }

func (op cube) Arity() int { return 1 }
func (op cube) Type() hm.Type {
	v := gorgonia.TensorType{Dims: 1, Of: hm.TypeVariable('a')}
	return hm.NewFnType(v, v)
}
func (op cube) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op cube) Do(in ...gorgonia.Value) (gorgonia.Value, error) {
	x, err := opkit.Floats(in[0])
	if err != nil {
		return nil, err
	}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v * v * v
	}
	return opkit.NewVector(tensor.Float64, y)
}
func (op cube) ReturnsPtr() bool      { return false }
func (op cube) CallsExtern() bool     { return false }
func (op cube) OverwritesInput() int  { return -1 }
func (op cube) String() string        { return fmt.Sprintf("cube{lisp×%g}", op.lispScale) }
func (op cube) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op cube) Hashcode() uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
func (op cube) DiffWRT(int) []bool { return []bool{true} }

// SymDiff: grad ⊙ 3x⊙x, in Gorgonia ops.
func (op cube) SymDiff(in gorgonia.Nodes, _, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	x := in[0]
	sq, err := gorgonia.HadamardProd(x, x)
	if err != nil {
		return nil, err
	}
	d, err := gorgonia.Mul(gorgonia.NewConstant(3.0), sq)
	if err != nil {
		return nil, err
	}
	g, err := gorgonia.HadamardProd(grad, d)
	return gorgonia.Nodes{g}, err
}

// DoDiff: x.grad += lispScale·3x²⊙y.grad.
func (op cube) DoDiff(_ gorgonia.ExecutionContext, in gorgonia.Nodes, out *gorgonia.Node) error {
	x, err := opkit.Floats(in[0].Value())
	if err != nil {
		return err
	}
	upV, err := out.Grad()
	if err != nil {
		return err
	}
	up, err := opkit.Floats(upV)
	if err != nil {
		return err
	}
	g := make([]float64, len(x))
	for i, v := range x {
		g[i] = 3 * v * v * up[i]
	}
	dst, err := in[0].Grad()
	if err != nil {
		return err
	}
	return opkit.AddScaled(dst, g, op.lispScale)
}

func TestMachinesJudgedSeparately(t *testing.T) {
	xs := []float64{0.5, -1.25, 2, 0.75}
	want := []float64{0.75, 4.6875, 12, 1.6875} // 3x², by hand
	for _, c := range []struct {
		name      string
		lispScale float64
		lispRel   float64 // |s−1|/max(1, |s|): see TestWrongGradientDetected
	}{
		{"both right", 1, 0},
		{"lisp zero", 0, 1},
		{"lisp sign", -1, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := gorgonia.NewGraph()
			x := input(t, g, tensor.Float64, "x", xs)
			y, err := gorgonia.ApplyOp(cube{lispScale: c.lispScale}, x)
			require.NoError(t, err)
			cost := gorgonia.Must(gorgonia.Sum(y))
			rec := &recorder{TB: t}
			r := Assert(rec, cost, gorgonia.Nodes{x}, Config{})
			require.Empty(t, rec.fatals)
			require.Equal(t, []Machine{Tape, Lisp}, r.Machines)
			n := r.Nodes[0]
			require.LessOrEqual(t, normRelErr(t, n.Tape.Grad, want), tolMachine64)
			require.LessOrEqual(t, n.Tape.MaxRel, tolNumeric64)
			require.InDelta(t, c.lispRel, n.Lisp.MaxRel, tolNumeric64)
			if c.lispRel == 0 {
				require.Empty(t, rec.errors)
				return
			}
			require.Len(t, rec.errors, 1)
			worst := rec.errors[0][strings.Index(rec.errors[0], "worst elements:"):]
			require.Equal(t, len(xs), strings.Count(worst, "\nx     lisp"), worst)
			require.NotContains(t, worst, "tape")
		})
	}
}

func TestAssertUsesConfiguredTol(t *testing.T) {
	// A gradient 0.1% too large: MaxRel ≈ 1e-3 fails the default 1e-6 but passes Tol = 1e-2.
	_, _, w, _, y, z := logisticGraph(t, tensor.Float64, rand.New(rand.NewPCG(8, 8)), 8, 2)
	cost, err := opkit.Apply(meanCE{Scale: 1.001}, z, y)
	require.NoError(t, err)
	for _, c := range []struct {
		tol        float64
		wantErrors int
	}{{0, 1}, {1e-2, 0}, {1e-4, 1}} {
		rec := &recorder{TB: t}
		r := Assert(rec, cost, gorgonia.Nodes{w}, Config{Tol: c.tol, Step: 2e-3})
		require.Len(t, rec.errors, c.wantErrors, "tol %g", c.tol)
		require.Equal(t, 2e-3, r.Step)
		if c.tol != 0 {
			require.Equal(t, c.tol, r.Tol)
		}
	}
}

// cubeBadSymDiff panics while gorgonia.Grad differentiates it.
type cubeBadSymDiff struct{ cube }

func (cubeBadSymDiff) SymDiff(gorgonia.Nodes, *gorgonia.Node, *gorgonia.Node) (gorgonia.Nodes, error) {
	panic("no gradient today")
}

func TestPanicBecomesError(t *testing.T) {
	g := gorgonia.NewGraph()
	x := input(t, g, tensor.Float64, "x", []float64{1, 2})
	y, err := gorgonia.ApplyOp(cubeBadSymDiff{cube{lispScale: 1}}, x)
	require.NoError(t, err)
	cost := gorgonia.Must(gorgonia.Sum(y))
	_, err = Check(cost, gorgonia.Nodes{x}, Config{})
	require.ErrorIs(t, err, ErrRun)
	require.Contains(t, err.Error(), "panicked: no gradient today")
}
