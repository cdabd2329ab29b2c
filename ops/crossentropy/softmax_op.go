package crossentropy

import (
	"fmt"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/opkit"
)

// SoftmaxLoss returns the scalar node L(logits, labels) of [SoftmaxGradient], differentiable
// with respect to the logits by gorgonia.Grad with a TapeMachine and by a LispMachine; the
// forward pass computes the value and the gradient at once and the backward pass reuses the
// gradient. logits is an (n, k) matrix, one row per example, and labels an (n) vector of class
// indices 0…k−1 held in the logits' dtype, float32 or float64; the sums run in float64 and the
// result has the graph's dtype. The nodes are checked here ([rocops.ErrNode], [rocops.ErrLength]); the
// values when the graph runs (a label that is not an integer in 0…k−1 is [rocops.ErrLabel]).
func SoftmaxLoss(logits, labels *gorgonia.Node) (*gorgonia.Node, error) {
	_, k, dims, err := opkit.CheckRows(pkg, logits, labels)
	if err != nil {
		return nil, err
	}
	if dims != 1 {
		return nil, check.Errorf(pkg, rocops.ErrNode, "labels: want an (n) vector of class indices, got shape %v",
			labels.Shape())
	}
	return opkit.ApplyRows(softmaxKernel{k: k}, logits, labels)
}

// softmaxKernel is the opkit description of the softmax loss on k classes.
type softmaxKernel struct{ k int }

func (softmaxKernel) Package() string  { return pkg }
func (s softmaxKernel) String() string { return fmt.Sprintf("SoftmaxCrossEntropy{k=%d}", s.k) }
func (s softmaxKernel) ValueGrad(z, y []float64) (float64, []float64, error) {
	labels, err := check.Indices(pkg, y, s.k)
	if err != nil {
		return 0, nil, err
	}
	g, l, err := SoftmaxGradient(z, s.k, labels)
	return l, g, err
}
