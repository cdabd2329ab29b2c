package deploy

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// ModelSpec describes a model well enough to rebuild it before its parameters are read: the
// architecture line the model gives as an [nn.Describer], which its checkpoint records too,
// and its dtype. Load rebuilds every model package nn makes:
//
//	Linear(in=n)                                   nn.NewMLP without hidden layers
//	MLP(in=n, hidden=[h₁ h₂ …], activation=φ)      nn.NewMLP, φ one of relu, tanh, identity
//	Linear(in=n, outputs=k)                        the same with k outputs (nn.MLPConfig.Outputs)
//	MLP(in=n, hidden=[h₁ h₂ …], activation=φ, outputs=k)
//
// where n is the number of input features, h₁, h₂, … the hidden layer sizes and k, from 2 to
// data.MaxClasses, the number of outputs of a multi-class or multi-label model (one score per
// class or label); without ", outputs=k" the model has one output.
type ModelSpec struct {
	Architecture string       // such as "MLP(in=30, hidden=[64], activation=relu)"
	Dtype        tensor.Dtype // tensor.Float64 or tensor.Float32
}

var (
	linearArch = regexp.MustCompile(`^Linear\(in=([0-9]{1,10})(?:, outputs=([0-9]{1,10}))?\)$`)
	mlpArch    = regexp.MustCompile(`^MLP\(in=([0-9]{1,10}), hidden=\[([0-9 ]*)\], activation=([a-z]{1,16})(?:, outputs=([0-9]{1,10}))?\)$`)
)

// specOf returns the spec of m, or an error for a model Load could not rebuild.
func specOf(m nn.Model) (ModelSpec, error) {
	d, ok := m.(nn.Describer)
	if !ok {
		return ModelSpec{}, fmt.Errorf("%w: a %T does not describe its architecture (nn.Describer)", ErrModel, m)
	}
	s := ModelSpec{Architecture: d.Architecture(), Dtype: m.Dtype()}
	if _, err := s.parse(); err != nil {
		return ModelSpec{}, err
	}
	return s, nil
}

// layers is a parsed spec: the network in → hidden… → out.
type layers struct {
	in     int
	hidden []int
	act    nn.Activation
	out    int // 1, or the k ≥ 2 outputs of a multi-class or multi-label model
}

// parse checks the spec and returns the network it describes; an error wraps ErrModel.
func (s ModelSpec) parse() (layers, error) {
	if s.Dtype != tensor.Float64 && s.Dtype != tensor.Float32 {
		return layers{}, fmt.Errorf("%w: dtype %v (want float64 or float32)", ErrModel, s.Dtype)
	}
	l := layers{out: 1}
	var in, out string
	if m := linearArch.FindStringSubmatch(s.Architecture); m != nil {
		in, out = m[1], m[2]
	} else if m := mlpArch.FindStringSubmatch(s.Architecture); m != nil {
		in, out = m[1], m[4]
		act, err := nn.ParseActivation(m[3])
		if err != nil {
			return layers{}, fmt.Errorf("%w: architecture %q: %w", ErrModel, s.Architecture, err)
		}
		l.act = act
		for _, f := range strings.Fields(m[2]) {
			h, err := strconv.Atoi(f)
			if err != nil || h < 1 {
				return layers{}, fmt.Errorf("%w: architecture %q: bad layer size %q", ErrModel, s.Architecture, f)
			}
			l.hidden = append(l.hidden, h)
		}
	} else {
		return layers{}, fmt.Errorf("%w: architecture %q is none this package rebuilds (Linear, MLP)", ErrModel, s.Architecture)
	}
	var err error
	if l.in, err = strconv.Atoi(in); err != nil || l.in < 1 {
		return layers{}, fmt.Errorf("%w: architecture %q: bad input size", ErrModel, s.Architecture)
	}
	if out != "" {
		// nn writes ", outputs=k" only for k ≥ 2.
		if l.out, err = strconv.Atoi(out); err != nil || l.out < 2 || l.out > data.MaxClasses {
			return layers{}, fmt.Errorf("%w: architecture %q: outputs %s (want 2 to %d)", ErrModel, s.Architecture, out, data.MaxClasses)
		}
	}
	return l, nil
}

// params returns the number of parameters of the network, or false when it exceeds limit
// (the check that keeps a hostile spec from allocating before its checkpoint is compared).
func (l layers) params(limit int) (int, bool) {
	n, fanIn := 0, l.in
	for _, w := range append(append([]int(nil), l.hidden...), max(l.out, 1)) {
		if fanIn+1 > (limit-n)/w { // (fanIn + 1)·w would pass limit − n
			return 0, false
		}
		n += (fanIn + 1) * w
		fanIn = w
	}
	return n, n <= limit
}

// build allocates the model the spec describes.
func (s ModelSpec) build(l layers) (nn.Model, error) {
	return nn.NewMLP(nn.MLPConfig{In: l.in, Hidden: l.hidden, Activation: l.act, Dtype: s.Dtype, Outputs: l.out})
}

// maxParams bounds a model's parameters (a dimension of a checkpoint is 32 bits).
const maxParams = math.MaxInt32
