package nn

import (
	"fmt"

	"gorgonia.org/tensor"
)

// LinearConfig configures a linear scorer. The zero value of every field but In is a default.
type LinearConfig struct {
	In    int          // number of input features n; must be at least 1
	Dtype tensor.Dtype // tensor.Float64 (the zero value) or tensor.Float32
	Init  Init         // weight initialisation; the zero value, AutoInit, is Glorot here
	Seed  uint64       // initialisation seed; the same seed gives the same parameters
}

// Linear is the linear scorer s = x·w + b (logistic regression when trained with
// cross-entropy). Its parameters are "layer0.weight", of shape (n, 1), and "layer0.bias", of
// shape (1).
type Linear struct{ network }

// NewLinear returns an initialised linear scorer, or an error wrapping ErrConfig.
func NewLinear(cfg LinearConfig) (*Linear, error) {
	n, err := newNetwork(cfg.In, nil, Identity, cfg.Init, cfg.Seed, cfg.Dtype)
	if err != nil {
		return nil, err
	}
	return &Linear{*n}, nil
}

// Architecture describes the model, as in "Linear(in=30)".
func (l *Linear) Architecture() string { return fmt.Sprintf("Linear(in=%d)", l.in) }
