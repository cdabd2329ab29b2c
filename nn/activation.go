package nn

import "github.com/rocops/rocops/internal/enum"

// Activation is the function φ applied element by element after a hidden layer's affine map.
// The zero value is ReLU.
type Activation int

const (
	// ReLU is φ(u) = max(u, 0). Its derivative is taken as 1 at u = 0.
	ReLU Activation = iota
	// Tanh is φ(u) = tanh(u).
	Tanh
	// Identity is φ(u) = u; the output layer always uses it.
	Identity
)

var activations = enum.New[Activation]("activation", errConfig, "relu", "tanh", "identity")

// String returns the activation's name: "relu", "tanh" or "identity".
func (a Activation) String() string { return activations.String(a) }

// ParseActivation returns the activation named s ("relu", "tanh" or "identity", in any case).
func ParseActivation(s string) (Activation, error) { return activations.Parse(s) }
