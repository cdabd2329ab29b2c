package pairwise

import (
	"cmp"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// Config chooses the surrogate, how the pairs are visited and the task. The zero value is the
// exact all-pairs logistic loss of a binary batch.
type Config struct {
	// Surrogate is ℓ; the zero value is Logistic.
	Surrogate Surrogate
	// Margin is m in Square, Hinge and SquaredHinge; 0 means the default 1. It must be
	// finite and not negative. Logistic and Exponential have no margin and ignore it.
	Margin float64
	// Pairs is 0 for the exact mean over all |B1|·|B0| pairs, or k > 0 for the mean over k
	// pairs drawn uniformly with replacement: an unbiased estimate of the exact value and
	// gradient (see Evaluate). It must not be negative.
	Pairs int
	// Seed seeds the draw of sampled pairs; unused when Pairs is 0.
	Seed uint64
	// MaxFPR is β of the one-way partial AUC up to false-positive rate β: only the
	// k₋ = ⌈β·|B0|⌉ highest-scored negatives take part, every positive against them (see
	// [Evaluate]). 0 means off (every negative, as β = 1); otherwise 0 < β ≤ 1.
	MaxFPR float64
	// MinTPR is γ of the two-way partial AUC (false-positive rate at most β and true-positive
	// rate at least γ): only the k₊ = ⌈(1−γ)·|B1|⌉ lowest-scored positives take part. 0 means
	// off (every positive); otherwise 0 < γ < 1. It combines with MaxFPR; without it every
	// negative takes part.
	MinTPR float64
	// Task is the shape of the scores and labels (see [rocops.Task]): binary, the zero value,
	// for n scores and n 0/1 labels; Classes(k) for row-major n×k scores and n class indices,
	// where the loss is the mean of binary losses over the comparisons of classes that OvO
	// chooses; Labels(k) for row-major n×k scores and n×k 0/1 labels, where it is the mean
	// over the k label columns of each column's binary loss (see [Evaluate]).
	Task rocops.Task
	// OvO chooses the comparisons of a Classes task: false, the zero value, is one-vs-rest
	// (column c with the rows of class c as positives and every other row as negatives, for
	// each class c); true is one-vs-one (column a over the rows of classes a and b, positives
	// the rows of a, for each ordered pair a ≠ b), the loss whose minimiser maximises Hand and
	// Till's multi-class AUC M. OvO on a binary or Labels task is rocops.ErrConfig.
	OvO bool
}

// pkg prefixes the package's error messages.
const pkg = "pairwise"

// margin is the effective margin m of a valid Config: Margin, or 1 for 0.
func (c Config) margin() float64 { return cmp.Or(c.Margin, 1) }

// validMargin reports whether a Config.Margin of m is valid: 0 (the default) or finite and
// not negative.
func validMargin(m float64) bool { return m >= 0 && !math.IsInf(m, 1) }

// Validate reports the first setting outside its domain as [rocops.ErrConfig], naming it: an
// unknown surrogate, Pairs < 0, MaxFPR outside [0, 1], MinTPR outside [0, 1), a margin that is
// negative, infinite or NaN (NaN fails every range), an invalid Task (classes or labels with
// k < 2), or OvO on a task that is not Classes.
func (c Config) Validate() error {
	switch {
	case !c.Surrogate.valid():
		return check.Errorf(pkg, rocops.ErrConfig, "Surrogate = %d, want %s", int(c.Surrogate), surrogates.List())
	case c.Pairs < 0:
		return check.Errorf(pkg, rocops.ErrConfig, "Pairs = %d, want 0 (all pairs) or a number of pairs to draw", c.Pairs)
	case !(c.MaxFPR >= 0 && c.MaxFPR <= 1): // NaN fails both
		return check.Errorf(pkg, rocops.ErrConfig, "MaxFPR = %v, want [0, 1]", c.MaxFPR)
	case !(c.MinTPR >= 0 && c.MinTPR < 1):
		return check.Errorf(pkg, rocops.ErrConfig, "MinTPR = %v, want [0, 1)", c.MinTPR)
	case !validMargin(c.Margin):
		return check.Errorf(pkg, rocops.ErrConfig, "Margin = %v, want a finite margin ≥ 0 (0 = 1)", c.Margin)
	case c.Task.Validate() != nil:
		return check.Errorf(pkg, rocops.ErrConfig, "Task = %v, want binary, or k ≥ 2 classes or labels", c.Task)
	case c.OvO && c.Task.Kind() != rocops.Multiclass:
		return check.Errorf(pkg, rocops.ErrConfig, "OvO = true on a %v task; one-vs-one compares classes, set it for Classes(k) only", c.Task)
	}
	return nil
}
