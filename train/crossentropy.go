package train

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/internal/opkit"
)

// ErrBadBatch is returned (wrapped) when a batch cannot be scored by a loss: empty, lengths
// that differ, labels other than 0/1, or non-finite scores.
var ErrBadBatch = errors.New("train: bad batch")

// crossEntropy is the mean binary cross-entropy of logits z against 0/1 labels y (seed 004),
// in its overflow-free softplus form:
//
//	L = (1/n) Σ_i softplus(z_i) − y_i·z_i,   softplus(z) = max(z, 0) + log(1 + e^{−|z|})
//	∂L/∂z_i = (σ(z_i) − y_i)/n
//
// where n is the batch size and σ the logistic function.
type crossEntropy struct{}

func (crossEntropy) Package() string { return "train" }
func (crossEntropy) String() string  { return "CrossEntropy{}" }

func (crossEntropy) Value(z, y []float64) (float64, error) {
	if err := checkBatch(z, y); err != nil {
		return 0, err
	}
	var s float64
	for i, zi := range z {
		s += softplus(zi) - y[i]*zi
	}
	return s / float64(len(z)), nil
}

func (crossEntropy) Gradient(z, y []float64) ([]float64, error) {
	if err := checkBatch(z, y); err != nil {
		return nil, err
	}
	g := make([]float64, len(z))
	inv := 1 / float64(len(z))
	for i, zi := range z {
		g[i] = (sigmoid(zi) - y[i]) * inv
	}
	return g, nil
}

func checkBatch(z, y []float64) error {
	if len(z) == 0 {
		return fmt.Errorf("%w: empty", ErrBadBatch)
	}
	if len(z) != len(y) {
		return fmt.Errorf("%w: %d scores but %d labels", ErrBadBatch, len(z), len(y))
	}
	for i := range z {
		if math.IsNaN(z[i]) || math.IsInf(z[i], 0) {
			return fmt.Errorf("%w: score %d is %v", ErrBadBatch, i, z[i])
		}
		if y[i] != 0 && y[i] != 1 {
			return fmt.Errorf("%w: label %d is %v, want 0 or 1", ErrBadBatch, i, y[i])
		}
	}
	return nil
}

// softplus returns log(1 + e^z) without overflow.
func softplus(z float64) float64 { return math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) }

// sigmoid returns 1/(1 + e^{−z}) without overflow.
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// crossEntropyNode is the graph node of crossEntropy.
func crossEntropyNode(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	return opkit.Apply(crossEntropy{}, scores, labels)
}
