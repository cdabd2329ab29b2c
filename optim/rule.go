package optim

import (
	"fmt"
	"math"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/enum"
	"github.com/rocops/rocops/internal/floats"
)

// Rule selects the update rule. Gorgonia's AdamW (which never updates the weights),
// AdaGrad (which ignores the learning rate) and Barzilai–Borwein (which fails on float32) are
// deliberately not offered; weight decay is applied by the trainer for every optimiser.
type Rule int

const (
	// Adam is Adam with β₁ = 0.9, β₂ = 0.999, ε = 1e-8 (the zero value).
	Adam Rule = iota
	// SGD is plain stochastic gradient descent.
	SGD
	// Momentum is SGD with heavy-ball momentum 0.9.
	Momentum
	// RMSProp is RMSProp with decay 0.999 and ε = 1e-8 (Gorgonia's defaults).
	RMSProp
)

var rules = enum.New[Rule]("optimizer", rocops.ErrConfig, "adam", "sgd", "momentum", "rmsprop")

// String returns the optimiser's name: "adam", "sgd", "momentum" or "rmsprop".
func (o Rule) String() string { return rules.String(o) }

// ParseRule returns the optimiser named name, in any case: adam, sgd, momentum or
// rmsprop. An unknown name gives an error wrapping rocops.ErrConfig.
func ParseRule(name string) (Rule, error) { return rules.Parse(name) }

// MarshalText returns the optimiser's name, so that an Rule is a JSON field and, through
// flag.TextVar, a command-line flag.
func (o Rule) MarshalText() ([]byte, error) { return rules.MarshalText(o) }

// UnmarshalText sets o to the optimiser named text, as ParseRule does.
func (o *Rule) UnmarshalText(text []byte) error { return rules.UnmarshalText(o, text) }

// DefaultRate is the learning rate used when Config.LearningRate is 0.
func (o Rule) DefaultRate() float64 {
	switch o {
	case SGD, Momentum:
		return 0.05
	default:
		return 0.005
	}
}

// Stepper applies one update rule to a fixed list of parameter tensors, in place, from
// gradient tensors of the same shapes and dtype. It keeps its state (moments, velocities)
// per tensor and allocates nothing after the first step. The rules and their order of
// operations are Gorgonia's solvers' (so that results match them to the bit), with the
// gradient g, learning rate η, and per-coordinate state:
//
//	SGD:      w ← w + (−η·g)
//	Momentum: c ← μ·c + (−η·g), w ← w + c                          μ = 0.9
//	RMSProp:  c ← ρ·c + (1−ρ)·g², w ← w + (−η·g)/√(c + ε)          ρ = 0.999, ε = 1e-8
//	Adam:     m ← β₁·m + (1−β₁)·g, v ← β₂·v + (1−β₂)·g²,
//	          w ← w + (−η·m/(1−β₁ᵗ)) / (√(v/(1−β₂ᵗ)) + ε)           β₁ = 0.9, β₂ = 0.999, ε = 1e-8
//
// where t counts the steps. Arithmetic runs in the tensors' dtype.
type Stepper struct {
	kind  Rule
	lr    float64
	steps int
	state [][2]any // per tensor: two state slices of its element type, allocated at the first step
}

// Validate reports an unknown rule as rocops.ErrConfig.
func (o Rule) Validate() error {
	if !rules.Valid(o) {
		return check.Errorf("optim", rocops.ErrConfig, "unknown optimizer %v", o)
	}
	return nil
}

// NewStepper returns the Stepper of rule o at learning rate lr; an unknown rule is
// rocops.ErrConfig.
func NewStepper(o Rule, lr float64) (*Stepper, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	return &Stepper{kind: o, lr: lr}, nil
}

// Step updates params[i] from grads[i] for every i.
func (op *Stepper) Step(params, grads []*tensor.Dense) error {
	if len(params) != len(grads) {
		return fmt.Errorf("optim: %d parameters but %d gradients", len(params), len(grads))
	}
	if op.state == nil {
		op.state = make([][2]any, len(params))
	}
	op.steps++
	for i, p := range params {
		g := grads[i]
		if !p.Shape().Eq(g.Shape()) || p.Dtype() != g.Dtype() {
			return fmt.Errorf("optim: parameter %d is %v %v but its gradient is %v %v", i, p.Dtype(), p.Shape(), g.Dtype(), g.Shape())
		}
		switch p.Dtype() {
		case tensor.Float64:
			update(op, &op.state[i], p.Float64s(), g.Float64s())
		case tensor.Float32:
			update(op, &op.state[i], p.Float32s(), g.Float32s())
		default:
			return fmt.Errorf("optim: unsupported parameter dtype %v", p.Dtype())
		}
	}
	return nil
}

func update[T floats.Float](op *Stepper, st *[2]any, w, g []T) {
	if st[0] == nil {
		st[0], st[1] = make([]T, len(w)), make([]T, len(w))
	}
	a, b := st[0].([]T), st[1].([]T)
	negEta := T(-op.lr)
	switch op.kind {
	case SGD:
		for i := range w {
			w[i] += g[i] * negEta
		}
	case Momentum:
		const mu = 0.9
		for i := range w {
			a[i] = a[i]*mu + g[i]*negEta
			w[i] += a[i]
		}
	case RMSProp:
		rho, eps := 0.999, T(1e-8) // variables: 1 − ρ rounds at run time, as in Gorgonia
		omRho := T(1 - rho)
		for i := range w {
			a[i] = a[i]*T(rho) + g[i]*g[i]*omRho
			w[i] += T(1/math.Sqrt(float64(a[i]+eps))) * (g[i] * negEta)
		}
	default: // Adam
		beta1, beta2, eps := 0.9, 0.999, T(1e-8) // variables: 1 − β rounds at run time, as in Gorgonia
		omB1, omB2 := T(1)-T(beta1), T(1)-T(beta2)
		c1 := T(1) / T(1-math.Pow(beta1, float64(op.steps)))
		c2 := T(1) / T(1-math.Pow(beta2, float64(op.steps)))
		for i := range w {
			a[i] = g[i]*omB1 + a[i]*T(beta1)
			b[i] = g[i]*g[i]*omB2 + b[i]*T(beta2)
			vHat := T(math.Sqrt(float64(b[i]*c2))) + eps
			w[i] += (a[i] * c1 * negEta) / vHat
		}
	}
}

// Decay applies decoupled weight decay, w ← (1 − η·λ)·w with learning rate η and decay λ,
// to every parameter with two or more dimensions (weight matrices, not biases). Unlike an L2
// term added to the gradient, it is not rescaled by Adam's or RMSProp's per-coordinate
// step sizes (Loshchilov and Hutter, "Decoupled weight decay regularization", ICLR 2019).
func Decay(params []*tensor.Dense, lr, lambda float64) {
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

func scale[T floats.Float](xs []T, k float64) {
	for i := range xs {
		xs[i] = T(float64(xs[i]) * k)
	}
}
