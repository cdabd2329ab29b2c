package aucm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// The test reference: the AUC-M loss of Yuan et al. (ICCV 2021, LibAUC's documented AUCMLoss)
// written out term by term on h = 1/(1 + e^{−z}), and its partial derivatives differentiated
// by hand. None of it calls the package.

func refSigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func refSigmoidPrime(z float64) float64 {
	e := math.Exp(-z)
	return e / ((1 + e) * (1 + e))
}

// refLoss returns f and ∂f/∂z, ∂f/∂a, ∂f/∂b, ∂f/∂α:
// f = (1/n₊)Σ₊(h−a)² + (1/n₋)Σ₋(h−b)² + 2α(m + (1/n₋)Σ₋h − (1/n₊)Σ₊h) − α²;
// ∂f/∂h_i = (2/n₊)(h_i − a) − 2α/n₊ on a positive, (2/n₋)(h_j − b) + 2α/n₋ on a negative,
// times dh/dz = e^{−z}/(1 + e^{−z})² (not h(1 − h), whose 1 − h cancels for large z);
// ∂f/∂a = −(2/n₊)Σ₊(h − a); ∂f/∂b = −(2/n₋)Σ₋(h − b);
// ∂f/∂α = 2(m + E₋h − E₊h) − 2α.
func refLoss(z, y []float64, a, b, alpha, m float64) (f float64, dz []float64, da, db, dalpha float64) {
	var n1, n0 float64
	for _, v := range y {
		if v == 1 {
			n1++
		} else {
			n0++
		}
	}
	var e1, e0 float64
	dz = make([]float64, len(z))
	for k := range z {
		h := refSigmoid(z[k])
		if y[k] == 1 {
			f += (h - a) * (h - a) / n1
			e1 += h / n1
			da += -2 * (h - a) / n1
			dz[k] = ((2/n1)*(h-a) - 2*alpha/n1) * refSigmoidPrime(z[k])
		} else {
			f += (h - b) * (h - b) / n0
			e0 += h / n0
			db += -2 * (h - b) / n0
			dz[k] = ((2/n0)*(h-b) + 2*alpha/n0) * refSigmoidPrime(z[k])
		}
	}
	f += 2*alpha*(m+e0-e1) - alpha*alpha
	dalpha = 2*(m+e0-e1) - 2*alpha
	return f, dz, da, db, dalpha
}

// tolFormula: the package and the reference sum the same ≤ 500 terms in another order and
// compute σ′ from e^{−|z|} against e^{−z}, a few ulps apart.
const tolFormula = 1e-12

func TestMatchesFormula(t *testing.T) {
	type batchCase struct {
		name string
		z, y []float64
	}
	var cases []batchCase
	z, y := testbatch.Shifted(1, 3, 200, 0.3, 1)
	cases = append(cases, batchCase{"random", z, y})
	z, y = testbatch.Shifted(2, 3, 500, 0.03, 2)
	cases = append(cases, batchCase{"imbalanced", z, y})
	cases = append(cases, batchCase{"one each", []float64{0.4, -1.1}, []float64{1, 0}})
	cases = append(cases, batchCase{"saturated", []float64{30, -25, 12, -8, 0}, []float64{1, 0, 0, 1, 1}})
	for _, c := range cases {
		for _, p := range []struct{ a, b, alpha, margin float64 }{
			{0, 0, 0, 0}, // LibAUC's initial a = b = α = 0, default margin
			{0.7, 0.2, 0.4, 1},
			{-0.3, 1.5, 2, 0.5},
		} {
			t.Run(fmt.Sprintf("%s/a=%v/b=%v/alpha=%v/m=%v", c.name, p.a, p.b, p.alpha, p.margin), func(t *testing.T) {
				m := p.margin
				if m == 0 {
					m = 1
				}
				wantF, wantZ, wantA, wantB, wantAlpha := refLoss(c.z, c.y, p.a, p.b, p.alpha, m)
				cfg := Config{Margin: p.margin}
				dz, da, db, dalpha, f, err := gradient1(c.z, c.y, p.a, p.b, p.alpha, cfg)
				require.NoError(t, err)
				require.InDelta(t, wantF, f, tolFormula*max(1, math.Abs(wantF)), "f")
				require.InDelta(t, wantA, da, tolFormula*max(1, math.Abs(wantA)), "∂f/∂a")
				require.InDelta(t, wantB, db, tolFormula*max(1, math.Abs(wantB)), "∂f/∂b")
				require.InDelta(t, wantAlpha, dalpha, tolFormula*max(1, math.Abs(wantAlpha)), "∂f/∂α")
				for k := range wantZ {
					require.InDelta(t, wantZ[k], dz[k], tolFormula*max(math.Abs(wantZ[k]), 1e-300)+1e-18, "∂f/∂z[%d]", k)
				}
				v, err := evaluate1(c.z, c.y, p.a, p.b, p.alpha, cfg)
				require.NoError(t, err)
				require.Equal(t, f, v, "Evaluate and Gradient")
			})
		}
	}
}

// TestGradientFiniteDifferences: the four derivatives against central differences of
// Evaluate (step 1e-5, truncation error ~1e-10 for this smooth f).
func TestGradientFiniteDifferences(t *testing.T) {
	z, y := testbatch.Shifted(3, 3, 30, 0.4, 0.5)
	a, b, alpha := 0.6, 0.3, 0.25
	cfg := Config{Margin: 0.8}
	dz, da, db, dalpha, _, err := gradient1(z, y, a, b, alpha, cfg)
	require.NoError(t, err)
	const h, tol = 1e-5, 1e-8
	eval := func(z []float64, a, b, alpha float64) float64 {
		v, err := evaluate1(z, y, a, b, alpha, cfg)
		require.NoError(t, err)
		return v
	}
	require.InDelta(t, (eval(z, a+h, b, alpha)-eval(z, a-h, b, alpha))/(2*h), da, tol)
	require.InDelta(t, (eval(z, a, b+h, alpha)-eval(z, a, b-h, alpha))/(2*h), db, tol)
	require.InDelta(t, (eval(z, a, b, alpha+h)-eval(z, a, b, alpha-h))/(2*h), dalpha, tol)
	for k := range z {
		up, down := append([]float64(nil), z...), append([]float64(nil), z...)
		up[k] += h
		down[k] -= h
		require.InDelta(t, (eval(up, a, b, alpha)-eval(down, a, b, alpha))/(2*h), dz[k], tol, "z[%d]", k)
	}
}

// TestOptimumGridMinMax: Optimum against a brute-force min over a grid of (a, b) of the max
// over a grid of α ≥ 0 of Evaluate. The grids have spacing δ = 1/60 (a, b in [0, 1], where
// the class means of h lie; α in [0, 2], which holds (m − Δ)₊ for m ≤ 1), so each of the three
// optimisations misses by at most (δ/2)² (f has curvature 1 in a, b and −1 in α) and the
// grid value lies within 3(δ/2)² ≈ 2.1e-4 of the saddle value. A sample variance (n − 1)
// in place of the population one would be off by 5e-3 to 1.4e-2 on these 10-score batches.
func TestOptimumGridMinMax(t *testing.T) {
	const steps = 60
	const delta = 1.0 / steps
	for _, c := range []struct {
		name   string
		seed   uint64
		shift  float64
		margin float64
	}{
		{"overlapping", 4, 0.3, 0},
		{"separated, margin met", 5, 6, 0.5}, // Δ > m: the optimal α is 0
		{"separated", 6, 3, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			z, y := testbatch.Shifted(c.seed, 3, 10, 0.4, c.shift)
			cfg := Config{Margin: c.margin}
			want, err := Optimum(z, y, cfg)
			require.NoError(t, err)
			best := math.Inf(1)
			for i := 0; i <= steps; i++ {
				for j := 0; j <= steps; j++ {
					a, b := float64(i)*delta, float64(j)*delta
					inner := math.Inf(-1)
					for k := 0; k <= 2*steps; k++ {
						v, err := evaluate1(z, y, a, b, float64(k)*delta, cfg)
						require.NoError(t, err)
						inner = max(inner, v)
					}
					best = min(best, inner)
				}
			}
			require.InDelta(t, want, best, 3*(delta/2)*(delta/2), "grid min–max %v, Optimum %v", best, want)
		})
	}
}

// TestOptimumAtSaddle: Optimum equals Evaluate at the closed-form saddle point a = E₊h,
// b = E₋h, α = (m − (E₊h − E₋h))₊, and no nearby (a, b) lowers, nor nearby α ≥ 0 raises, f.
func TestOptimumAtSaddle(t *testing.T) {
	z, y := testbatch.Shifted(7, 3, 60, 0.3, 1)
	var e1, e0, n1, n0 float64
	for k := range z {
		if y[k] == 1 {
			e1 += refSigmoid(z[k])
			n1++
		} else {
			e0 += refSigmoid(z[k])
			n0++
		}
	}
	e1, e0 = e1/n1, e0/n0
	alpha := max(1-(e1-e0), 0)
	opt, err := Optimum(z, y, Config{})
	require.NoError(t, err)
	at, err := evaluate1(z, y, e1, e0, alpha, Config{})
	require.NoError(t, err)
	require.InDelta(t, at, opt, 1e-14)
	for _, d := range []float64{-1e-3, 1e-3} {
		v, _ := evaluate1(z, y, e1+d, e0, alpha, Config{})
		require.Greater(t, v, at)
		v, _ = evaluate1(z, y, e1, e0+d, alpha, Config{})
		require.Greater(t, v, at)
		v, _ = evaluate1(z, y, e1, e0, alpha+d, Config{})
		require.Less(t, v, at)
	}
}

func TestErrors(t *testing.T) {
	z, y := []float64{0.1, 0.2, -0.3}, []float64{1, 0, 0}
	for _, c := range []struct {
		name           string
		z, y           []float64
		a, b, alpha, m float64
		want           error
		says           string
		aux            bool // bad only in a, b or α, which Optimum does not take
	}{
		{"one class", z, []float64{0, 0, 0}, 0, 0, 0, 0, rocops.ErrOneClass, "", false},
		{"no positives", z, []float64{0, 0, 0}, 0, 0, 0, 0, rocops.ErrNoPositives, "", false},
		{"no negatives", z, []float64{1, 1, 1}, 0, 0, 0, 0, rocops.ErrNoNegatives, "", false},
		{"empty", nil, nil, 0, 0, 0, 0, rocops.ErrEmpty, "", false},
		{"length", z, y[:2], 0, 0, 0, 0, rocops.ErrLength, "", false},
		{"NaN score", []float64{math.NaN(), 0, 1}, y, 0, 0, 0, 0, rocops.ErrNonFinite, "", false},
		{"label 2", z, []float64{1, 2, 0}, 0, 0, 0, 0, rocops.ErrLabel, "", false},
		{"negative margin", z, y, 0, 0, 0, -1, rocops.ErrConfig, "invalid setting: Margin = -1", false},
		{"NaN margin", z, y, 0, 0, 0, math.NaN(), rocops.ErrConfig, "invalid setting: Margin = NaN", false},
		{"NaN a", z, y, math.NaN(), 0, 0, 0, rocops.ErrConfig, "invalid setting: a[0] = NaN, want a finite value", true},
		{"infinite alpha", z, y, 0, 0, math.Inf(1), 0, rocops.ErrConfig, "invalid setting: alpha[0] = +Inf", true},
		{"overflow", z, y, 1e200, 0, 0, 0, rocops.ErrRange, "value out of range: the loss overflows float64", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := evaluate1(c.z, c.y, c.a, c.b, c.alpha, Config{Margin: c.m})
			require.ErrorIs(t, err, c.want)
			require.ErrorContains(t, err, "aucm: "+c.says)
			_, _, _, _, _, err = gradient1(c.z, c.y, c.a, c.b, c.alpha, Config{Margin: c.m})
			require.ErrorIs(t, err, c.want)
			require.ErrorContains(t, err, "aucm: "+c.says)
			if !c.aux {
				_, err = Optimum(c.z, c.y, Config{Margin: c.m})
				require.ErrorIs(t, err, c.want)
				require.ErrorContains(t, err, "aucm: "+c.says)
			}
		})
	}
}

// oneColumnRef is the binary loss as it was computed before binary data became the one-column
// case of the column loss: its value and derivatives, and its saddle value, written for one
// column only.
func oneColumnRef(scores, labels []float64, a, b, alpha, m float64) (value float64, dz []float64, da, db, dalpha, opt float64) {
	var n1, n0 int
	for _, y := range labels {
		if y == 1 {
			n1++
		} else {
			n0++
		}
	}
	w1, w0 := 1/float64(n1), 1/float64(n0)
	var sq1, sq0, mu1, mu0 float64
	dz = make([]float64, len(scores))
	for k, z := range scores {
		h, dh := sigmoid(z)
		if labels[k] == 1 {
			e := h - a
			sq1 += e * e
			mu1 += h
			dz[k] = 2 * w1 * (e - alpha) * dh
		} else {
			e := h - b
			sq0 += e * e
			mu0 += h
			dz[k] = 2 * w0 * (e + alpha) * dh
		}
	}
	mu1 *= w1
	mu0 *= w0
	gap := m + mu0 - mu1
	value = sq1*w1 + sq0*w0 + 2*alpha*gap - alpha*alpha
	var mu, v [2]float64
	for k, z := range scores {
		h, _ := sigmoid(z)
		mu[int(labels[k])] += h
	}
	mu[1] /= float64(n1)
	mu[0] /= float64(n0)
	for k, z := range scores {
		h, _ := sigmoid(z)
		c := int(labels[k])
		v[c] += (h - mu[c]) * (h - mu[c])
	}
	g := max(m-(mu[1]-mu[0]), 0)
	opt = v[1]/float64(n1) + v[0]/float64(n0) + g*g
	return value, dz, -2 * (mu1 - a), -2 * (mu0 - b), 2*gap - 2*alpha, opt
}

// TestBinaryIsOneColumn: on binary data the column loss gives the one-column formulas bit for
// bit — value, every derivative and the saddle value — on random batches of several sizes,
// score scales and variables, margins 1 and 0.3.
func TestBinaryIsOneColumn(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 3))
	for trial := range 60 {
		n := 2 + r.IntN(300)
		z, y := testbatch.Shifted(uint64(trial), 3, n, 0.05+0.9*r.Float64(), r.NormFloat64())
		scale := math.Pow(10, 3*r.Float64()-1)
		for i := range z {
			z[i] *= scale
		}
		y[0], y[1] = 1, 0 // both classes
		a, b, alpha := r.NormFloat64(), r.NormFloat64(), 2*r.Float64()
		cfg := Config{}
		if trial%2 == 1 {
			cfg.Margin = 0.3
		}
		wv, wz, wa, wb, wal, wopt := oneColumnRef(z, y, a, b, alpha, cfg.margin())
		dz, da, db, dal, v, err := gradient1(z, y, a, b, alpha, cfg)
		require.NoError(t, err)
		require.Equal(t, wv, v, "trial %d: value", trial)
		require.Equal(t, wz, dz, "trial %d: dz", trial)
		require.Equal(t, []float64{wa, wb, wal}, []float64{da, db, dal}, "trial %d: da, db, dα", trial)
		e, err := evaluate1(z, y, a, b, alpha, cfg)
		require.NoError(t, err)
		require.Equal(t, wv, e, "trial %d: Evaluate", trial)
		opt, err := Optimum(z, y, cfg)
		require.NoError(t, err)
		require.Equal(t, wopt, opt, "trial %d: Optimum", trial)
	}
}
