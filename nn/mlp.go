package nn

import (
	"fmt"

	"gorgonia.org/tensor"
)

// MLPConfig configures a multilayer perceptron. The zero value of every field but In is a
// default.
type MLPConfig struct {
	In         int          // number of input features n; must be at least 1
	Hidden     []int        // sizes of the hidden layers, each at least 1; none gives a linear scorer
	Activation Activation   // φ after every hidden layer; the zero value is ReLU
	Init       Init         // the zero value, AutoInit: He before ReLU, Glorot elsewhere (and at the output)
	Seed       uint64       // initialisation seed; the same seed gives the same parameters
	Dtype      tensor.Dtype // tensor.Float64 (the zero value) or tensor.Float32
}

// MLP is a multilayer perceptron ending in a linear layer with one output, the score (a
// logit). Layer k, counted from 0 at the input, has parameters "layerk.weight" and
// "layerk.bias"; the last one is the output layer.
type MLP struct {
	network
	hidden []int
	act    Activation
}

// NewMLP returns an initialised MLP, or an error wrapping ErrConfig.
func NewMLP(cfg MLPConfig) (*MLP, error) {
	n, err := newNetwork(cfg.In, cfg.Hidden, cfg.Activation, cfg.Init, cfg.Seed, cfg.Dtype)
	if err != nil {
		return nil, err
	}
	return &MLP{network: *n, hidden: append([]int(nil), cfg.Hidden...), act: cfg.Activation}, nil
}

// Architecture describes the model, as in "MLP(in=30, hidden=[64 32], activation=relu)", or
// "Linear(in=30)" without hidden layers, where the activation plays no part.
func (m *MLP) Architecture() string {
	if len(m.hidden) == 0 {
		return fmt.Sprintf("Linear(in=%d)", m.in)
	}
	return fmt.Sprintf("MLP(in=%d, hidden=%v, activation=%v)", m.in, m.hidden, m.act)
}
