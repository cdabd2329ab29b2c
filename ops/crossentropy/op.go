package crossentropy

import (
	"fmt"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/opkit"
)

// Loss returns the scalar node L(scores, labels) of [Evaluate], differentiable with respect
// to the scores by gorgonia.Grad with a TapeMachine and by a LispMachine; the forward pass
// computes the value and the gradient at once and the backward pass reuses the gradient.
// scores and labels are of one dtype, float32 or float64, of the shapes of cfg.Task: vectors
// of n logits and n 0/1 labels for a binary task (or one-column matrices); an (n, k) logit
// matrix, one row per example, with an (n) vector of class indices for Classes(k); the (n, k)
// logit matrix with an (n, k) matrix of 0/1 labels for Labels(k). The sums run in float64 and
// the result has the graph's dtype. cfg and the nodes are checked here ([rocops.ErrConfig],
// [rocops.ErrNode] for a node of another shape than the task's, [rocops.ErrLength]); the values
// when the graph runs, whose error is then one of Evaluate's. A float32 graph whose result does
// not fit in float32 fails the run with [rocops.ErrRange].
func Loss(scores, labels *gorgonia.Node, cfg Config) (*gorgonia.Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return opkit.ApplyTask(kernel{cfg: cfg}, cfg.Task, scores, labels)
}

// kernel is the opkit description of the loss.
type kernel struct{ cfg Config }

func (kernel) Package() string { return pkg }

func (k kernel) String() string {
	if k.cfg.Task.Kind() == rocops.Binary {
		return "CrossEntropy{}"
	}
	return fmt.Sprintf("CrossEntropy{task=%v}", k.cfg.Task)
}

func (k kernel) ValueGrad(z, y []float64) (float64, []float64, error) {
	g, l, err := Gradient(z, y, k.cfg)
	return l, g, err
}

// ValueGradInto implements opkit.IntoKernel: the graph's forward node reuses one gradient
// buffer across runs.
func (k kernel) ValueGradInto(grad, z, y []float64) (float64, error) {
	return GradientInto(grad, z, y, k.cfg)
}
