package kdequantile

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// This file holds the tests' independent reference: the definitions of the package
// documentation evaluated the slow, obvious way, sharing no code with the package.

// refSigma is the logistic function 1/(1 + e^{−x}), in the form that cannot overflow.
func refSigma(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// refSum adds xs in increasing order of magnitude with Kahan compensation.
func refSum(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.SortFunc(s, func(a, b float64) int { return cmp.Compare(math.Abs(a), math.Abs(b)) })
	sum, comp := 0.0, 0.0
	for _, x := range s {
		y := x - comp
		t := sum + y
		comp = (t - sum) - y
		sum = t
	}
	return sum
}

// classes splits scores by label.
func classes(scores, labels []float64) (neg, pos []float64) {
	for i, f := range scores {
		if labels[i] == 1 {
			pos = append(pos, f)
		} else {
			neg = append(neg, f)
		}
	}
	return neg, pos
}

// refFPR is the smoothed false-positive rate (1/|B0|)·Σσ(v0·(f_j − τ)).
func refFPR(neg []float64, v0, tau float64) float64 {
	terms := make([]float64, len(neg))
	for j, f := range neg {
		terms[j] = refSigma(v0 * (f - tau))
	}
	return refSum(terms) / float64(len(neg))
}

// refTau solves refFPR(τ) = α by plain bisection until the bracket is below 1e-15 relative
// (or two adjacent floats).
func refTau(neg []float64, v0, alpha float64) float64 {
	lo, hi := neg[0], neg[0]
	for _, f := range neg {
		lo, hi = math.Min(lo, f), math.Max(hi, f)
	}
	lo, hi = lo-60/v0, hi+60/v0 // σ(±60) is 1 or 0 to 1e-26
	for hi-lo > 1e-15*math.Max(1, math.Abs(lo)) {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if refFPR(neg, v0, mid) > alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// refLoss is F̂_1(τ) = (1/|B1|)·Σσ(v1·(τ − f_i)) by direct summation.
func refLoss(pos []float64, v1, tau float64) float64 {
	terms := make([]float64, len(pos))
	for i, f := range pos {
		terms[i] = refSigma(v1 * (tau - f))
	}
	return refSum(terms) / float64(len(pos))
}

// refStd is the two-pass sample standard deviation.
func refStd(xs []float64) float64 {
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// refRuleV is the bandwidth rule of Config written out: π/(√3·h), h = 1.06·s·n^(−1/5).
func refRuleV(s float64, n int) float64 {
	return math.Pi / (math.Sqrt(3) * 1.06 * s * math.Pow(float64(n), -0.2))
}

// refWeights is the log-space softmax of docs/kde-quantile.md, w_i = exp(ℓ_i − logsumexp ℓ) with
// ℓ_i = −|z_i| − 2·log1p(e^{−|z_i|}), z_i = v0·(τ − f_i), written out literally.
func refWeights(neg []float64, v0, tau float64) []float64 {
	l := make([]float64, len(neg))
	top := math.Inf(-1)
	for i, f := range neg {
		a := math.Abs(v0 * (tau - f))
		l[i] = -a - 2*math.Log1p(math.Exp(-a))
		top = math.Max(top, l[i])
	}
	terms := make([]float64, len(neg))
	for i := range l {
		terms[i] = math.Exp(l[i] - top)
	}
	lse := top + math.Log(refSum(terms))
	w := make([]float64, len(neg))
	for i := range l {
		w[i] = math.Exp(l[i] - lse)
	}
	return w
}

// relErr is |got − want| / max(|want|, floor).
func relErr(got, want, floor float64) float64 {
	return math.Abs(got-want) / math.Max(math.Abs(want), floor)
}

// mustEvaluate is Evaluate failing the test on error.
func mustEvaluate(t testing.TB, scores, labels []float64, cfg Config) Result {
	t.Helper()
	r, err := Evaluate(scores, labels, cfg)
	require.NoError(t, err, "Evaluate")
	return r
}

// mustGradient is Gradient failing the test on error.
func mustGradient(t testing.TB, scores, labels []float64, cfg Config) ([]float64, Result) {
	t.Helper()
	g, r, err := Gradient(scores, labels, cfg)
	require.NoError(t, err, "Gradient")
	return g, r
}
