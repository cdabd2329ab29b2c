package nn

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// errConfig is the package's rocops.ErrConfig: an invalid model configuration, activation or
// initialisation name, "nn: invalid setting: …".
var errConfig = check.Errorf("nn", rocops.ErrConfig, "")

var (
	// ErrInput reports an input a model cannot take: a batch node of the wrong shape or dtype,
	// rows that do not match the model's input size, a nil model, or a model whose parameters
	// are inconsistent.
	ErrInput = errors.New("nn: invalid input")
)

// Param is one learnable tensor of a model. Value is the model's own tensor, not a copy:
// writing to it changes the model.
//
// A frozen parameter is part of the model — its scores, checkpoints, Snapshot and Restore
// cover it — but training keeps it bit for bit: a trainer gives it no optimiser state and no
// update, and computes no gradient for it where it can skip it (a [Pass] leaves its gradient
// zero, and skips the backward work of the frozen layers below the lowest trainable one).
// Freezing is how a model trains, not what it computes: a checkpoint does not record it, and
// loads alike into a model whose same parameters are frozen or not. [Transfer] makes models
// with frozen layers and LoRA adapters.
type Param struct {
	Name   string // stable and unique within the model, such as "layer0.weight"
	Value  *tensor.Dense
	Frozen bool // kept as it is by training
}

// Model is a scorer: a function from a batch of rows to one score per row, with learnable
// parameters.
type Model interface {
	// Build adds the model to g for the input x, a matrix of shape (B, InputSize()) and
	// dtype Dtype() in g, and returns the score vector, of shape (B) — or for a model of
	// k ≥ 2 outputs (see [Outputs]) the score matrix, of shape (B, k) — and the learnable
	// nodes, in Params order. The learnables are bound to the model's parameter tensors, not
	// to copies: a solver updating their values updates the model, and so every other graph
	// built from it. Build a model at most once per graph.
	Build(g *gorgonia.ExprGraph, x *gorgonia.Node) (scores *gorgonia.Node, learnables gorgonia.Nodes, err error)
	// Params returns the model's parameters, always in the same order.
	Params() []Param
	// InputSize returns the number of features per row, n.
	InputSize() int
	// Dtype returns the dtype of the parameters and of the input, Float32 or Float64.
	Dtype() tensor.Dtype
}

// Describer is implemented by models that can describe their architecture in a line, such as
// "MLP(in=30, hidden=[64], activation=relu)". Checkpoints record the description and Load
// refuses a file written by a model with another one, which catches differences that leave
// the parameter shapes alike (an MLP's activation).
type Describer interface {
	Architecture() string
}

// architecture returns m's description, or "" for a model that has none.
func architecture(m Model) string {
	if d, ok := m.(Describer); ok {
		return d.Architecture()
	}
	return ""
}

// checkModel validates what the package relies on in any Model: a float32 or float64 dtype
// and parameters with unique non-empty names, contiguous values of that dtype, and shapes of
// at least one dimension, every dimension positive. It returns m.Params().
func checkModel(m Model) ([]Param, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil model", ErrInput)
	}
	dt := m.Dtype()
	if dt != tensor.Float64 && dt != tensor.Float32 {
		return nil, fmt.Errorf("%w: model dtype %v (want float32 or float64)", ErrInput, dt)
	}
	ps := m.Params()
	seen := make(map[string]bool, len(ps))
	for _, p := range ps {
		switch {
		case p.Name == "":
			return nil, fmt.Errorf("%w: a parameter has no name", ErrInput)
		case seen[p.Name]:
			return nil, fmt.Errorf("%w: two parameters are named %q", ErrInput, p.Name)
		case p.Value == nil:
			return nil, fmt.Errorf("%w: parameter %q has no value", ErrInput, p.Name)
		case p.Value.Dtype() != dt:
			return nil, fmt.Errorf("%w: parameter %q is %v in a %v model", ErrInput, p.Name, p.Value.Dtype(), dt)
		case !positiveShape(p.Value.Shape()):
			return nil, fmt.Errorf("%w: parameter %q has shape %v", ErrInput, p.Name, p.Value.Shape())
		case p.Value.RequiresIterator():
			return nil, fmt.Errorf("%w: parameter %q is a view, not a contiguous tensor", ErrInput, p.Name)
		}
		seen[p.Name] = true
	}
	return ps, nil
}

func positiveShape(s tensor.Shape) bool {
	_, ok := shapeSize(s, math.MaxInt)
	return ok
}

// Snapshot returns a copy of m's parameters: the same names, in the same order, with fresh
// tensors holding the current values. Later changes to m do not affect it.
func Snapshot(m Model) ([]Param, error) {
	ps, err := checkModel(m)
	if err != nil {
		return nil, err
	}
	out := make([]Param, len(ps))
	for i, p := range ps {
		out[i] = Param{Name: p.Name, Value: p.Value.Clone().(*tensor.Dense), Frozen: p.Frozen}
	}
	return out, nil
}

// Restore copies the values of saved, as returned by Snapshot, into m's parameters in place,
// so that every graph built from m sees them. saved must match m.Params() one to one, in
// order, name, shape and dtype; otherwise Restore changes nothing and returns an error
// wrapping ErrArchitecture (a different number or names of parameters, a shape or a dtype).
func Restore(m Model, saved []Param) error {
	ps, err := checkModel(m)
	if err != nil {
		return err
	}
	if err := matchParams(ps, saved); err != nil {
		return err
	}
	return copyParams(ps, saved)
}

// matchParams reports how saved differs from the model's parameters ps in number, names,
// dtypes or shapes.
func matchParams(ps, saved []Param) error {
	if len(saved) != len(ps) {
		return fmt.Errorf("%w: %d parameters saved, the model has %d", ErrArchitecture, len(saved), len(ps))
	}
	for i, p := range ps {
		s := saved[i]
		switch {
		case s.Name != p.Name:
			return fmt.Errorf("%w: saved parameter %d is %q, the model's is %q", ErrArchitecture, i, s.Name, p.Name)
		case s.Value == nil:
			return fmt.Errorf("%w: saved parameter %q has no value", ErrInput, s.Name)
		case s.Value.Dtype() != p.Value.Dtype():
			return fmt.Errorf("%w: saved parameter %q is %v, the model's is %v", ErrArchitecture, s.Name, s.Value.Dtype(), p.Value.Dtype())
		case !s.Value.Shape().Eq(p.Value.Shape()):
			return fmt.Errorf("%w: saved parameter %q has shape %v, the model's has %v", ErrArchitecture, s.Name, s.Value.Shape(), p.Value.Shape())
		case s.Value.RequiresIterator():
			return fmt.Errorf("%w: saved parameter %q is a view, not a contiguous tensor", ErrInput, s.Name)
		}
	}
	return nil
}

// copyParams copies the values of saved into ps, which matchParams has accepted.
func copyParams(ps, saved []Param) error {
	for i, p := range ps {
		if err := tensor.Copy(p.Value, saved[i].Value); err != nil {
			return fmt.Errorf("nn: restoring %q: %w", p.Name, err)
		}
	}
	return nil
}
