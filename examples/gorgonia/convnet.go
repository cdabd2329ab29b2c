package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/nn"
)

// convNet is a model written by hand in a Gorgonia graph: a 28×28 image, a 3×3 convolution of
// C filters with padding 1, ReLU, 2×2 max pooling, and a dense layer to one score,
//
//	s = vec(pool(φ(K ⋆ x)))·w + b,
//
// where x is an image (one channel), K ∈ ℝ^(C×1×3×3) the filters, ⋆ Gorgonia's Conv2d (a
// cross-correlation, as in every deep-learning library), φ = ReLU, pool the maximum over each
// 2×2 block (C×14×14 values), vec their row-major flattening, w ∈ ℝ^(196·C) and b ∈ ℝ. It
// implements nn.Model and nn.Describer: package train trains it through its graph (the graph
// step: gorgonia.Grad and a TapeMachine), nn.Scores scores it through its graph, and nn.Save
// and nn.Load keep its parameters.
type convNet struct {
	side    int // the images' height and width
	filters int
	dtype   tensor.Dtype
	params  []nn.Param // conv.weight (C, 1, 3, 3), dense.weight (196·C, 1), dense.bias (1)
}

// newConvNet returns a convNet of side×side images, its filters drawn with He's rule
// (N(0, 2/9), the fan-in of a 3×3 filter) and the dense weights with Glorot's
// (U(±√(6/(196·C + 1)))) from a PCG generator of seed; the bias starts at zero.
func newConvNet(side, filters int, dt tensor.Dtype, seed uint64) (*convNet, error) {
	if side < 2 || side%2 != 0 || filters < 1 {
		return nil, fmt.Errorf("convnet: %d×%d images and %d filters (want an even side ≥ 2, filters ≥ 1)", side, side, filters)
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f6e76)) // "conv"
	flat := filters * (side / 2) * (side / 2)
	kernel := make([]float64, filters*9)
	he := math.Sqrt(2.0 / 9)
	for i := range kernel {
		kernel[i] = he * rng.NormFloat64()
	}
	dense := make([]float64, flat)
	glorot := math.Sqrt(6 / float64(flat+1))
	for i := range dense {
		dense[i] = glorot * (2*rng.Float64() - 1)
	}
	m := &convNet{side: side, filters: filters, dtype: dt}
	m.params = []nn.Param{
		{Name: "conv.weight", Value: dense64(dt, kernel, filters, 1, 3, 3)},
		{Name: "dense.weight", Value: dense64(dt, dense, flat, 1)},
		{Name: "dense.bias", Value: dense64(dt, []float64{0}, 1)},
	}
	return m, nil
}

// dense64 returns xs as a tensor of dtype dt and the given shape.
func dense64(dt tensor.Dtype, xs []float64, shape ...int) *tensor.Dense {
	if dt == tensor.Float32 {
		x32 := make([]float32, len(xs))
		for i, v := range xs {
			x32[i] = float32(v)
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(x32))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(xs))
}

// Params implements nn.Model.
func (m *convNet) Params() []nn.Param { return m.params }

// InputSize implements nn.Model: one pixel per feature.
func (m *convNet) InputSize() int { return m.side * m.side }

// Dtype implements nn.Model.
func (m *convNet) Dtype() tensor.Dtype { return m.dtype }

// Architecture implements nn.Describer, so that a checkpoint of another network is refused.
func (m *convNet) Architecture() string {
	return fmt.Sprintf("ConvNet(side=%d, filters=%d, kernel=3, pool=2)", m.side, m.filters)
}

// Build implements nn.Model: the score vector of the batch x, (B, side²), and the learnables,
// bound to the model's own tensors, in Params order.
func (m *convNet) Build(g *gorgonia.ExprGraph, x *gorgonia.Node) (*gorgonia.Node, gorgonia.Nodes, error) {
	if x == nil || x.Graph() != g || x.Dims() != 2 || x.Shape()[1] != m.InputSize() || x.Dtype() != m.dtype {
		return nil, nil, fmt.Errorf("%w: convnet: want a (B, %d) %v matrix of this graph", nn.ErrInput, m.InputSize(), m.dtype)
	}
	var learnables gorgonia.Nodes
	for _, p := range m.params {
		learnables = append(learnables, gorgonia.NewTensor(g, m.dtype, p.Value.Dims(), gorgonia.WithShape(p.Value.Shape()...),
			gorgonia.WithName(p.Name), gorgonia.WithValue(p.Value)))
	}
	b := x.Shape()[0]
	half := m.side / 2
	steps := []func(*gorgonia.Node) (*gorgonia.Node, error){
		func(n *gorgonia.Node) (*gorgonia.Node, error) {
			return gorgonia.Reshape(n, tensor.Shape{b, 1, m.side, m.side})
		},
		func(n *gorgonia.Node) (*gorgonia.Node, error) {
			return gorgonia.Conv2d(n, learnables[0], tensor.Shape{3, 3}, []int{1, 1}, []int{1, 1}, []int{1, 1})
		},
		gorgonia.Rectify,
		func(n *gorgonia.Node) (*gorgonia.Node, error) {
			return gorgonia.MaxPool2D(n, tensor.Shape{2, 2}, []int{0, 0}, []int{2, 2})
		},
		func(n *gorgonia.Node) (*gorgonia.Node, error) {
			return gorgonia.Reshape(n, tensor.Shape{b, m.filters * half * half})
		},
		func(n *gorgonia.Node) (*gorgonia.Node, error) { return gorgonia.Mul(n, learnables[1]) },
		func(n *gorgonia.Node) (*gorgonia.Node, error) {
			return gorgonia.BroadcastAdd(n, learnables[2], nil, []byte{0})
		},
		func(n *gorgonia.Node) (*gorgonia.Node, error) { return gorgonia.Reshape(n, tensor.Shape{b}) },
	}
	h := x
	for k, step := range steps {
		var err error
		if h, err = step(h); err != nil {
			return nil, nil, fmt.Errorf("convnet: step %d: %w", k, err)
		}
	}
	return h, learnables, nil
}
