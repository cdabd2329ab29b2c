package train

import (
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/enum"
)

// Optimizer selects the update rule. Gorgonia's AdamW (which never updates the weights),
// AdaGrad (which ignores the learning rate) and Barzilai–Borwein (which fails on float32) are
// deliberately not offered; weight decay is applied by the trainer for every optimiser.
type Optimizer int

const (
	// Adam is Adam with β₁ = 0.9, β₂ = 0.999, ε = 1e-8 (the zero value).
	Adam Optimizer = iota
	// SGD is plain stochastic gradient descent.
	SGD
	// Momentum is SGD with heavy-ball momentum 0.9.
	Momentum
	// RMSProp is RMSProp with decay 0.999 and ε = 1e-8 (Gorgonia's defaults).
	RMSProp
)

var optimizers = enum.New[Optimizer]("optimizer", ErrConfig, "adam", "sgd", "momentum", "rmsprop")

// String returns the optimiser's name: "adam", "sgd", "momentum" or "rmsprop".
func (o Optimizer) String() string { return optimizers.String(o) }

// ParseOptimizer returns the optimiser named name, in any case: adam, sgd, momentum or
// rmsprop. An unknown name gives an error wrapping [ErrConfig].
func ParseOptimizer(name string) (Optimizer, error) { return optimizers.Parse(name) }

// MarshalText returns the optimiser's name, so that an Optimizer is a JSON field and, through
// flag.TextVar, a command-line flag.
func (o Optimizer) MarshalText() ([]byte, error) { return optimizers.MarshalText(o) }

// UnmarshalText sets o to the optimiser named text, as ParseOptimizer does.
func (o *Optimizer) UnmarshalText(text []byte) error { return optimizers.UnmarshalText(o, text) }

// defaultLearningRate is the learning rate used when Config.LearningRate is 0.
func (o Optimizer) defaultLearningRate() float64 {
	switch o {
	case SGD, Momentum:
		return 0.05
	default:
		return 0.005
	}
}

func (o Optimizer) solver(lr float64) (gorgonia.Solver, error) {
	eta := gorgonia.WithLearnRate(lr)
	switch o {
	case Adam:
		return gorgonia.NewAdamSolver(eta), nil
	case SGD:
		return gorgonia.NewVanillaSolver(eta), nil
	case Momentum:
		return gorgonia.NewMomentum(eta, gorgonia.WithMomentum(0.9)), nil
	case RMSProp:
		return gorgonia.NewRMSPropSolver(eta), nil
	}
	return nil, configError("unknown optimizer %v", o)
}

// decay applies decoupled weight decay, w ← (1 − η·λ)·w with learning rate η and decay λ,
// to every parameter with two or more dimensions (weight matrices, not biases). Unlike an L2
// term added to the gradient, it is not rescaled by Adam's or RMSProp's per-coordinate
// step sizes (Loshchilov and Hutter, "Decoupled weight decay regularization", ICLR 2019).
func decay(params []*tensor.Dense, lr, lambda float64) {
	if lambda == 0 {
		return
	}
	keep := 1 - lr*lambda
	for _, p := range params {
		if p.Dims() < 2 {
			continue
		}
		switch d := p.Data().(type) {
		case []float64:
			scale(d, keep)
		case []float32:
			scale(d, keep)
		}
	}
}

func scale[T float32 | float64](xs []T, k float64) {
	for i := range xs {
		xs[i] = T(float64(xs[i]) * k)
	}
}
