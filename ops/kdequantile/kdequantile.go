package kdequantile

import (
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// pkg prefixes the package's error messages.
const pkg = "kdequantile"

// Config sets the operating point and the kernels; docs/kde-quantile.md derives each case.
//
// The operating point has no default: set exactly one of Alpha and Recall
// ([rocops.ErrConfig] otherwise, so the zero Config is rejected). Alpha = α in (0, 1) is the
// loss of the package documentation: τ where the smoothed false-positive rate equals α, L the
// smoothed false-negative rate there. Recall = r in (0, 1)
// is the mirrored loss, for a fixed sensitivity: τ where the smoothed true-positive rate
// equals r, L the smoothed false-positive rate there,
//
//	(1/|B1|) Σ_{i∈B1} σ(f_i − τ; v1) = r,   L = (1/|B0|) Σ_{j∈B0} σ(f_j − τ; v0),
//
// computed as the Alpha loss of the mirrored batch (−f, 1 − y) at α = 1 − r, with τ and the
// gradient mapped back to the scores given.
//
// Tail charges every positive below τ (with Recall: every negative above it) the tangent of
// its kernel term at τ, 1/2 + v1·(τ − f_i)/4, instead of the term: an upper bound of L (no
// longer a rate) whose gradient, −v1/(4|B1|) for each such positive, does not vanish far
// below τ.
//
// V0 and V1 are the inverse bandwidths v0 (negatives) and v1 (positives) of the logistic
// kernels, used as given when positive. Zero, the default, chooses v_c from the batch by the
// normal-reference rule (Silverman, "Density Estimation for Statistics and Data Analysis",
// 1986, §3.4) scaled for the logistic kernel, whose standard deviation is π/(v·√3),
//
//	v_c = π / (√3 · 1.06 · s_c · n_c^(−1/5)),
//
// n_c the size of class c and s_c its sample standard deviation of scores; when that spread
// is not usable, the whole batch's, and when neither is, v_c = 1 (docs/kde-quantile.md,
// "Bandwidths", states when a spread is usable). A batch-chosen bandwidth is held constant in
// the backward pass; [Result] reports the values used.
type Config struct {
	Alpha  float64 // target false-positive rate, 0 < Alpha < 1; 0 = unset
	Recall float64 // target true-positive rate of the mirrored loss, 0 < Recall < 1; 0 = unset
	V0, V1 float64 // inverse bandwidths; 0 = chosen from the batch by the documented rule
	// Tail replaces the kernel term of every positive below τ by its tangent at τ, an upper
	// bound with a linear tail (see Config); false = the smoothed rate itself.
	Tail bool
	// Widen multiplies the bandwidths the rule chooses (h_c → Widen·h_c, so v_c → v_c/Widen),
	// 1e-6 ≤ Widen ≤ 1e6; 0 = 1. Bandwidths given in V0 and V1 are used as given.
	Widen float64
}

// Result holds the threshold τ, the loss L and the inverse bandwidths that produced them.
//
// Tau is on the scale of the scores given, also with Config.Recall. Loss is the smoothed
// false-negative rate at τ with Config.Alpha and the smoothed false-positive rate at τ with
// Config.Recall. V0 and V1 are the inverse bandwidths of the negatives and of the positives
// (the labels given), as configured or chosen by the rule.
type Result struct{ Tau, Loss, V0, V1 float64 }

// Evaluate returns τ and L for scores f and 0/1 labels y (see the package documentation for
// the formulas). It never panics; bad input is an error of the module's vocabulary: an
// empty batch (rocops.ErrEmpty), scores and labels of different lengths (rocops.ErrLength), a NaN
// or infinite score (rocops.ErrNonFinite), a label other than 0 or 1 (rocops.ErrLabel), a batch
// of one class (rocops.ErrNoPositives, rocops.ErrNoNegatives), a bad cfg (rocops.ErrConfig, see
// [Config.Validate]), and rocops.ErrRange for a threshold beyond float64: τ lies within
// |logit(α)|/v0 of the negatives' scores, which overflows for scores near ±1.8e308 or a tiny
// V0. In a float32 graph a τ or gradient that does not fit in float32 is rocops.ErrRange too:
// scores near ±3.4e38, or a gradient, which grows like the inverse bandwidths, of a batch
// spread below about 1e-38 (subnormal scores).
func Evaluate(scores, labels []float64, cfg Config) (Result, error) {
	p, err := newProblem(scores, labels, cfg)
	if err != nil {
		return Result{}, err
	}
	defer p.release()
	r := p.solve()
	loss, _ := p.positives(r.tau, false)
	return p.result(r.tau, loss), nil
}

// Gradient returns ∂L/∂f_i for every score, together with the [Result] of [Evaluate]. The
// bandwidths are held fixed at Result.V0 and Result.V1. Its errors are those of Evaluate; it
// never panics.
func Gradient(scores, labels []float64, cfg Config) ([]float64, Result, error) {
	grad := make([]float64, len(scores))
	res, err := GradientInto(grad, scores, labels, cfg)
	if err != nil {
		return nil, Result{}, err
	}
	return grad, res, nil
}

// GradientInto is [Gradient] writing ∂L/∂f into grad, which must have the scores' length
// (rocops.ErrLength otherwise), for callers that reuse one buffer across steps: every element of
// grad is overwritten. grad is unspecified on error.
func GradientInto(grad, scores, labels []float64, cfg Config) (Result, error) {
	if len(grad) != len(scores) {
		return Result{}, check.Errorf(pkg, rocops.ErrLength, "%d scores, a gradient buffer of %d", len(scores), len(grad))
	}
	p, err := newProblem(scores, labels, cfg)
	if err != nil {
		return Result{}, err
	}
	defer p.release()
	r := p.solve()
	loss, slope := p.positives(r.tau, true)
	// L(f) is the solved form's loss at sign·f: its gradient is sign times the form's.
	p.scatter(labels, grad, p.sign(), slope*p.weights(r), true)
	return p.result(r.tau, loss), nil
}

// thresholdGradient returns ∂τ/∂f_i and τ: the weights w_i on the negatives, zero on the
// positives (with Recall: on the positives, zero on the negatives).
func thresholdGradient(scores, labels []float64, cfg Config) ([]float64, float64, error) {
	p, err := newProblem(scores, labels, cfg)
	if err != nil {
		return nil, 0, err
	}
	defer p.release()
	r := p.solve()
	grad := make([]float64, len(scores))
	// τ(f) = sign·τ_form(sign·f), so ∂τ/∂f_i = sign²·∂τ_form/∂f_i: no sign change.
	p.scatter(labels, grad, 1, p.weights(r), false)
	return grad, p.result(r.tau, 0).Tau, nil
}

// Validate reports whether the settings are valid, as every function of the package checks
// them before it reads a score: exactly one of Alpha and Recall set, in (0, 1), with 1 − Recall
// below 1 in float64 (the mirrored loss solves at α = 1 − Recall, so a Recall below about
// 5.6e-17 is refused); V0 and V1 finite and not negative; Widen 0 or in [1e-6, 1e6]. The
// error is [rocops.ErrConfig] and names the setting.
func (c Config) Validate() error {
	switch {
	case (c.Alpha == 0) == (c.Recall == 0):
		return configError("set exactly one of Alpha and Recall, got Alpha = %v and Recall = %v", c.Alpha, c.Recall)
	case c.Alpha != 0 && !(c.Alpha > 0 && c.Alpha < 1):
		return configError("Alpha = %v, want (0, 1)", c.Alpha)
	case c.Recall != 0 && !(c.Recall > 0 && c.Recall < 1):
		return configError("Recall = %v, want (0, 1)", c.Recall)
	case c.Recall != 0 && !(1-c.Recall < 1):
		return configError("Recall = %v, want (0, 1) and so large that 1 − Recall does not round to 1", c.Recall)
	case !(c.V0 >= 0) || math.IsInf(c.V0, 1):
		return configError("V0 = %v, want a finite inverse bandwidth ≥ 0 (0 = the rule's)", c.V0)
	case c.Widen != 0 && !(c.Widen >= 1e-6 && c.Widen <= 1e6):
		return configError("Widen = %v, want 0 or [1e-6, 1e6]", c.Widen)
	case !(c.V1 >= 0) || math.IsInf(c.V1, 1):
		return configError("V1 = %v, want a finite inverse bandwidth ≥ 0 (0 = the rule's)", c.V1)
	}
	return nil
}

// configError is rocops.ErrConfig with the package's prefix and the details.
func configError(format string, args ...any) error {
	return check.Errorf(pkg, rocops.ErrConfig, format, args...)
}

// solverConfig returns the Alpha form the solver works in and whether it mirrors the batch:
// with Recall, the batch (−f, 1 − y) at α = 1 − r, whose negatives are the given positives,
// so the bandwidths swap. cfg must be valid.
func (c Config) solverConfig() (Config, bool) {
	if c.Recall == 0 {
		return c, false
	}
	m := c
	m.Alpha, m.Recall, m.V0, m.V1 = 1-c.Recall, 0, c.V1, c.V0
	return m, true
}
