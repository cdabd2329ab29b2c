package kdequantile

import (
	"errors"
	"fmt"
	"math"

	"github.com/rocops/rocops/internal/check"
)

// pkg prefixes the package's error messages.
const pkg = "kdequantile"

// Errors returned for invalid input. Every error of this package wraps one of them, so callers
// can test for them with errors.Is. The input errors, from ErrEmpty to ErrNode, are the
// module's shared vocabulary: the same values as in packages pairwise, metrics and the
// others, so errors.Is(err, pairwise.ErrLength) holds for this package's length error too.
// ErrNoPositives and ErrNoNegatives both match ErrOneClass.
var (
	ErrEmpty       = check.ErrEmpty
	ErrLength      = check.ErrLength
	ErrNonFinite   = check.ErrNonFinite
	ErrLabel       = check.ErrLabel
	ErrOneClass    = check.ErrOneClass
	ErrNoPositives = check.ErrNoPositives
	ErrNoNegatives = check.ErrNoNegatives
	// ErrNode reports a scores or labels node that cannot feed the ops: nil, of two graphs,
	// of a dtype other than float32/float64 or not matching, not a vector, or of unknown or
	// zero length.
	ErrNode      = check.ErrNode
	ErrAlpha     = errors.New("kdequantile: alpha must be in (0, 1)")
	ErrBandwidth = errors.New("kdequantile: inverse bandwidth must be finite and not negative")
	// ErrRange reports a threshold beyond the float64 range: τ lies within |logit(α)|/v0 of
	// the negatives' scores, which overflows for scores near ±1.8e308 or a tiny V0.
	ErrRange = errors.New("kdequantile: threshold overflows float64")
)

// Config sets the operating point and the kernels.
//
// Alpha is the target false-positive rate α. It has no default: the operating point is the
// user's decision, so a zero Alpha is rejected with [ErrAlpha] like any value outside (0, 1).
//
// V0 and V1 are the inverse bandwidths v0 (negatives) and v1 (positives) of the logistic
// kernels. A positive value is used as given. Zero, the default, chooses it from the batch by
// the normal-reference (Silverman-type) rule scaled for the logistic kernel, whose standard
// deviation is π/(v·√3):
//
//	h_c = 1.06 · s_c · n_c^(−1/5)
//	v_c = π / (√3 · h_c)
//
// where n_c is the size of class c and s_c a standard deviation of scores. s_c is the class's
// own sample standard deviation when that is usable; a spread is usable when it comes from at
// least two scores, exceeds 1e-6 times the largest |score| it was computed from (below that
// the kernel would be resolved by too few float64 steps), and gives a finite v_c. Otherwise
// s_c falls back to the sample standard deviation of the whole batch (both classes), and if
// that is not usable either (all scores tied, or nearly), v_c = 1. A batch-chosen bandwidth
// is held constant in the backward pass; [Result] reports the values used.
type Config struct {
	Alpha  float64 // target false-positive rate, 0 < Alpha < 1
	V0, V1 float64 // inverse bandwidths; 0 = chosen from the batch by the documented rule
}

// Result holds the threshold τ, the loss L and the inverse bandwidths that produced them.
type Result struct{ Tau, Loss, V0, V1 float64 }

// Evaluate returns τ and L for scores f and 0/1 labels y (see the package documentation for
// the formulas). It returns an error wrapping one of the package's Err values for invalid
// input; it never panics.
func Evaluate(scores, labels []float64, cfg Config) (Result, error) {
	p, err := newProblem(scores, labels, cfg)
	if err != nil {
		return Result{}, err
	}
	defer p.release()
	r := p.solve(math.NaN(), true)
	loss, _ := p.positives(r.tau, false)
	return p.result(r.tau, loss), nil
}

// Gradient returns ∂L/∂f_i for every score, together with the [Result] of [Evaluate]. The
// bandwidths are held fixed at Result.V0 and Result.V1. It returns an error wrapping one of the
// package's Err values for invalid input; it never panics.
func Gradient(scores, labels []float64, cfg Config) ([]float64, Result, error) {
	return gradient(scores, labels, cfg, math.NaN())
}

// gradient is Gradient with a starting guess for τ (NaN for none).
func gradient(scores, labels []float64, cfg Config, start float64) ([]float64, Result, error) {
	p, err := newProblem(scores, labels, cfg)
	if err != nil {
		return nil, Result{}, err
	}
	defer p.release()
	r := p.solve(start, false)
	loss, slope := p.positives(r.tau, true)
	grad := make([]float64, len(scores))
	p.scatter(labels, grad, slope*p.weights(r), true)
	return grad, p.result(r.tau, loss), nil
}

// thresholdGradient returns ∂τ/∂f_i: the weights w_i on the negatives, zero on the positives.
func thresholdGradient(scores, labels []float64, cfg Config, start float64) ([]float64, float64, error) {
	p, err := newProblem(scores, labels, cfg)
	if err != nil {
		return nil, 0, err
	}
	defer p.release()
	r := p.solve(start, false)
	grad := make([]float64, len(scores))
	p.scatter(labels, grad, p.weights(r), false)
	return grad, r.tau, nil
}

// threshold returns τ alone.
func threshold(scores, labels []float64, cfg Config) (float64, error) {
	p, err := newProblem(scores, labels, cfg)
	if err != nil {
		return 0, err
	}
	defer p.release()
	return p.solve(math.NaN(), true).tau, nil
}

func (c Config) validate() error {
	if !(c.Alpha > 0 && c.Alpha < 1) {
		return fmt.Errorf("%w, got %v", ErrAlpha, c.Alpha)
	}
	if !(c.V0 >= 0) || math.IsInf(c.V0, 1) {
		return fmt.Errorf("%w: V0 = %v", ErrBandwidth, c.V0)
	}
	if !(c.V1 >= 0) || math.IsInf(c.V1, 1) {
		return fmt.Errorf("%w: V1 = %v", ErrBandwidth, c.V1)
	}
	return nil
}
