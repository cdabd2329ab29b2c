package train

import (
	"errors"
	"fmt"
	"hash"
	"testing"

	"github.com/chewxy/hm"
	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/optim"
)

// TestGraphStepSkipsUnreadGradients: the graph step runs only what its cost and the
// learnables' gradients need. The model scales each feature by a learnable gain before an
// MLP; gorgonia.Grad also builds the gradient with respect to the batch rows, here an op that
// fails when it runs, which the step must not run. The gain's gradient is Σ_i x_ij·∂L/∂y_ij
// over the rows i, so the step still updates it (optim.SGD with learning rate 1: by its
// gradient, checked against the same sum from the MLP's own step on the scaled rows).
func TestGraphStepSkipsUnreadGradients(t *testing.T) {
	const batch, in = 32, 3
	ds := blobs(t, batch, in, 0.3, 1, 4)
	idx := make([]int, batch)
	for i := range idx {
		idx[i] = i
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{4}, Seed: 5})
	require.NoError(t, err)
	gm := &gained{Model: m, gain: tensor.New(tensor.WithShape(in), tensor.WithBacking([]float64{1, 1, 1}))}
	opt, err := optim.NewStepper(optim.SGD, 1)
	require.NoError(t, err)
	st, err := newGraphStep(gm, CrossEntropy{}, rocops.Task{}, batch, in, opt)
	require.NoError(t, err)
	defer st.close()
	_, err = st.run(ds, idx)
	require.NoError(t, err, "the step ran the gradient of the batch rows")

	// With unit gains the MLP sees the rows themselves: ∂L/∂gain_j = Σ_i x_ij·∂L/∂x_ij, with
	// ∂L/∂x from a graph of the MLP alone (the initial weights, before the step above).
	ref, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{4}, Seed: 5})
	require.NoError(t, err)
	mg, err := buildModel(ref, batch, in)
	require.NoError(t, err)
	require.NoError(t, fillBatch(mg.x, mg.y, ds, idx))
	cost, err := CrossEntropy{}.Build(mg.scores, mg.labels, rocops.Task{})
	require.NoError(t, err)
	xn := mg.g.ByName("x")[0]
	dx, err := gorgonia.Grad(cost, xn)
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(mg.g)
	defer vm.Close()
	require.NoError(t, vm.RunAll())
	gx, err := opkit.Floats(dx[0].Value())
	require.NoError(t, err)
	x := mg.x.Float64s()
	const tol = 1e-14 // one sum of 32 products of order 1
	for j := range in {
		want := 0.0
		for i := range batch {
			want += x[i*in+j] * gx[i*in+j]
		}
		require.InDelta(t, 1-want, gm.gain.Float64s()[j], tol, "gain %d", j)
	}
}

// gained is a model of another package: y = x·diag(gain), then the MLP. Its Params and its
// Build's learnables are the MLP's, then the gain (so the step updates it); the gradient with
// respect to the batch rows x fails when run.
type gained struct {
	nn.Model
	gain *tensor.Dense // (in)
}

func (m *gained) Params() []nn.Param {
	return append(m.Model.Params(), nn.Param{Name: "gain", Value: m.gain})
}

func (m *gained) Build(g *gorgonia.ExprGraph, x *gorgonia.Node) (*gorgonia.Node, gorgonia.Nodes, error) {
	gn := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(m.gain.Shape()...), gorgonia.WithName("gain"), gorgonia.WithValue(m.gain))
	y, err := gorgonia.ApplyOp(gainOp{}, x, gn)
	if err != nil {
		return nil, nil, err
	}
	scores, learnables, err := m.Model.Build(g, y)
	return scores, append(learnables, gn), err
}

// gainOp is y_ij = x_ij·g_j for an (n, d) x and a (d) g, in float64.
type gainOp struct{}

func (gainOp) Arity() int { return 2 }
func (gainOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(gorgonia.TensorType{Dims: 2, Of: a}, gorgonia.TensorType{Dims: 1, Of: a}, gorgonia.TensorType{Dims: 2, Of: a})
}
func (gainOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (gainOp) Do(in ...gorgonia.Value) (gorgonia.Value, error) {
	x, g := in[0].Data().([]float64), in[1].Data().([]float64)
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v * g[i%len(g)]
	}
	return tensor.New(tensor.WithShape(in[0].Shape().Clone()...), tensor.WithBacking(y)), nil
}
func (gainOp) ReturnsPtr() bool          { return false }
func (gainOp) CallsExtern() bool         { return false }
func (gainOp) OverwritesInput() int      { return -1 }
func (gainOp) WriteHash(h hash.Hash)     { fmt.Fprint(h, "gain") }
func (op gainOp) Hashcode() uint32       { return opkit.HashOf(op) }
func (gainOp) String() string            { return "gain" }
func (gainOp) DiffWRT(inputs int) []bool { return []bool{true, true} }

// SymDiff: ∂L/∂x is rowsGradOp's, which fails; ∂L/∂g_j = Σ_i x_ij·∂L/∂y_ij.
func (gainOp) SymDiff(inputs gorgonia.Nodes, _, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	dx, err := gorgonia.ApplyOp(rowsGradOp{}, grad)
	if err != nil {
		return nil, err
	}
	prod, err := gorgonia.HadamardProd(inputs[0], grad)
	if err != nil {
		return nil, err
	}
	dg, err := gorgonia.Sum(prod, 0)
	return gorgonia.Nodes{dx, dg}, err
}

// rowsGradOp stands for the gradient with respect to the batch rows: running it is an error.
type rowsGradOp struct{}

func (rowsGradOp) Arity() int { return 1 }
func (rowsGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(gorgonia.TensorType{Dims: 2, Of: a}, gorgonia.TensorType{Dims: 2, Of: a})
}
func (rowsGradOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (rowsGradOp) Do(...gorgonia.Value) (gorgonia.Value, error) {
	return nil, errors.New("the gradient of the batch rows was computed")
}
func (rowsGradOp) ReturnsPtr() bool      { return false }
func (rowsGradOp) CallsExtern() bool     { return false }
func (rowsGradOp) OverwritesInput() int  { return -1 }
func (rowsGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "rowsGrad") }
func (op rowsGradOp) Hashcode() uint32   { return opkit.HashOf(op) }
func (rowsGradOp) String() string        { return "rowsGrad" }
