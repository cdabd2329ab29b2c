package train

import (
	"errors"
	"math"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/opkit"
)

// ErrBadBatch is returned (wrapped) when a batch cannot be scored by cross-entropy: empty,
// lengths that differ, labels other than 0/1, or non-finite scores. Each such error also
// wraps the specific sentinel of the module's shared vocabulary, such as metrics.ErrLength
// or pairwise.ErrNonFinite (the same values in every package).
var ErrBadBatch = errors.New("train: bad batch")

// badBatch is an error of the shared vocabulary that also matches ErrBadBatch.
type badBatch struct{ err error }

func (e badBatch) Error() string   { return e.err.Error() }
func (e badBatch) Unwrap() []error { return []error{ErrBadBatch, e.err} }

// crossEntropy is the mean binary cross-entropy of logits z against 0/1 labels y (Bishop,
// Pattern Recognition and Machine Learning, §4.3.2), in its overflow-free softplus form:
//
//	L = (1/n) Σ_i softplus(z_i) − y_i·z_i,   softplus(z) = max(z, 0) + log(1 + e^{−|z|})
//	∂L/∂z_i = (σ(z_i) − y_i)/n
//
// where n is the batch size and σ the logistic function.
type crossEntropy struct{}

func (crossEntropy) Package() string { return "train" }
func (crossEntropy) String() string  { return "CrossEntropy{}" }

func (crossEntropy) ValueGrad(z, y []float64) (float64, []float64, error) {
	g := make([]float64, len(z))
	l, err := CrossEntropy{}.valueGrad(z, y, g)
	if err != nil {
		return 0, nil, err
	}
	return l, g, nil
}

func checkBatch(z, y []float64) error {
	if _, err := check.Scores("train", z, y); err != nil {
		return badBatch{err}
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
