package nn

import (
	"cmp"
	"fmt"
	"math"
	"strconv"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TransferConfig says how [Transfer] builds a model from a trained MLP, the base: which of its
// layers to keep, the new head above them, which kept layers are frozen, and which carry LoRA
// adapters. The zero value keeps the base's body (every layer but its output layer), trainable,
// under a new output layer of one score.
type TransferConfig struct {
	// Body is the number of the base's layers kept, counted from the input (layer 0); 0 keeps
	// every layer but the base's output layer. Body equal to the base's number of layers keeps
	// the output layer too, and adds no head: Hidden and Outputs must then be unset.
	Body int
	// Hidden and Outputs shape the new head, as in MLPConfig: hidden layers of these sizes,
	// each followed by the base's activation, then an output layer of Outputs scores (0 and 1
	// mean one score). The head's input is the last kept layer's output (the base's input when
	// no layer is kept).
	Hidden  []int
	Outputs int
	// Freeze is the number of kept layers, counted from the input, whose weight and bias are
	// frozen (see [Param]); 0 freezes none, Body (or the base's body size when Body is 0) freezes
	// the whole body.
	Freeze int
	// Rank is the rank r of the LoRA adapters, 0 for none. With r ≥ 1 every kept layer listed
	// in Adapt (every kept layer when Adapt is nil) gets an adapter, and its weight and bias are
	// frozen.
	Rank  int
	Adapt []int
	// Alpha is the LoRA scale's numerator α: an adapter adds s·(h·Aᵀ)·Bᵀ with s = α/r. The zero
	// value means α = r, s = 1.
	Alpha float64
	// Init and Seed initialise the new head as MLPConfig's do, and then the adapters' A matrices
	// (see Transfer), from one generator: the head's weights first, layer by layer, then A of each
	// adapted layer from the input up. The same Seed gives the same head whatever the adapters.
	Init Init
	Seed uint64
}

// adapter is a layer's LoRA adapter: the layer computes h·W + b + s·(h·Aᵀ)·Bᵀ.
type adapter struct {
	a     *tensor.Dense // A, shape (r, n_in), drawn at the start
	b     *tensor.Dense // B, shape (n_out, r), zero at the start
	alpha float64       // α; the scale is s = α/r
}

// rank returns r.
func (a *adapter) rank() int { return a.a.Shape()[0] }

// scale returns s = α/r.
func (a *adapter) scale() float64 { return a.alpha / float64(a.rank()) }

// Transfer returns a new MLP made of the first layers of base (its body, copied) and a new
// head, for transfer learning and parameter-efficient fine-tuning (see cfg). base is not
// changed, nor shared: the new model holds copies of the kept layers' parameters, frozen or
// not, with LoRA adapters where cfg asks.
//
// A LoRA adapter of rank r on a layer of weight W (n_in × n_out, this package's layout: the
// transpose of the out × in matrix of Hu et al., "LoRA: low-rank adaptation of large language
// models", arXiv 2106.09685) adds two trainable matrices, A (r × n_in) and B (n_out × r), and
// freezes W and the bias b: the layer computes
//
//	z = h·W + b + s·(h·Aᵀ)·Bᵀ,   s = α/r,
//
// which is h·(W + s·(B·A)ᵀ) + b: the weight moves by a matrix of rank at most r while
// r·(n_in + n_out) parameters train instead of n_in·n_out. B starts at zero, so the adapted
// layer computes what the base layer computes, bit for bit (a score that is exactly −0 reads
// +0, the only exception); A starts with every entry drawn uniformly from (−1/√n_in, 1/√n_in),
// as the reference implementation draws it (PyTorch's default for a linear layer). As in Hu et
// al., α is a constant (by default r, s = 1): with Adam, changing α acts like changing the
// learning rate. The new head is initialised as NewMLP initialises an MLP, by cfg.Init, with
// zero biases.
//
// The model's Params are the kept layers' (layer k keeps its name "layerk.weight"), each
// adapted layer's "layerk.lora_a" and "layerk.lora_b" after its bias, then the head's. Its
// Architecture is an MLP's of the same layers — so a frozen body with a new head is an
// ordinary MLP to a checkpoint or to package deploy — with ", lora=[k …], rank=r, alpha=α"
// after it when it has adapters. To load a checkpoint of a transferred model, build the same
// model (NewMLP of the base's config, then Transfer with the same cfg) and Load into it.
//
// Which parameters are frozen is cfg's alone: the base's own frozen flags play no part. Errors
// wrap [rocops.ErrConfig] for a setting outside its domain and ErrInput for a nil or empty
// base or one with adapters, whose layers compute more than their weight and bias.
func Transfer(base *MLP, cfg TransferConfig) (*MLP, error) {
	if base == nil || len(base.layers) == 0 {
		return nil, fmt.Errorf("%w: a nil or empty base model", ErrInput)
	}
	for k, l := range base.layers {
		if l.lora != nil {
			return nil, fmt.Errorf("%w: the base has a LoRA adapter on layer %d (Transfer takes a model without adapters)", ErrInput, k)
		}
	}
	nl := len(base.layers)
	body := cmp.Or(cfg.Body, nl-1)
	alpha := cmp.Or(cfg.Alpha, float64(cfg.Rank))
	switch {
	case cfg.Body < 0 || cfg.Body > nl:
		return nil, fmt.Errorf("%w: Body = %d (want 0 to the base's %d layers)", errConfig, cfg.Body, nl)
	case body == nl && (len(cfg.Hidden) > 0 || cfg.Outputs != 0):
		return nil, fmt.Errorf("%w: Body = %d keeps the base's output layer, so no head: Hidden and Outputs must be unset", errConfig, body)
	case cfg.Outputs < 0:
		return nil, fmt.Errorf("%w: Outputs = %d (want 0 or 1 for one score, or k ≥ 2)", errConfig, cfg.Outputs)
	case cfg.Freeze < 0 || cfg.Freeze > body:
		return nil, fmt.Errorf("%w: Freeze = %d (want 0 to the %d kept layers)", errConfig, cfg.Freeze, body)
	case cfg.Rank < 0:
		return nil, fmt.Errorf("%w: Rank = %d (want 0 for no adapters, or r ≥ 1)", errConfig, cfg.Rank)
	case cfg.Rank == 0 && (cfg.Adapt != nil || cfg.Alpha != 0):
		return nil, fmt.Errorf("%w: Adapt and Alpha need Rank ≥ 1", errConfig)
	case !(alpha >= 0) || math.IsInf(alpha, 0):
		return nil, fmt.Errorf("%w: Alpha = %v (want a finite α ≥ 0)", errConfig, cfg.Alpha)
	case !inits.Valid(cfg.Init):
		return nil, fmt.Errorf("%w: unknown initialisation %d", errConfig, int(cfg.Init))
	}
	adapt := make([]bool, body)
	if cfg.Rank > 0 && cfg.Adapt == nil {
		for k := range adapt {
			adapt[k] = true
		}
	}
	for _, k := range cfg.Adapt {
		if k < 0 || k >= body || adapt[k] {
			return nil, fmt.Errorf("%w: Adapt = %v (want distinct layers 0 to %d, the kept ones)", errConfig, cfg.Adapt, body-1)
		}
		adapt[k] = true
	}

	m := &MLP{network: network{in: base.in, dtype: base.dtype}, act: base.act}
	for k, l := range base.layers[:body] {
		w, b := l.weight.Clone().(*tensor.Dense), l.bias.Clone().(*tensor.Dense)
		m.layers = append(m.layers, layer{weight: w, bias: b, act: l.act, frozen: k < cfg.Freeze || adapt[k]})
	}
	rng := newRand(cfg.Seed)
	if body < nl {
		fanIn := m.in
		if body > 0 {
			fanIn = m.layers[body-1].weight.Shape()[1]
		}
		head, err := newLayers(fanIn, cfg.Hidden, cfg.Outputs, base.act, cfg.Init, m.dtype, rng)
		if err != nil {
			return nil, fmt.Errorf("%w (the new head)", err)
		}
		m.layers = append(m.layers, head...)
	}
	for k := range body {
		if !adapt[k] {
			continue
		}
		l := &m.layers[k]
		in, out := l.weight.Shape()[0], l.weight.Shape()[1]
		if cfg.Rank > maxWeights/max(in, out) {
			return nil, fmt.Errorf("%w: rank %d adapters on layer %d (%d×%d) are too large", errConfig, cfg.Rank, k, in, out)
		}
		l.lora = &adapter{
			a:     tensor.New(tensor.WithShape(cfg.Rank, in), tensor.Of(m.dtype)),
			b:     tensor.New(tensor.WithShape(out, cfg.Rank), tensor.Of(m.dtype)),
			alpha: alpha,
		}
		bound := 1 / math.Sqrt(float64(in))
		draw := func() float64 { return bound * (2*rng.Float64() - 1) }
		switch d := l.lora.a.Data().(type) {
		case []float64:
			fillWith(d, draw)
		case []float32:
			fillWith(d, draw)
		}
	}
	for _, l := range m.layers[:len(m.layers)-1] {
		m.hidden = append(m.hidden, l.weight.Shape()[1])
	}
	return m, nil
}

// build returns z + s·(h·Aᵀ)·Bᵀ for the learnables a and b of the adapter, scaling h·Aᵀ
// (rows × r) before the second product, as a Pass does.
func (ad *adapter) build(z, h, a, b *gorgonia.Node) (*gorgonia.Node, error) {
	at, err := gorgonia.Transpose(a)
	if err != nil {
		return nil, err
	}
	u, err := gorgonia.Mul(h, at)
	if err != nil {
		return nil, err
	}
	if s := ad.scale(); s != 1 {
		var sn *gorgonia.Node
		if z.Dtype() == tensor.Float32 {
			sn = gorgonia.NewConstant(float32(s))
		} else {
			sn = gorgonia.NewConstant(s)
		}
		if u, err = gorgonia.HadamardProd(u, sn); err != nil {
			return nil, err
		}
	}
	bt, err := gorgonia.Transpose(b)
	if err != nil {
		return nil, err
	}
	d, err := gorgonia.Mul(u, bt)
	if err != nil {
		return nil, err
	}
	return gorgonia.Add(z, d)
}

// loraSuffix returns ", lora=[k …], rank=r, alpha=α" for a network with adapters, "" for one
// without.
func (n *network) loraSuffix() string {
	var adapted []int
	var rank int
	var alpha float64
	for k, l := range n.layers {
		if l.lora != nil {
			adapted = append(adapted, k)
			rank, alpha = l.lora.rank(), l.lora.alpha
		}
	}
	if adapted == nil {
		return ""
	}
	return fmt.Sprintf(", lora=%v, rank=%d, alpha=%s", adapted, rank, strconv.FormatFloat(alpha, 'g', -1, 64))
}

// lowestTrainable returns the lowest layer with a trainable parameter (not frozen, or an
// adapter's), or len(n.layers) when every parameter is frozen.
func (n *network) lowestTrainable() int {
	for k, l := range n.layers {
		if !l.frozen || l.lora != nil {
			return k
		}
	}
	return len(n.layers)
}
