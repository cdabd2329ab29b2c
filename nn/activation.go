package nn

import (
	"fmt"
	"strings"

	"gorgonia.org/gorgonia"
)

// Activation is the function φ applied element by element after a hidden layer's affine map.
// The zero value is ReLU. It implements encoding.TextMarshaler and encoding.TextUnmarshaler,
// so it can be a command-line flag (flag.TextVar) or a JSON field.
type Activation int

const (
	// ReLU is φ(u) = max(u, 0). Its derivative is taken as 1 at u = 0.
	ReLU Activation = iota
	// Tanh is φ(u) = tanh(u).
	Tanh
	// Identity is φ(u) = u; the output layer always uses it.
	Identity
)

var activationNames = [...]string{ReLU: "relu", Tanh: "tanh", Identity: "identity"}

func (a Activation) valid() bool { return a >= 0 && int(a) < len(activationNames) }

// String returns the activation's name: "relu", "tanh" or "identity".
func (a Activation) String() string {
	if !a.valid() {
		return fmt.Sprintf("Activation(%d)", int(a))
	}
	return activationNames[a]
}

// ParseActivation returns the activation named s ("relu", "tanh" or "identity", in any case).
func ParseActivation(s string) (Activation, error) {
	for a, name := range activationNames {
		if strings.EqualFold(s, name) {
			return Activation(a), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown activation %q (want relu, tanh or identity)", ErrConfig, s)
}

// MarshalText returns the activation's name.
func (a Activation) MarshalText() ([]byte, error) {
	if !a.valid() {
		return nil, fmt.Errorf("%w: unknown activation %d", ErrConfig, int(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText sets a to the activation named text, as ParseActivation does.
func (a *Activation) UnmarshalText(text []byte) error {
	v, err := ParseActivation(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// apply returns φ(u).
func (a Activation) apply(u *gorgonia.Node) (*gorgonia.Node, error) {
	switch a {
	case ReLU:
		return gorgonia.Rectify(u)
	case Tanh:
		return gorgonia.Tanh(u)
	case Identity:
		return u, nil
	}
	return nil, fmt.Errorf("%w: unknown activation %d", ErrConfig, int(a))
}
