package nn

import (
	"fmt"
	"math/rand/v2"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/floats"
)

// maxWeights bounds the number of elements of one weight matrix, so that sizes cannot
// overflow and every dimension fits a checkpoint's 32-bit fields.
const maxWeights = 1<<31 - 1

// layer is one affine map followed by an activation: h ↦ φ(h·W + b), or with a LoRA adapter
// h ↦ φ(h·W + b + s·(h·Aᵀ)·Bᵀ).
type layer struct {
	weight *tensor.Dense // W, shape (n_in, n_out)
	bias   *tensor.Dense // b, shape (n_out), zero at initialisation
	act    Activation    // φ
	frozen bool          // W and b are frozen (always so under an adapter)
	lora   *adapter      // nil without an adapter
}

// network is a stack of layers ending in one score per row, or k. An MLP is a network; its
// exported methods come from here.
type network struct {
	in     int
	dtype  tensor.Dtype
	layers []layer
}

// newNetwork validates a configuration and returns the initialised network with input size
// in, hidden layers of the given sizes followed by act, and an Identity output layer of width
// outputs (0 meaning 1). A zero dt means Float64.
func newNetwork(in int, hidden []int, outputs int, act Activation, init Init, seed uint64,
	dt tensor.Dtype) (*network, error) {
	if dt == (tensor.Dtype{}) {
		dt = tensor.Float64
	}
	switch {
	case in <= 0:
		return nil, fmt.Errorf("%w: input size %d (want at least 1)", errConfig, in)
	case outputs < 0:
		return nil, fmt.Errorf("%w: %d outputs (want 0 or 1 for one score, or k ≥ 2)", errConfig, outputs)
	case dt != tensor.Float64 && dt != tensor.Float32:
		return nil, fmt.Errorf("%w: dtype %v (want float32 or float64)", errConfig, dt)
	case !activations.Valid(act):
		return nil, fmt.Errorf("%w: unknown activation %d", errConfig, int(act))
	}
	layers, err := newLayers(in, hidden, outputs, act, init, dt, newRand(seed))
	if err != nil {
		return nil, err
	}
	return &network{in: in, dtype: dt, layers: layers}, nil
}

// newLayers validates and returns the initialised layers of a network of input size in, hidden
// layers of the given sizes followed by act and an Identity output layer of width outputs (0
// meaning 1), their weights drawn from rng layer by layer.
func newLayers(in int, hidden []int, outputs int, act Activation, init Init, dt tensor.Dtype,
	rng *rand.Rand) ([]layer, error) {
	switch {
	case in <= 0:
		return nil, fmt.Errorf("%w: input size %d (want at least 1)", errConfig, in)
	case outputs < 0:
		return nil, fmt.Errorf("%w: %d outputs (want 0 or 1 for one score, or k ≥ 2)", errConfig, outputs)
	case !inits.Valid(init):
		return nil, fmt.Errorf("%w: unknown initialisation %d", errConfig, int(init))
	}
	widths := append(append([]int(nil), hidden...), max(outputs, 1))
	fanIn := in
	for k, w := range widths {
		if w <= 0 {
			return nil, fmt.Errorf("%w: hidden layer %d has size %d (want at least 1)", errConfig, k, w)
		}
		if fanIn > maxWeights/w {
			return nil, fmt.Errorf("%w: layer %d has %d×%d weights (at most %d)", errConfig, k, fanIn, w, maxWeights)
		}
		fanIn = w
	}

	layers := make([]layer, len(widths))
	fanIn = in
	for k, w := range widths {
		a := act
		if k == len(widths)-1 {
			a = Identity
		}
		l := layer{
			weight: tensor.New(tensor.WithShape(fanIn, w), tensor.Of(dt)),
			bias:   tensor.New(tensor.WithShape(w), tensor.Of(dt)),
			act:    a,
		}
		if err := init.resolve(a).fill(l.weight, rng); err != nil {
			return nil, err
		}
		layers[k] = l
		fanIn = w
	}
	return layers, nil
}

func weightName(k int) string { return fmt.Sprintf("layer%d.weight", k) }
func biasName(k int) string   { return fmt.Sprintf("layer%d.bias", k) }
func loraAName(k int) string  { return fmt.Sprintf("layer%d.lora_a", k) }
func loraBName(k int) string  { return fmt.Sprintf("layer%d.lora_b", k) }

// Params returns the weight and bias of every layer, from the input to the output:
// "layer0.weight" of shape (n₀, n₁), "layer0.bias" of shape (n₁), "layer1.weight", … . A layer
// with a LoRA adapter (see [Transfer]) follows its bias with "layerk.lora_a", A of shape
// (r, n_in), and "layerk.lora_b", B of shape (n_out, r). Frozen parameters are marked so. The
// values are the model's own tensors.
func (n *network) Params() []Param {
	ps := make([]Param, 0, 2*len(n.layers))
	for k, l := range n.layers {
		ps = append(ps, Param{Name: weightName(k), Value: l.weight, Frozen: l.frozen},
			Param{Name: biasName(k), Value: l.bias, Frozen: l.frozen})
		if l.lora != nil {
			ps = append(ps, Param{Name: loraAName(k), Value: l.lora.a}, Param{Name: loraBName(k), Value: l.lora.b})
		}
	}
	return ps
}

// Outputs returns the number of scores per row: 1, or k for a model of k ≥ 2 outputs.
func (n *network) Outputs() int {
	if len(n.layers) == 0 {
		return 1
	}
	return n.layers[len(n.layers)-1].weight.Shape()[1]
}

// InputSize returns the number of features per row.
func (n *network) InputSize() int { return n.in }

// Dtype returns the dtype of the parameters and the input.
func (n *network) Dtype() tensor.Dtype { return n.dtype }

// Build adds the model to g for the batch x, a matrix of shape (B, InputSize()) and dtype
// Dtype() in g. It returns the scores, a vector of shape (B) or, for k ≥ 2 outputs, a matrix
// of shape (B, k), and the learnable nodes in Params order, bound to the model's parameter
// tensors (shared, not copied), frozen parameters included: a trainer differentiates with
// respect to the learnables of the parameters that are not [Param.Frozen], and gorgonia.Grad
// then adds no backward operations for the layers below the lowest of them. The learnables
// are named like the parameters, so g must not already hold nodes with those names: build a
// model once per graph.
//
// Each layer is one node for its affine map and one for a hidden layer's activation (a LoRA
// adapter's term is added between them with Gorgonia's own ops), and their gradients
// (gorgonia.Grad, or a LispMachine) are computed as those of Gorgonia's Mul, BroadcastAdd,
// Rectify and Tanh are, bit for bit. Its nodes write into tensors of their own, allocated at
// the first run and reused by every run after: a node's value is valid until the graph runs
// again.
func (n *network) Build(g *gorgonia.ExprGraph, x *gorgonia.Node) (scores *gorgonia.Node, learnables gorgonia.Nodes, err error) {
	if err := n.checkBatch(g, x); err != nil {
		return nil, nil, err
	}
	ps := n.Params()
	for _, p := range ps {
		if len(g.ByName(p.Name)) > 0 {
			return nil, nil, fmt.Errorf("%w: the graph already holds a node named %q (build a model once per graph)", ErrInput, p.Name)
		}
	}
	learnables = make(gorgonia.Nodes, len(ps))
	for i, p := range ps {
		learnables[i] = gorgonia.NewTensor(g, n.dtype, p.Value.Dims(),
			gorgonia.WithShape(p.Value.Shape()...), gorgonia.WithName(p.Name), gorgonia.WithValue(p.Value))
	}
	if n.dtype == tensor.Float32 {
		scores, err = buildLayers[float32](n, x, learnables)
	} else {
		scores, err = buildLayers[float64](n, x, learnables)
	}
	if err != nil {
		return nil, nil, err
	}
	return scores, learnables, nil
}

// buildLayers applies n's layers to the batch x with the learnables of Build, and returns the
// scores.
func buildLayers[T floats.Float](n *network, x *gorgonia.Node, learnables gorgonia.Nodes) (*gorgonia.Node, error) {
	rows := x.Shape()[0]
	ops := newGraphOps[T](rows)
	h, in, i := x, n.in, 0 // i: the layer's first learnable
	last := len(n.layers) - 1
	for k, l := range n.layers {
		out := l.weight.Shape()[1]
		vector := k == last && out == 1 && l.lora == nil
		z, err := gorgonia.ApplyOp(newAffineOp(ops, k, in, out, vector), h, learnables[i], learnables[i+1])
		if err == nil && l.lora != nil {
			z, err = l.lora.build(z, h, learnables[i+2], learnables[i+3])
			i += 2
		}
		i += 2
		if err != nil {
			return nil, fmt.Errorf("nn: layer %d: %w", k, err)
		}
		h = z
		if l.act != Identity {
			if h, err = gorgonia.ApplyOp(newActivationOp[T](k, l.act, z.Shape()), z); err != nil {
				return nil, fmt.Errorf("nn: layer %d: %w", k, err)
			}
		}
		in = out
	}
	if n.Outputs() == 1 && len(h.Shape()) == 2 { // an adapted one-column output layer
		s, err := gorgonia.Reshape(h, tensor.Shape{rows})
		if err != nil {
			return nil, fmt.Errorf("nn: scores: %w", err)
		}
		return s, nil
	}
	return h, nil
}

// checkBatch reports why x cannot be the input of n in g.
func (n *network) checkBatch(g *gorgonia.ExprGraph, x *gorgonia.Node) error {
	if g == nil || x == nil {
		return fmt.Errorf("%w: nil graph or input node", ErrInput)
	}
	if x.Graph() != g {
		return fmt.Errorf("%w: the input node belongs to another graph", ErrInput)
	}
	tt, ok := x.Type().(gorgonia.TensorType)
	if !ok || tt.Dims != 2 {
		return fmt.Errorf("%w: the input must be a matrix (rows × features), got type %v", ErrInput, x.Type())
	}
	if dt, ok := tt.Of.(tensor.Dtype); !ok || dt != n.dtype {
		return fmt.Errorf("%w: the input is %v, the model is %v", ErrInput, tt.Of, n.dtype)
	}
	s := x.Shape()
	if len(s) != 2 || s[0] < 1 || s[1] != n.in {
		return fmt.Errorf("%w: the input has shape %v, want (B, %d) with B ≥ 1", ErrInput, s, n.in)
	}
	return nil
}
