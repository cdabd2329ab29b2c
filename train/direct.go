package train

import (
	"math"

	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// The losses' direct forms: the same value and gradient as their graph nodes, computed on
// float64 slices in one call.

func (CrossEntropy) direct() bool { return true }

func (CrossEntropy) valueGrad(z, y, grad []float64) (float64, error) {
	return crossentropy.GradientInto(grad, z, y)
}

func (KDE) direct() bool { return true }

func (l KDE) valueGrad(scores, labels, grad []float64) (float64, error) {
	g, res, err := kdequantile.Gradient(scores, labels, l.Config)
	if err != nil {
		return 0, err
	}
	copy(grad, g)
	return res.Loss, nil
}

func (Pairwise) direct() bool { return true }

func (l Pairwise) valueGrad(scores, labels, grad []float64) (float64, error) {
	g, loss, err := pairwise.Gradient(scores, labels, l.Config)
	if err != nil {
		return 0, err
	}
	copy(grad, g)
	return loss, nil
}

// direct holds when every term is a valid direct loss; otherwise the graph step reports
// what is wrong.
func (w Weighted) direct() bool {
	for _, t := range w {
		d, ok := t.Loss.(directLoss)
		if !ok || !d.direct() || math.IsNaN(t.Weight) || math.IsInf(t.Weight, 0) {
			return false
		}
	}
	return len(w) > 0
}

func (w Weighted) valueGrad(scores, labels, grad []float64) (float64, error) {
	clear(grad)
	part := make([]float64, len(grad))
	var sum float64
	for _, t := range w {
		l, err := t.Loss.(directLoss).valueGrad(scores, labels, part)
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
