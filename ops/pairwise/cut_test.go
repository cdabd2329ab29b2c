package pairwise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph/gradcheck"
)

// naiveCutWeights is the test's reference for the partial-AUC weights of one class, from the
// definition: sort the class's scores (descending for the negatives, ascending for the
// positives), let t be the k-th, give weight 1 to every score strictly beyond t, and share
// the remaining k − (number beyond) places equally among the r scores equal to t. Every
// example of the other class gets weight 0 (it is not of this class).
func naiveCutWeights(f, y []float64, label float64, k int) []float64 {
	var xs []float64
	for i := range f {
		if y[i] == label {
			xs = append(xs, f[i])
		}
	}
	slices.Sort(xs)
	if label == 0 {
		slices.Reverse(xs)
	}
	t := xs[k-1]
	beyond, r := 0, 0
	for _, x := range xs {
		switch {
		case x == t:
			r++
		case (label == 0 && x > t) || (label == 1 && x < t):
			beyond++
		}
	}
	w := make([]float64, len(f))
	for i := range f {
		switch {
		case y[i] != label:
		case f[i] == t:
			w[i] = float64(k-beyond) / float64(r)
		case (label == 0 && f[i] > t) || (label == 1 && f[i] < t):
			w[i] = 1
		}
	}
	return w
}

// naivePartial is the weighted double loop over the kept pairs:
// L = Σ_i Σ_j u_i v_j ℓ(f_i − f_j) / (k₊ k₋), ∂/∂f_i = −u_i Σ_j v_j w_ij/(k₊k₋),
// ∂/∂f_j = +v_j Σ_i u_i w_ij/(k₊k₋), the weights held fixed. k₊ and k₋ are ⌈(1−γ)n₊⌉ and
// ⌈β n₋⌉, written out in the test's own arithmetic on the cases it uses.
func naivePartial(s Surrogate, m float64, f, y []float64, kPos, kNeg int) (float64, []float64) {
	u := naiveCutWeights(f, y, 1, kPos)
	v := naiveCutWeights(f, y, 0, kNeg)
	var loss float64
	grad := make([]float64, len(f))
	for i := range f {
		for j := range f {
			if u[i] == 0 || v[j] == 0 {
				continue
			}
			x := f[i] - f[j]
			loss += u[i] * v[j] * naiveEll(s, m, x)
			w := u[i] * v[j] * naiveWeight(s, m, x)
			grad[i] -= w
			grad[j] += w
		}
	}
	p := float64(kPos) * float64(kNeg)
	for k := range grad {
		grad[k] /= p
	}
	return loss / p, grad
}

func classSizes(y []float64) (n1, n0 int) {
	for _, v := range y {
		if v == 1 {
			n1++
		}
	}
	return n1, len(y) - n1
}

// ceilPlaces is ⌈x⌉ at least 1, for the products the tests use (none within 1e-9 of an
// integer from above except exact integers, which are written so).
func ceilPlaces(x float64, n int) int { return min(max(int(math.Ceil(x-1e-9)), 1), n) }

// TestPartialMatchesNaive: every surrogate's partial loss, value and gradient, against the
// weighted double loop, on random and tied batches (the "ties" batch is a grid of quarters,
// so its cuts fall on tied scores with shared places), one-way and two-way.
func TestPartialMatchesNaive(t *testing.T) {
	type cut struct{ beta, gamma float64 }
	cuts := []cut{{0.1, 0}, {0.3, 0}, {0.5, 0.5}, {0.05, 0.9}, {1, 0.3}, {0, 0.25}}
	for _, d := range datasets() {
		n1, n0 := classSizes(d.y)
		for _, c := range cuts {
			kNeg, kPos := n0, n1
			if c.beta > 0 {
				kNeg = ceilPlaces(c.beta*float64(n0), n0)
			}
			if c.gamma > 0 {
				kPos = ceilPlaces((1-c.gamma)*float64(n1), n1)
			}
			for _, s := range Surrogates() {
				for _, margin := range []float64{1, 0.5} {
					t.Run(fmt.Sprintf("%s/β=%v/γ=%v/%v/m=%v", d.name, c.beta, c.gamma, s, margin), func(t *testing.T) {
						wantLoss, want := naivePartial(s, margin, d.f, d.y, kPos, kNeg)
						cfg := Config{Surrogate: s, Margin: margin, MaxFPR: c.beta, MinTPR: c.gamma}
						got, gotLoss, err := Gradient(d.f, d.y, cfg)
						require.NoError(t, err)
						requireClose(t, wantLoss, gotLoss, want, got)
						value, err := Evaluate(d.f, d.y, cfg)
						require.NoError(t, err)
						require.Equal(t, gotLoss, value, "Evaluate and Gradient")
					})
				}
			}
		}
	}
}

// TestPartialTiesShared: a batch built so that both cuts fall inside groups of tied scores
// (negatives 3,2,2,2,1,0 with k₋ = 2: one place beyond, one shared by three; positives
// 0.5,1.5,1.5,4 with k₊ = 2: one below, one shared by two), checked against the weights by
// hand: v = (1, ⅓, ⅓, ⅓, 0, 0), u = (1, ½, ½, 0).
func TestPartialTiesShared(t *testing.T) {
	f := []float64{3, 2, 2, 2, 1, 0, 0.5, 1.5, 1.5, 4}
	y := []float64{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}
	require.Equal(t, []float64{1, 1.0 / 3, 1.0 / 3, 1.0 / 3, 0, 0, 0, 0, 0, 0}, naiveCutWeights(f, y, 0, 2))
	require.Equal(t, []float64{0, 0, 0, 0, 0, 0, 1, 0.5, 0.5, 0}, naiveCutWeights(f, y, 1, 2))
	for _, s := range Surrogates() {
		t.Run(s.String(), func(t *testing.T) {
			// β = 2/6 and γ = 1/2: k₋ = ⌈2⌉ = 2, k₊ = ⌈2⌉ = 2.
			cfg := Config{Surrogate: s, MaxFPR: 2.0 / 6, MinTPR: 0.5}
			got, gotLoss, err := Gradient(f, y, cfg)
			require.NoError(t, err)
			wantLoss, want := naivePartial(s, 1, f, y, 2, 2)
			requireClose(t, wantLoss, gotLoss, want, got)
			// The members of a tie group get equal gradients, the dropped ones none.
			require.Equal(t, got[1], got[2])
			require.Equal(t, got[1], got[3])
			require.Equal(t, got[7], got[8])
			require.Zero(t, got[4])
			require.Zero(t, got[5])
			require.Zero(t, got[9])
		})
	}
}

// TestPartialFullIsExact: MaxFPR = 1 (with MinTPR = 0) keeps every pair, and its loss and
// gradient are bit for bit those of the full loss, for every surrogate, exact and sampled.
func TestPartialFullIsExact(t *testing.T) {
	for _, d := range datasets() {
		for _, s := range Surrogates() {
			for _, pairs := range []int{0, 50} {
				base := Config{Surrogate: s, Margin: 0.5, Pairs: pairs, Seed: 9}
				full, fullLoss, err := Gradient(d.f, d.y, base)
				require.NoError(t, err)
				one := base
				one.MaxFPR = 1
				got, gotLoss, err := Gradient(d.f, d.y, one)
				require.NoError(t, err)
				require.Equal(t, math.Float64bits(fullLoss), math.Float64bits(gotLoss), "%s %v pairs=%d", d.name, s, pairs)
				for k := range full {
					require.Equal(t, math.Float64bits(full[k]), math.Float64bits(got[k]), "%s %v gradient[%d]", d.name, s, k)
				}
			}
		}
	}
}

// TestPartialContinuous: the loss is continuous where a score crosses the cut. Three
// negatives tie at the cut with one place for them; moving one of them by ±ε moves the loss
// by O(ε) (bounded by the largest pair weight times ε, with room), where a rule that kept all
// tied negatives or dropped them all would jump by O(1).
func TestPartialContinuous(t *testing.T) {
	f := []float64{3, 2, 2, 2, 1, 0, 0.5, 1.5, 2.5, 4}
	y := []float64{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}
	for _, s := range Surrogates() {
		cfg := Config{Surrogate: s, MaxFPR: 2.0 / 6}
		at, err := Evaluate(f, y, cfg)
		require.NoError(t, err)
		for _, eps := range []float64{1e-3, 1e-6, 1e-9} {
			for _, sign := range []float64{-1, 1} {
				g := slices.Clone(f)
				g[2] += sign * eps
				l, err := Evaluate(g, y, cfg)
				require.NoError(t, err)
				// |ΔL| ≤ ε·max w over these margins (|x| ≤ 4: w ≤ e⁴ < 60), halved by the
				// 1/(k₊k₋) of the mean but not counted so.
				require.LessOrEqual(t, math.Abs(l-at), 60*eps, "%v ε=%v sign %v", s, eps, sign)
			}
		}
		// The cut matters: the partial loss differs from the full one here.
		full, err := Evaluate(f, y, Config{Surrogate: s})
		require.NoError(t, err)
		require.Greater(t, math.Abs(full-at), 0.1, "%v", s)
	}
}

// TestPartialSampledFromKept: sampled pairs of a partial loss are drawn from the kept
// places, tie shares included, so their mean over many seeds estimates the exact partial
// loss and gradient without bias (within 4.5 standard errors for the loss and each of the
// 10 gradient coordinates), and the dropped examples never get a gradient.
func TestPartialSampledFromKept(t *testing.T) {
	f := []float64{3, 2, 2, 2, 1, 0, 0.5, 1.5, 1.5, 4}
	y := []float64{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}
	const runs = 2000
	exact, exactLoss, err := Gradient(f, y, Config{Surrogate: SquaredHinge, MaxFPR: 2.0 / 6, MinTPR: 0.5})
	require.NoError(t, err)
	sum, sq := make([]float64, len(f)+1), make([]float64, len(f)+1)
	for seed := range uint64(runs) {
		g, l, err := Gradient(f, y, Config{Surrogate: SquaredHinge, MaxFPR: 2.0 / 6, MinTPR: 0.5, Pairs: 3, Seed: seed})
		require.NoError(t, err)
		for k, v := range append(g, l) {
			sum[k] += v
			sq[k] += v * v
		}
		require.Zero(t, g[4])
		require.Zero(t, g[5])
		require.Zero(t, g[9])
	}
	for k, want := range append(exact, exactLoss) {
		mean := sum[k] / runs
		se := math.Sqrt((sq[k]/runs - mean*mean) / runs)
		require.LessOrEqual(t, math.Abs(mean-want), 4.5*se+1e-12, "coordinate %d: mean %v, exact %v, se %v", k, mean, want, se)
	}
}

// TestPlaces: ⌈frac·n⌉ at least 1 and at most n, decimal products counted as written.
func TestPlaces(t *testing.T) {
	for _, c := range []struct {
		frac float64
		n    int
		want int
	}{
		{0.7, 10, 7}, // 0.7·10 = 7.000000000000001 in float64
		{0.1, 10, 1},
		{0.15, 10, 2},
		{0.05, 10, 1},
		{0.001, 10, 1}, // at least one place
		{1, 10, 10},
		{0.3, 7, 3}, // 2.1
		{0.1, 1 << 20, 104858},
	} {
		require.Equal(t, c.want, places(c.frac, c.n), "⌈%v·%d⌉", c.frac, c.n)
	}
}

// TestSelectRank: quickselect against a sort, on random, tied, sorted and reversed input.
func TestSelectRank(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	inputs := map[string][]float64{}
	for _, n := range []int{1, 2, 17, 100, 1000} {
		random, tied, up := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range random {
			random[i], tied[i], up[i] = r.NormFloat64(), float64(r.IntN(3)), float64(i)
		}
		inputs[fmt.Sprintf("random/%d", n)] = random
		inputs[fmt.Sprintf("tied/%d", n)] = tied
		inputs[fmt.Sprintf("sorted/%d", n)] = up
		down := slices.Clone(up)
		slices.Reverse(down)
		inputs[fmt.Sprintf("reversed/%d", n)] = down
	}
	for name, xs := range inputs {
		sorted := slices.Sorted(slices.Values(xs))
		for _, k := range []int{0, len(xs) / 3, len(xs) / 2, len(xs) - 1} {
			require.Equal(t, sorted[k], selectRank(slices.Clone(xs), k), "%s rank %d", name, k)
		}
	}
}

// TestPartialConfigErrors: MaxFPR outside [0, 1] or NaN and MinTPR outside [0, 1) or NaN are
// rocops.ErrConfig naming the setting and its value, from Validate, Evaluate and Loss alike.
func TestPartialConfigErrors(t *testing.T) {
	f, y := []float64{0, 1, 2}, []float64{0, 1, 0}
	for _, c := range []struct {
		cfg  Config
		says string
	}{
		{Config{MaxFPR: -0.1}, "MaxFPR = -0.1, want [0, 1]"},
		{Config{MaxFPR: 1.5}, "MaxFPR = 1.5, want [0, 1]"},
		{Config{MaxFPR: math.NaN()}, "MaxFPR = NaN"},
		{Config{MaxFPR: math.Inf(1)}, "MaxFPR = +Inf"},
		{Config{MaxFPR: 0.1, MinTPR: 1}, "MinTPR = 1, want [0, 1)"},
		{Config{MinTPR: -0.5}, "MinTPR = -0.5"},
		{Config{MaxFPR: 0.1, MinTPR: math.NaN()}, "MinTPR = NaN"},
	} {
		_, scores, labels := newGraph(t, tensor.Float64, f, y)
		_, err := Evaluate(f, y, c.cfg)
		_, lossErr := Loss(scores, labels, c.cfg)
		for _, err := range []error{c.cfg.Validate(), err, lossErr} {
			require.ErrorIs(t, err, rocops.ErrConfig, "%+v", c.cfg)
			require.ErrorContains(t, err, "pairwise: invalid setting: "+c.says)
		}
	}
}

// TestPartialLossGradcheck: the op with a partial cut against finite differences, every
// surrogate, both dtypes, both machines, exact and sampled. On opScores the kept set is
// locally fixed: the negatives are 2.5, 1, 0.75, 0.25, −0.25, −1.25 and β = 0.5 keeps the top
// three (the next is 0.5 below the cut), β = 0.3 the top two; the positives are 2.875,
// 1.625, 0.375, −0.625 and γ = 0.5 keeps the lowest two (the next is 1.25 above), far more
// than the stencil's step.
func TestPartialLossGradcheck(t *testing.T) {
	for _, s := range Surrogates() {
		for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
			for _, cfg := range []Config{
				{Surrogate: s, MaxFPR: 0.5},
				{Surrogate: s, MaxFPR: 0.3, MinTPR: 0.5, Margin: 0.5},
				{Surrogate: s, MaxFPR: 0.5, MinTPR: 0.5, Pairs: 11, Seed: 2},
			} {
				t.Run(fmt.Sprintf("%v/%v/β=%v/γ=%v/pairs=%d", s, dt, cfg.MaxFPR, cfg.MinTPR, cfg.Pairs), func(t *testing.T) {
					_, scores, labels := newGraph(t, dt, opScores, opLabels)
					cost, err := Loss(scores, labels, cfg)
					require.NoError(t, err)
					r := gradcheck.Assert(t, cost, gorgonia.Nodes{scores}, gradcheck.Config{Lisp: gradcheck.LispRequire})
					require.Equal(t, []gradcheck.Machine{gradcheck.Tape, gradcheck.Lisp}, r.Machines)
					// The dropped scores have a zero gradient, so the check covers the cut.
					g, _, err := Gradient(opScores, opLabels, cfg)
					require.NoError(t, err)
					require.Zero(t, g[8], "negative −0.25 is dropped")
					if cfg.MinTPR > 0 {
						require.Zero(t, g[6], "positive 2.875 is dropped")
					}
				})
			}
		}
	}
}
