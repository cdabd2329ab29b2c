package diagnose_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// h(i, j) = a_i + b_j + r(i, j) on two positives and two negatives, a = (0, 2), b = (0, 4) and
// the pair interaction r = +1 on the diagonal, −1 off it (its rows and columns average to 0):
// μ = 1 + 2 = 3, VarPos = Var(a) = 1, VarNeg = Var(b) = 4, VarResidual = 1. A batch of two of
// each has variance 1/2 + 4/2 + 1/4 = 2.75, of which (1/2 + 4/2)/2.75 = 0.9091 is first-order.
func ExampleHoeffding() {
	a, b := []float64{0, 2}, []float64{0, 4}
	h := func(i, j int) float64 {
		r := -1.0
		if i == j {
			r = 1
		}
		return a[i] + b[j] + r
	}
	s, err := diagnose.Hoeffding(2, 2, h)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", s)
	fmt.Printf("batch variance %.4f, first-order share %.4f\n", s.BatchVariance(2, 2), s.FirstOrderShare(2, 2))
	// Output:
	// {Mean:3 VarPos:1 VarNeg:4 VarResidual:1 NPos:2 NNeg:2}
	// batch variance 2.7500, first-order share 0.9091
}

// The variance of a mini-batch mean decays like 1/B for an additive pair function
// h = u_i + v_j (slope −1 of log-variance on log B) and like 1/B² for a pure interaction
// h = u_i·v_j with u and v of mean zero (slope −2); u_i = ±1 by the parity of i, as v_j by j.
func ExampleBatchSlope() {
	sign := func(i int) float64 { return float64(1 - 2*(i%2)) }
	additive := func(i, j int) float64 { return sign(i) + sign(j) }
	interaction := func(i, j int) float64 { return sign(i) * sign(j) }
	for _, h := range []func(i, j int) float64{additive, interaction} {
		slope, stderr, err := diagnose.BatchSlope(100, 100, h, nil, 2000, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("slope %.2f ± %.2f\n", slope, stderr)
	}
	// Output:
	// slope -1.01 ± 0.01
	// slope -2.01 ± 0.04
}

// A linear scorer s = w·x + c has ∇θ s = (x, 1) in the parameter layout (w, c), so its score
// tangent along v is p = v_w·x + v_c: along the first weight, each row's first feature; along
// the bias, 1.
func ExampleScoreTangents() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	x := []float64{
		3, -1,
		0.5, 2,
	}
	for _, v := range [][]float64{{1, 0, 0}, {0, 0, 1}, {1, 1, 2}} {
		p, err := diagnose.ScoreTangents(m, x, 2, v)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(v, p)
	}
	// Output:
	// [1 0 0] [3 0.5]
	// [0 0 1] [1 1]
	// [1 1 2] [4 4.5]
}

// The diagnostics weigh every pair, so a configuration that trains a partial-AUC cut is refused.
func ExampleCheckSurrogate() {
	fmt.Println(diagnose.CheckSurrogate(pairwise.Config{Surrogate: pairwise.SquaredHinge}))
	err := diagnose.CheckSurrogate(pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.1})
	fmt.Println(errors.Is(err, rocops.ErrConfig), err)
	// Output:
	// <nil>
	// true diagnose: invalid setting: partial-AUC cut MaxFPR = 0.1, MinTPR = 0 not supported; the diagnostics are those of the full loss, MaxFPR = MinTPR = 0
}

// A linear scorer s = x₁ (weights (1, 0), bias 0) with one severe pair at M = 1: the positive
// (−2, 0), scored −2, below the negative (0, 1), scored 0. The squared hinge's severe-pair loss
// ℓ(s_i − s_j) has gradient ℓ′(−2)·(x_i − x_j, 0) in (w, c), the bias cancelling, so the
// correction direction is (x_i − x_j)/‖x_i − x_j‖ = (−2, −1)/√5 = (−0.8944, −0.4472) with bias
// component 0, and its norm |ℓ′(−2)|·√5 = 2(1 + 2)·√5 (the margin is 1).
func ExampleDirection() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	copy(m.Params()[0].Value.Data().([]float64), []float64{1, 0})
	x := []float64{
		-2, 0, // positive, s = −2
		1, 1, // positive, s = 1
		0, 1, // negative, s = 0
		-1.5, 3, // negative, s = −1.5
	}
	labels := []float64{1, 1, 0, 0}
	cfg := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	d, err := diagnose.Comparisons{}.SevereDirection(m, x, labels, cfg, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("V %.4f, bias component 0: %v, norm %.4f (6√5), %d severe pair\n",
		d.V[:2], math.Abs(d.V[2]) < 1e-15, d.Norm, d.Severe)
	// Output:
	// V [-0.8944 -0.4472], bias component 0: true, norm 13.4164 (6√5), 1 severe pair
}

// Project on three classes, one-vs-one, with the hinge (margin 1) and the tangents p_ic = 1 on
// class c's own rows, 0 elsewhere: all scores lie in [0, 1], so every margin is below 1, every
// pair's weight is 1 and h(i, j) = p_ic − p_jc = 1 for every comparison: drift 1, no variance.
func ExampleComparison() {
	scores := []float64{
		0.9, 0.1, 0.0, // row 0, class 0
		0.2, 0.5, 0.3, // row 1, class 1
		0.6, 0.3, 0.1, // row 2, class 2
		0.4, 0.4, 0.2, // row 3, class 0
	}
	labels := []float64{0, 1, 2, 0}
	tangents := make([]float64, len(scores))
	for i, y := range labels {
		tangents[i*3+int(y)] = 1
	}
	ovo := diagnose.Comparisons{Task: rocops.Classes(3), OvO: true}
	splits, err := ovo.Project(scores, labels, tangents, pairwise.Config{Surrogate: pairwise.Hinge})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range splits {
		fmt.Printf("%v: drift %v, variance at B = 1: %v\n", s.Comparison, s.Mean, s.BatchVariance(1, 1))
	}
	// Output:
	// one-vs-one comparison of class 0 against 1: drift 1, variance at B = 1: 0
	// one-vs-one comparison of class 0 against 2: drift 1, variance at B = 1: 0
	// one-vs-one comparison of class 1 against 0: drift 1, variance at B = 1: 0
	// one-vs-one comparison of class 1 against 2: drift 1, variance at B = 1: 0
	// one-vs-one comparison of class 2 against 0: drift 1, variance at B = 1: 0
	// one-vs-one comparison of class 2 against 1: drift 1, variance at B = 1: 0
}

// The binary task's one comparison: the positives scored 2 and −1, the negatives 0 and 1.5, the
// hinge (margin 1) and tangents 1 on the positives, 0 on the negatives, so that h(i, j) = 1
// when the margin s_i − s_j is below 1: the pairs (2, 0) (margin 2) give 0, the other three 1.
// μ = 0.75; the positives' row means 0.5, 1 and the negatives' column means 0.5, 1 give
// VarPos = VarNeg = 0.25² = 0.0625, and the residual ±0.25 gives VarResidual = 0.0625.
func ExampleComparisonSplit() {
	scores := []float64{2, -1, 0, 1.5}
	labels := []float64{1, 1, 0, 0}
	tangents := []float64{1, 1, 0, 0}
	splits, err := diagnose.Comparisons{}.Project(scores, labels, tangents, pairwise.Config{Surrogate: pairwise.Hinge})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := splits[0]
	fmt.Printf("%d split: %v; %+v\n", len(splits), s.Comparison, s.Split)
	// Output:
	// 1 split: the binary comparison; {Mean:0.75 VarPos:0.0625 VarNeg:0.0625 VarResidual:0.0625 NPos:2 NNeg:2}
}
