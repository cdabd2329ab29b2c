package pairwise

import (
	"fmt"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/opkit"
)

// MulticlassLoss returns the scalar node L(scores, labels) of [MulticlassGradient],
// differentiable with respect to the scores by gorgonia.Grad with a TapeMachine and by a
// LispMachine; the forward pass computes value and gradient at once and the backward pass
// reuses the gradient. scores is an (n, k) matrix, one row per example, and labels an (n)
// vector of class indices 0…k−1 held in the scores' dtype, float32 or float64; the sums run in
// float64 and the result has the graph's dtype. cfg and the nodes are checked here (rocops.ErrNode,
// rocops.ErrLength); the values when the graph runs (a label that is not an integer in 0…k−1 is
// rocops.ErrLabel, a class without rows rocops.ErrOneClass). Sampled pairs are drawn as MulticlassGradient
// draws them, a function of the seed, the comparison and the class sizes only, so the forward
// and backward passes and a gradient check see the same pairs (see [Loss]).
func MulticlassLoss(scores, labels *gorgonia.Node, cfg Multiclass) (*gorgonia.Node, error) {
	k, err := checkRows(scores, labels, cfg.Config, 1)
	if err != nil {
		return nil, err
	}
	return opkit.ApplyRows(multiclassKernel{cfg: cfg, k: k}, scores, labels)
}

// MultilabelLoss returns the scalar node L(scores, labels) of [MultilabelGradient]: scores and
// labels are (n, k) matrices of one dtype, float32 or float64, labels 0 or 1. Everything else
// is as for [MulticlassLoss]; a label column with one class fails the run with rocops.ErrOneClass.
func MultilabelLoss(scores, labels *gorgonia.Node, cfg Config) (*gorgonia.Node, error) {
	k, err := checkRows(scores, labels, cfg, 2)
	if err != nil {
		return nil, err
	}
	return opkit.ApplyRows(multilabelKernel{cfg: cfg, k: k}, scores, labels)
}

// checkRows validates cfg and the nodes of an (n, k) score matrix with labels of labelDims
// dimensions (1: class indices, 2: an indicator matrix), and returns k.
func checkRows(scores, labels *gorgonia.Node, cfg Config, labelDims int) (int, error) {
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	_, k, dims, err := opkit.CheckRows(pkg, scores, labels)
	if err != nil {
		return 0, err
	}
	if dims != labelDims {
		want := "an (n) vector of class indices"
		if labelDims == 2 {
			want = "an (n, k) matrix of 0/1 labels"
		}
		return 0, check.Errorf(pkg, rocops.ErrNode, "labels: want %s, got shape %v", want, labels.Shape())
	}
	return k, nil
}

// multiclassKernel is the opkit description of MulticlassLoss on k classes. Its String prints
// every field of the configuration, so that nodes of different settings never merge.
type multiclassKernel struct {
	cfg Multiclass
	k   int
}

func (multiclassKernel) Package() string { return pkg }
func (m multiclassKernel) String() string {
	return fmt.Sprintf("PairwiseMulticlassLoss{%+v, ovo=%v, k=%d}", m.cfg.Config, m.cfg.OvO, m.k)
}
func (m multiclassKernel) ValueGrad(scores, labels []float64) (float64, []float64, error) {
	y, err := check.Indices(pkg, labels, m.k)
	if err != nil {
		return 0, nil, err
	}
	g, l, err := MulticlassGradient(scores, m.k, y, m.cfg)
	return l, g, err
}

// multilabelKernel is the opkit description of MultilabelLoss on k label columns.
type multilabelKernel struct {
	cfg Config
	k   int
}

func (multilabelKernel) Package() string { return pkg }
func (m multilabelKernel) String() string {
	return fmt.Sprintf("PairwiseMultilabelLoss{%+v, k=%d}", m.cfg, m.k)
}
func (m multilabelKernel) ValueGrad(scores, labels []float64) (float64, []float64, error) {
	g, l, err := MultilabelGradient(scores, m.k, labels, m.cfg)
	return l, g, err
}
