package train

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
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

var optimizerNames = [...]string{Adam: "adam", SGD: "sgd", Momentum: "momentum", RMSProp: "rmsprop"}

func (o Optimizer) String() string {
	if o >= 0 && int(o) < len(optimizerNames) {
		return optimizerNames[o]
	}
	return fmt.Sprintf("Optimizer(%d)", int(o))
}

// ParseOptimizer returns the optimiser called name: adam, sgd, momentum or rmsprop.
func ParseOptimizer(name string) (Optimizer, error) {
	for o, n := range optimizerNames {
		if n == name {
			return Optimizer(o), nil
		}
	}
	return 0, fmt.Errorf("train: unknown optimizer %q (want adam, sgd, momentum or rmsprop)", name)
}

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
	return nil, fmt.Errorf("%w: unknown optimizer %v", ErrConfig, o)
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
