package train

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// A Loss is what the trainer minimises: a scalar of a batch's scores and labels, for the task of
// the data it trains on (rocops.Task: binary, k classes or k labels). It is the one contract of
// every loss, the module's and a user's alike, and of both training steps (see the package
// documentation): the graph step builds it into a Gorgonia graph, the direct step computes it on
// slices. A batch of B rows holds B·K scores for a task of K outputs, row-major, and B labels
// (0/1, or class indices 0…k−1) or, for k labels, B·k 0/1 labels, row-major.
//
// To add a loss, implement the four methods; docs/adding-a-loss.md walks through it.
type Loss interface {
	// Check reports what keeps the loss from training on data of task t, before any step: a
	// setting out of its domain (rocops.ErrConfig, naming it) or a task the loss has no form
	// for (ErrTask).
	Check(t rocops.Task) error
	// Build returns the loss of a batch as a scalar node of the scores' graph and dtype. scores
	// is (B) for a binary task and (B, k) otherwise; labels is (B), or (B, k) for k labels.
	Build(scores, labels *gorgonia.Node, t rocops.Task) (*gorgonia.Node, error)
	// ValueGradInto returns the loss of a batch's scores and labels, in float64 whatever the
	// model's dtype, and overwrites grad, of the scores' length, with ∂L/∂scores. It must not
	// keep the slices or modify scores and labels; grad is unspecified on error. A loss with no
	// form on slices returns an error wrapping [ErrNoDirect] for every input (the trainer asks
	// with empty slices) and is trained through the graph step.
	ValueGradInto(grad, scores, labels []float64, t rocops.Task) (float64, error)
	// String names the loss and its settings, as logs and messages show it.
	String() string
}

// ErrNoDirect is what a [Loss] without a form on slices returns from ValueGradInto: the trainer
// then trains it through a Gorgonia graph of the model and Build.
var ErrNoDirect = errors.New("train: the loss has no form on slices")

// CrossEntropy is the cross-entropy of the scores read as logits (package crossentropy), the
// loss of each task's probabilistic model: the binary cross-entropy of one logit per row, the
// softmax cross-entropy of k logits against the class index on k classes, and the sigmoid
// cross-entropy of every (score, label) cell on k labels, each overflow-free with its exact
// gradient. It is also the loss of warm-ups and interventions.
type CrossEntropy struct{}

// Check implements Loss: every task has a cross-entropy.
func (CrossEntropy) Check(t rocops.Task) error { return validTask(t) }

// Build implements Loss.
func (CrossEntropy) Build(scores, labels *gorgonia.Node, t rocops.Task) (*gorgonia.Node, error) {
	return crossentropy.Loss(scores, labels, crossentropy.Config{Task: t})
}

// ValueGradInto implements Loss.
func (CrossEntropy) ValueGradInto(grad, scores, labels []float64, t rocops.Task) (float64, error) {
	return crossentropy.GradientInto(grad, scores, labels, crossentropy.Config{Task: t})
}

func (CrossEntropy) String() string { return "ce" }

// KDE is the KDE-quantile loss (package kdequantile): the smoothed false-negative rate at the
// smoothed false-positive rate Config.Alpha, or with Config.Recall the smoothed false-positive
// rate at that smoothed true-positive rate. It is a binary loss at one operating point: Check
// refuses other tasks. Trained alone from random weights it can starve (positives far below
// the threshold get no gradient); [KDERecipe] is the recipe that starts it from cross-entropy.
type KDE struct{ Config kdequantile.Config }

// Check implements Loss: the binary task, and a valid kdequantile.Config.
func (l KDE) Check(t rocops.Task) error {
	if t.Kind() != rocops.Binary {
		return fmt.Errorf("%w: the KDE loss %v is a binary loss at one false-positive rate and has no %v form (%v); use ce or a pairwise loss",
			ErrTask, l, t.Kind(), t)
	}
	if err := l.Config.Validate(); err != nil {
		return fmt.Errorf("train: KDE loss %v: %w", l, err)
	}
	return nil
}

// Build implements Loss.
func (l KDE) Build(scores, labels *gorgonia.Node, _ rocops.Task) (*gorgonia.Node, error) {
	return kdequantile.Loss(scores, labels, l.Config)
}

// ValueGradInto implements Loss.
func (l KDE) ValueGradInto(grad, scores, labels []float64, _ rocops.Task) (float64, error) {
	res, err := kdequantile.GradientInto(grad, scores, labels, l.Config)
	return res.Loss, err
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

// Pairwise is a pairwise AUC surrogate (package pairwise): the mean of ℓ(f_pos − f_neg) over the
// batch's positive–negative pairs, and on k classes or labels the mean over the binary
// comparisons (one-vs-rest, with Config.OvO one-vs-one, or label-wise). The trainer sets
// Config.Task to the data's task; a Config.Task already set must be that task.
type Pairwise struct{ Config pairwise.Config }

// config returns the loss's pairwise.Config on task t.
func (l Pairwise) config(t rocops.Task) pairwise.Config {
	cfg := l.Config
	cfg.Task = t
	return cfg
}

// Check implements Loss: a valid pairwise.Config on t, OvO only on k classes.
func (l Pairwise) Check(t rocops.Task) error {
	switch {
	case l.Config.Task != (rocops.Task{}) && l.Config.Task != t:
		return fmt.Errorf("%w: %v is set for %v; the data has %v", ErrTask, l, l.Config.Task, t)
	case l.Config.OvO && t.Kind() != rocops.Multiclass:
		return fmt.Errorf("%w: %v: the ovo option applies to multi-class data, not %v data (%v)", ErrTask, l, t.Kind(), t)
	}
	if err := validTask(t); err != nil {
		return err
	}
	if err := l.config(t).Validate(); err != nil {
		return fmt.Errorf("train: pairwise loss %v: %w", l, err)
	}
	return nil
}

// Build implements Loss.
func (l Pairwise) Build(scores, labels *gorgonia.Node, t rocops.Task) (*gorgonia.Node, error) {
	return pairwise.Loss(scores, labels, l.config(t))
}

// ValueGradInto implements Loss.
func (l Pairwise) ValueGradInto(grad, scores, labels []float64, t rocops.Task) (float64, error) {
	return pairwise.GradientInto(grad, scores, labels, l.config(t))
}

// String names the surrogate and every setting that changes the loss, as in
// "sqhinge(margin=1, pairs=all)" or "logistic(pairs=4096, seed=7)": the margin of the
// surrogates that have one (0 shown as the default 1), the number of sampled pairs with
// their seed, the partial-AUC cuts MaxFPR and MinTPR when set ("maxfpr=0.1"), and "ovo" for
// the one-vs-one comparisons.
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
	if c.OvO {
		parts = append(parts, "ovo")
	}
	return fmt.Sprintf("%v(%s)", c.Surrogate, strings.Join(parts, ", "))
}

// Term is one weighted part of a Weighted loss.
type Term struct {
	Weight float64
	Loss   Loss
}

// Weighted is the sum Σ_k w_k·L_k of its terms, for example cross-entropy plus a small
// multiple of a ranking loss. It has a form on slices when every term has one.
type Weighted []Term

// Check implements Loss: at least one term, each a loss with a finite weight that trains t.
func (w Weighted) Check(t rocops.Task) error {
	if len(w) == 0 {
		return configError("a weighted loss needs at least one term")
	}
	for k, term := range w {
		if term.Loss == nil || math.IsNaN(term.Weight) || math.IsInf(term.Weight, 0) {
			return configError("weighted loss term %d: bad term %v×%v", k, term.Weight, term.Loss)
		}
		if err := term.Loss.Check(t); err != nil {
			return fmt.Errorf("%w (weighted loss term %d)", err, k)
		}
	}
	return nil
}

// Build implements Loss.
func (w Weighted) Build(scores, labels *gorgonia.Node, t rocops.Task) (*gorgonia.Node, error) {
	if err := w.Check(t); err != nil {
		return nil, err
	}
	var sum *gorgonia.Node
	for _, term := range w {
		l, err := term.Loss.Build(scores, labels, t)
		if err != nil {
			return nil, err
		}
		c, err := opkit.NewScalar(scores.Dtype(), term.Weight)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		if l, err = gorgonia.Mul(gorgonia.NewConstant(c), l); err != nil {
			return nil, fmt.Errorf("train: weighting %v: %w", term.Loss, err)
		}
		if sum == nil {
			sum = l
		} else if sum, err = gorgonia.Add(sum, l); err != nil {
			return nil, fmt.Errorf("train: summing %v: %w", term.Loss, err)
		}
	}
	return sum, nil
}

// ValueGradInto implements Loss: Σ_k w_k·L_k and its gradient; ErrNoDirect when a term has no
// form on slices.
func (w Weighted) ValueGradInto(grad, scores, labels []float64, t rocops.Task) (float64, error) {
	if !direct(w, t) {
		return 0, fmt.Errorf("%w: a term of %v", ErrNoDirect, w)
	}
	clear(grad)
	part := make([]float64, len(grad))
	var sum float64
	for _, term := range w {
		l, err := term.Loss.ValueGradInto(part, scores, labels, t)
		if err != nil {
			return 0, err
		}
		sum += term.Weight * l
		for i, g := range part {
			grad[i] += term.Weight * g
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

// direct reports whether loss has a form on slices for task t: a Weighted loss when every term
// has one, any other loss unless ValueGradInto on empty slices answers ErrNoDirect.
func direct(loss Loss, t rocops.Task) bool {
	if w, ok := loss.(Weighted); ok {
		for _, term := range w {
			if term.Loss == nil || !direct(term.Loss, t) {
				return false
			}
		}
		return true
	}
	_, err := loss.ValueGradInto(nil, nil, nil, t)
	return !errors.Is(err, ErrNoDirect)
}

// validTask reports an invalid task as rocops.ErrConfig, from the module's losses' Check.
func validTask(t rocops.Task) error {
	if err := t.Validate(); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// softmaxTrained reports whether loss on task t is the multi-class softmax cross-entropy, whose
// model outputs are logits ranked by their probabilities (see Metric): CrossEntropy on k
// classes, or a Weighted loss of positive multiples of it only.
func softmaxTrained(loss Loss, t rocops.Task) bool {
	if t.Kind() != rocops.Multiclass {
		return false
	}
	switch l := loss.(type) {
	case CrossEntropy, *CrossEntropy:
		return true
	case Weighted:
		for _, term := range l {
			if !(term.Weight > 0) || !softmaxTrained(term.Loss, t) {
				return false
			}
		}
		return len(l) > 0
	}
	return false
}
