package train

import (
	"fmt"
	"math"
	"strings"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// A Loss turns a batch's score vector and 0/1 labels (vectors of one dtype) into a scalar
// cost node of the same graph.
type Loss interface {
	Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error)
	// String names the loss and its settings, as tables and logs show it.
	String() string
}

// CrossEntropy is the mean binary cross-entropy of the scores read as logits, the op of
// package crossentropy: overflow-free, with the exact gradient (σ(z) − y)/n.
type CrossEntropy struct{}

// Build implements Loss.
func (CrossEntropy) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	return crossentropy.Loss(scores, labels, crossentropy.Config{})
}

func (CrossEntropy) String() string { return "ce" }

// KDE is the KDE-quantile loss (package kdequantile): the smoothed false-negative rate at the
// smoothed false-positive rate Config.Alpha, or with Config.Recall the smoothed false-positive
// rate at that smoothed true-positive rate. Trained alone from random weights it can starve
// (positives far below the threshold get no gradient); [KDERecipe] is the recipe that starts
// it from cross-entropy.
type KDE struct{ Config kdequantile.Config }

// Build implements Loss.
func (l KDE) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	return kdequantile.Loss(scores, labels, l.Config)
}

func (l KDE) String() string {
	point := fmt.Sprintf("alpha=%g", l.Config.Alpha)
	if l.Config.Recall != 0 {
		point = fmt.Sprintf("recall=%g", l.Config.Recall)
	}
	tail := ""
	if l.Config.Tail {
		tail = ", tail"
	}
	if l.Config.Widen != 0 && l.Config.Widen != 1 {
		tail += fmt.Sprintf(", widen=%g", l.Config.Widen)
	}
	return fmt.Sprintf("kde(%s, v0=%g, v1=%g%s)", point, l.Config.V0, l.Config.V1, tail)
}

// Pairwise is a pairwise AUC surrogate (package pairwise), the mean of ℓ(f_pos − f_neg) over
// the batch's positive–negative pairs.
type Pairwise struct{ Config pairwise.Config }

// Build implements Loss.
func (l Pairwise) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	return pairwise.Loss(scores, labels, l.Config)
}

// String names the surrogate and every setting that changes the loss, as in
// "sqhinge(margin=1, pairs=all)" or "logistic(pairs=4096, seed=7)": the margin of the
// surrogates that have one (0 shown as the default 1), the number of sampled pairs with
// their seed, and the partial-AUC cuts MaxFPR and MinTPR when set ("maxfpr=0.1").
func (l Pairwise) String() string {
	c := l.Config
	var parts []string
	switch c.Surrogate {
	case pairwise.Square, pairwise.Hinge, pairwise.SquaredHinge:
		m := c.Margin
		if m == 0 {
			m = 1
		}
		parts = append(parts, fmt.Sprintf("margin=%g", m))
	}
	if c.Pairs == 0 {
		parts = append(parts, "pairs=all")
	} else {
		parts = append(parts, fmt.Sprintf("pairs=%d", c.Pairs), fmt.Sprintf("seed=%d", c.Seed))
	}
	if c.MaxFPR > 0 {
		parts = append(parts, fmt.Sprintf("maxfpr=%g", c.MaxFPR))
	}
	if c.MinTPR > 0 {
		parts = append(parts, fmt.Sprintf("mintpr=%g", c.MinTPR))
	}
	return fmt.Sprintf("%v(%s)", c.Surrogate, strings.Join(parts, ", "))
}

// Term is one weighted part of a Weighted loss.
type Term struct {
	Weight float64
	Loss   Loss
}

// Weighted is the sum Σ_k w_k·L_k of its terms, for example cross-entropy plus a small
// multiple of a ranking loss.
type Weighted []Term

// Build implements Loss.
func (w Weighted) Build(scores, labels *gorgonia.Node) (*gorgonia.Node, error) {
	if len(w) == 0 {
		return nil, fmt.Errorf("train: a weighted loss needs at least one term")
	}
	var sum *gorgonia.Node
	for _, t := range w {
		if t.Loss == nil || math.IsNaN(t.Weight) || math.IsInf(t.Weight, 0) {
			return nil, fmt.Errorf("train: bad term %v×%v in a weighted loss", t.Weight, t.Loss)
		}
		l, err := t.Loss.Build(scores, labels)
		if err != nil {
			return nil, err
		}
		c, err := opkit.NewScalar(scores.Dtype(), t.Weight)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		if l, err = gorgonia.Mul(gorgonia.NewConstant(c), l); err != nil {
			return nil, fmt.Errorf("train: weighting %v: %w", t.Loss, err)
		}
		if sum == nil {
			sum = l
		} else if sum, err = gorgonia.Add(sum, l); err != nil {
			return nil, fmt.Errorf("train: summing %v: %w", t.Loss, err)
		}
	}
	return sum, nil
}

func (w Weighted) String() string {
	parts := make([]string, len(w))
	for i, t := range w {
		parts[i] = fmt.Sprintf("%g×%v", t.Weight, t.Loss)
	}
	return strings.Join(parts, " + ")
}
