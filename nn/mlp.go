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
	// Outputs is the number k of scores per row, one per class; 0 and 1 mean one score. With
	// k ≥ 2 the output layer has k columns and Build returns a (B, k) score matrix.
	Outputs int
}

// MLP is a multilayer perceptron ending in a linear layer with one output, the score (a
// logit), or with k outputs, one score per class (MLPConfig.Outputs). Layer k, counted from 0
// at the input, has parameters "layerk.weight" and "layerk.bias"; the last one is the output
// layer. Without hidden layers it is the linear scorer s = x·w + b, whose parameters are
// "layer0.weight", of shape (n, 1), and "layer0.bias", of shape (1). [Transfer] makes an MLP
// from another one's layers, with frozen layers and LoRA adapters.
type MLP struct {
	network
	hidden []int
	act    Activation
}

// NewMLP returns an initialised MLP, or an error wrapping [rocops.ErrConfig].
func NewMLP(cfg MLPConfig) (*MLP, error) {
	n, err := newNetwork(cfg.In, cfg.Hidden, cfg.Outputs, cfg.Activation, cfg.Init, cfg.Seed, cfg.Dtype)
	if err != nil {
		return nil, err
	}
	return &MLP{network: *n, hidden: append([]int(nil), cfg.Hidden...), act: cfg.Activation}, nil
}

// Architecture describes the model, as in "MLP(in=30, hidden=[64 32], activation=relu)", or
// "Linear(in=30)" without hidden layers, where the activation plays no part; a model of k ≥ 2
// outputs adds ", outputs=k" ("Linear(in=30, outputs=3)"). A one-output model reads as before
// outputs existed, so its older checkpoints load. A model with LoRA adapters ([Transfer]) ends
// in ", lora=[k …], rank=r, alpha=α", its adapted layers and their rank and α
// ("MLP(in=784, hidden=[256 128], activation=relu, lora=[0 1], rank=4, alpha=4)"). Frozen
// parameters change nothing in it.
func (m *MLP) Architecture() string {
	var out string
	if k := m.Outputs(); k > 1 {
		out = fmt.Sprintf(", outputs=%d", k)
	}
	out += m.loraSuffix()
	if len(m.hidden) == 0 {
		return fmt.Sprintf("Linear(in=%d%s)", m.in, out)
	}
	return fmt.Sprintf("MLP(in=%d, hidden=%v, activation=%v%s)", m.in, m.hidden, m.act, out)
}
