package train

import (
	"fmt"
	"math"

	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// A DirectLoss is a [Loss] that also computes itself on slices: its value and its gradient
// with respect to the scores in one call, the same as its graph node's to float rounding.
// The trainer trains a DirectLoss with the direct step (see the package documentation)
// whenever the model is one of nn's networks, without building a graph; any other Loss, or
// another model, takes the graph step. The package's losses are DirectLosses, each a thin
// adapter over its op package's slice API (crossentropy.GradientInto,
// kdequantile.GradientInto, pairwise.GradientInto); implement ValueGradInto next to Build to
// give a loss of your own the direct step.
type DirectLoss interface {
	Loss
	// ValueGradInto returns the loss L of scores with labels, both of the batch's length n
	// and in float64 whatever the model's dtype, and overwrites grad, also of length n, with
	// ∂L/∂scores. It must not keep the slices or modify scores and labels; grad is
	// unspecified on error.
	ValueGradInto(grad, scores, labels []float64) (float64, error)
}

// ValueGradInto implements DirectLoss.
func (CrossEntropy) ValueGradInto(grad, z, y []float64) (float64, error) {
	return crossentropy.GradientInto(grad, z, y, crossentropy.Config{})
}

// ValueGradInto implements DirectLoss.
func (l KDE) ValueGradInto(grad, scores, labels []float64) (float64, error) {
	res, err := kdequantile.GradientInto(grad, scores, labels, l.Config)
	return res.Loss, err
}

// ValueGradInto implements DirectLoss.
func (l Pairwise) ValueGradInto(grad, scores, labels []float64) (float64, error) {
	return pairwise.GradientInto(grad, scores, labels, l.Config)
}

// ValueGradInto implements DirectLoss: Σ_k w_k·L_k and its gradient. Every term must be a
// DirectLoss with a finite weight; the trainer takes the graph step for a Weighted loss with
// any other term.
func (w Weighted) ValueGradInto(grad, scores, labels []float64) (float64, error) {
	if !w.direct() {
		return 0, fmt.Errorf("train: %v: not every term is a DirectLoss with a finite weight", w)
	}
	clear(grad)
	part := make([]float64, len(grad))
	var sum float64
	for _, t := range w {
		l, err := t.Loss.(DirectLoss).ValueGradInto(part, scores, labels)
		if err != nil {
			return 0, err
		}
		sum += t.Weight * l
		for i, g := range part {
			grad[i] += t.Weight * g
		}
	}
	return sum, nil
}

// direct reports whether w is a non-empty sum of DirectLosses (Weighted ones among them
// direct in turn) with finite weights; otherwise the graph step reports what is wrong.
func (w Weighted) direct() bool {
	for _, t := range w {
		if _, ok := asDirect(t.Loss); !ok || math.IsNaN(t.Weight) || math.IsInf(t.Weight, 0) {
			return false
		}
	}
	return len(w) > 0
}

// asDirect returns loss as a DirectLoss when the direct step can train it.
func asDirect(loss Loss) (DirectLoss, bool) {
	d, ok := loss.(DirectLoss)
	if w, isWeighted := loss.(Weighted); isWeighted {
		ok = w.direct()
	}
	return d, ok
}
