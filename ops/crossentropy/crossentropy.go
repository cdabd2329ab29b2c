package crossentropy

import (
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/logistic"
)

// pkg prefixes the package's error messages.
const pkg = "crossentropy"

// Config holds the loss's task. The zero value is the binary cross-entropy on logits.
type Config struct {
	// Task is the shape of the logits and labels (see [rocops.Task]) and with it the loss:
	// binary, the zero value, is the sigmoid cross-entropy of n logits against n 0/1 labels;
	// Classes(k) the softmax cross-entropy of row-major n×k logits against n class indices;
	// Labels(k) the sigmoid cross-entropy of every cell of row-major n×k logits against the
	// n×k 0/1 labels, averaged over all n·k cells (see [Evaluate]).
	Task rocops.Task
}

// Validate reports an invalid Task (classes or labels with k < 2) as [rocops.ErrConfig].
func (c Config) Validate() error {
	if c.Task.Validate() != nil {
		return check.Errorf(pkg, rocops.ErrConfig, "Task = %v, want binary, or k ≥ 2 classes or labels", c.Task)
	}
	return nil
}

// Evaluate returns the mean cross-entropy L of the logits scores against labels, for the task
// of cfg. For a binary task and a task of labels it is the mean over the logits z_i (n of them,
// or the n·k cells) of the binary term (see the package documentation),
//
//	L = (1/N) Σ_i softplus(z_i) − y_i·z_i,   N = n or n·k,
//
// so a task of k labels is the binary loss of the flattened cells. For Classes(k), with logits
// row-major n×k (z_ic = scores[i·k + c]) and class indices y_i ∈ {0, …, k−1} (held as floats),
// it is the softmax cross-entropy (Bishop, Pattern Recognition and Machine Learning, §4.3.4)
//
//	L = (1/n) Σ_i −log p_{i,y_i},   p_ic = e^{z_ic} / Σ_d e^{z_id},
//
// with the log-sum-exp taken from the row's largest logit m_i,
// −log p_{i,y_i} = (m_i − z_{i,y_i}) + log Σ_d e^{z_id − m_i}, so that no exponential exceeds 1
// and logits of any finite size, ±1e3 and beyond, neither overflow nor lose the loss to
// cancellation. For k = 2 it is the binary cross-entropy of the logit difference z_i1 − z_i0.
//
// Unlike the ROC losses the cross-entropy is defined on any batch, also one of one class or
// with classes without rows. Errors: an invalid Task (rocops.ErrConfig); no rows (rocops.ErrEmpty);
// lengths that do not fit the task (rocops.ErrLength: n scores and n labels, n·k scores with n
// class indices or n·k labels); a NaN or infinite logit (rocops.ErrNonFinite); a label that is not
// 0 or 1, or not a class index in 0…k−1 (rocops.ErrLabel); and rocops.ErrRange for a softmax
// loss beyond float64, which needs logits of one row about 1e308 apart (the sigmoid loss cannot
// overflow: it is accumulated as Σ term/N with every term at most |z| + log 2). Cost O(n·k).
func Evaluate(scores, labels []float64, cfg Config) (float64, error) {
	return compute(scores, labels, cfg, nil)
}

// Gradient returns ∂L/∂z for every logit and the loss L of [Evaluate], computed together in one
// pass: for the sigmoid losses
//
//	∂L/∂z_i = (σ(z_i) − y_i)/N,
//
// and for Classes(k) ∂L/∂z_ic = (p_ic − [y_i = c])/n, where [·] is 1 when its condition holds,
// else 0. The gradient has the scores' layout. Errors are those of Evaluate.
func Gradient(scores, labels []float64, cfg Config) ([]float64, float64, error) {
	g := make([]float64, len(scores))
	l, err := compute(scores, labels, cfg, g)
	if err != nil {
		return nil, 0, err
	}
	return g, l, nil
}

// GradientInto is [Gradient] writing ∂L/∂z into grad, which must have the scores' length
// (rocops.ErrLength otherwise), for callers that reuse one buffer across steps. grad is
// unspecified on error.
func GradientInto(grad, scores, labels []float64, cfg Config) (float64, error) {
	if len(grad) != len(scores) {
		return 0, check.Errorf(pkg, rocops.ErrLength, "%d scores, a gradient buffer of %d", len(scores), len(grad))
	}
	return compute(scores, labels, cfg, grad)
}

// compute validates and returns L for cfg's task and, when grad is not nil, fills it with ∂L/∂z.
func compute(scores, labels []float64, cfg Config, grad []float64) (float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	switch cfg.Task.Kind() {
	case rocops.Multiclass:
		if _, err := check.ForTask(pkg, cfg.Task, scores, labels, false); err != nil {
			return 0, err
		}
		return softmax(scores, cfg.Task.K(), labels, grad)
	case rocops.Multilabel:
		if _, err := check.ForTask(pkg, cfg.Task, scores, labels, false); err != nil {
			return 0, err
		}
	default:
		if _, err := check.Scores(pkg, scores, labels); err != nil {
			return 0, err
		}
	}
	return sigmoid(scores, labels, grad), nil
}

// sigmoid returns the mean binary cross-entropy of the checked logits against their 0/1 labels
// and, when grad is not nil, fills it with the gradient.
func sigmoid(scores, labels, grad []float64) float64 {
	inv := 1 / float64(len(scores))
	var l float64
	for i, z := range scores {
		term, s := logistic.LogLoss(z, labels[i])
		l += term * inv // term/n ≤ (|z| + log 2)/n, so the mean cannot overflow
		if grad != nil {
			grad[i] = (s - labels[i]) * inv
		}
	}
	return l
}

// softmax returns the mean softmax cross-entropy of checked n×k logits against n class indices
// and, when grad is not nil, fills it with the gradient.
func softmax(logits []float64, k int, labels, grad []float64) (float64, error) {
	inv := 1 / float64(len(labels))
	row := make([]float64, k) // e^{z_ic − m_i}, then the row's gradient
	var value float64
	for i, yf := range labels {
		y := int(yf)
		z := logits[i*k : (i+1)*k]
		m := z[0]
		for _, x := range z {
			m = max(m, x)
		}
		var s float64
		for c, x := range z {
			row[c] = math.Exp(x - m)
			s += row[c]
		}
		// Each part divided by n first: rows of huge logits add up without overflowing.
		value += m*inv - z[y]*inv + math.Log(s)*inv
		if grad != nil {
			g := grad[i*k : (i+1)*k]
			for c := range g {
				g[c] = row[c] * (inv / s)
			}
			g[y] -= inv
		}
	}
	if math.IsInf(value, 0) {
		return 0, check.Errorf(pkg, rocops.ErrRange, "the loss overflows float64: logits of one row differ by more than float64 holds")
	}
	return value, nil
}
