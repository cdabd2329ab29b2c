package crossentropy

import (
	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/internal/opkit"
)

// Loss returns the scalar node L(scores, labels) of [Evaluate], differentiable with respect
// to the scores by gorgonia.Grad with a TapeMachine and by a LispMachine; its backward pass is
// [Gradient]. scores and labels are vectors of one dtype, float32 or float64, and one length;
// the sums run in float64 and the result has the graph's dtype. The nodes are checked here
// ([rocops.ErrNode], [rocops.ErrLength]); the values when the graph runs, whose error is then one of the
// package's. The loss cannot overflow float64 (it is accumulated as Σ term/n with every term at
// most |z| + log 2, and the gradient lies in [−1/n, 1/n]); a float32 graph whose result does
// not fit in float32 fails the run with [rocops.ErrRange].
func Loss(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	return opkit.Apply(kernel{}, scores, labels)
}

// kernel is the opkit description of the loss.
type kernel struct{}

func (kernel) Package() string { return pkg }
func (kernel) String() string  { return "CrossEntropy{}" }
func (kernel) ValueGrad(z, y []float64) (float64, []float64, error) {
	g, l, err := Gradient(z, y)
	return l, g, err
}
