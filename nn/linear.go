package nn

import "gorgonia.org/tensor"

// LinearConfig configures a linear scorer. The zero value of every field but In is a default.
type LinearConfig struct {
	In    int          // number of input features n; must be at least 1
	Dtype tensor.Dtype // tensor.Float64 (the zero value) or tensor.Float32
	Init  Init         // weight initialisation; the zero value, AutoInit, is Glorot here
	Seed  uint64       // initialisation seed; the same seed gives the same parameters
	// Outputs is the number k of scores per row, as in MLPConfig: 0 and 1 mean one score.
	Outputs int
}

// Linear is the linear scorer s = x·w + b (logistic regression when trained with
// cross-entropy): an [MLP] without hidden layers, under the name users look for. Its
// parameters are "layer0.weight", of shape (n, 1), and "layer0.bias", of shape (1).
// NewLinear(LinearConfig{In: n, Seed: s}) and NewMLP(MLPConfig{In: n, Seed: s}) build the same
// network with the same parameters, and a checkpoint of either loads into the other.
type Linear = MLP

// NewLinear returns an initialised linear scorer, or an error wrapping rocops.ErrConfig.
func NewLinear(cfg LinearConfig) (*Linear, error) {
	return NewMLP(MLPConfig{
		In: cfg.In, Init: cfg.Init, Seed: cfg.Seed, Dtype: cfg.Dtype, Outputs: cfg.Outputs,
	})
}
