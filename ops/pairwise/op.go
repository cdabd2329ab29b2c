package pairwise

import (
	"fmt"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/opkit"
)

//go:generate go run ../../cmd/docplots -out ../../docs/img/pairwise-weights.png

// Loss returns the scalar node L(scores, labels) of [Evaluate], differentiable with respect
// to scores by gorgonia.Grad with a TapeMachine and by a LispMachine. The forward pass runs
// [Gradient], computing value and gradient at once, and the backward pass reuses that
// gradient (the all-pairs loop runs once per step). scores and labels are of one dtype,
// float32 or float64, of the shapes of cfg.Task: vectors of n scores and n 0/1 labels for a
// binary task (or one-column matrices); an (n, k) score matrix, one row per example, with an
// (n) vector of class indices for Classes(k); the (n, k) score matrix with an (n, k) matrix of
// 0/1 labels for Labels(k). The sums run in float64 and the result has the graph's dtype. A
// loss or gradient that does not fit in that dtype (float32: beyond about 3.4e38) fails the run
// with rocops.ErrRange.
//
// cfg and the nodes are checked here (rocops.ErrConfig, rocops.ErrNode for a node of another shape
// than the task's, rocops.ErrLength); the batch is checked when the graph runs, and a bad batch
// (see Evaluate) makes the machine's run return the error.
//
// With Pairs > 0 the pairs are drawn exactly as Evaluate draws them: a function of cfg.Seed,
// the comparison and the class sizes only, so forward and backward passes, and a numerical
// gradient check, all see the same pairs. Across training steps the t-th draw picks the same
// positions within each class; with mini-batches shuffled at every epoch those positions hold
// different examples, so the pairs change. A batch that does not change between steps (full
// batch training) reuses its pairs: use Pairs = 0 there, which is exact and, except for
// Logistic, as fast as a sort.
func Loss(scores, labels *gorgonia.Node, cfg Config) (*gorgonia.Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return opkit.ApplyTask(kernel{cfg: cfg}, cfg.Task, scores, labels)
}

// kernel is the opkit description of the loss. Its String prints every setting, so that nodes
// of different settings never merge.
type kernel struct{ cfg Config }

func (kernel) Package() string { return pkg }

func (k kernel) String() string {
	c := k.cfg
	s := fmt.Sprintf("PairwiseLoss{surrogate=%v, margin=%v, pairs=%d, seed=%d, maxfpr=%v, mintpr=%v",
		c.Surrogate, c.margin(), c.Pairs, c.Seed, c.MaxFPR, c.MinTPR)
	if c.Task.Kind() != rocops.Binary {
		s += fmt.Sprintf(", task=%v, ovo=%v", c.Task, c.OvO)
	}
	return s + "}"
}

func (k kernel) ValueGrad(scores, labels []float64) (float64, []float64, error) {
	g, loss, err := Gradient(scores, labels, k.cfg)
	return loss, g, err
}
