package pairwise

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// bigPrec holds the exact difference of any two float64s (exponents 2^−1074 … 2^1023) and
// the exact sums of a few hundred of their squares.
const bigPrec = 4400

// tolMagnitude bounds the relative error against the exact reference: the algorithms work
// on the scores' differences to the batch's centre, which the cases below make exact, and
// then round a few times per score.
const tolMagnitude = 1e-12

// bigReference returns the exact mean of ℓ over all positive–negative pairs and its
// gradient, rounded to float64, for the polynomial surrogates (Square, Hinge, SquaredHinge),
// computed pair by pair in bigPrec-bit arithmetic from the exact differences x = f_i − f_j.
// For Exponential and Logistic each pair term is the float64 function of the exact x
// rounded to float64 (for Logistic in the form that does not overflow) (exact here: the scores of a case are within a factor of two of each
// other, or tied), summed exactly. ok is false when the exact loss or a gradient lies beyond
// the float64 range.
func bigReference(s Surrogate, m float64, f, y []float64) (loss float64, grad []float64, ok bool) {
	nf := func(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }
	bm := nf(m)
	sum := nf(0)
	g := make([]*big.Float, len(f))
	for k := range g {
		g[k] = nf(0)
	}
	pairs := 0
	for i := range f {
		if y[i] != 1 {
			continue
		}
		for j := range f {
			if y[j] != 0 {
				continue
			}
			pairs++
			x := new(big.Float).SetPrec(bigPrec).Sub(nf(f[i]), nf(f[j]))
			var ell, w *big.Float
			switch s {
			case Square, Hinge, SquaredHinge:
				d := new(big.Float).SetPrec(bigPrec).Sub(bm, x) // m − x
				switch {
				case s == Square:
					ell = new(big.Float).SetPrec(bigPrec).Mul(d, d)
					w = new(big.Float).SetPrec(bigPrec).Mul(nf(2), d)
				case d.Sign() <= 0: // inactive, the kink included
					ell, w = nf(0), nf(0)
				case s == Hinge:
					ell, w = d, nf(1)
				default:
					ell = new(big.Float).SetPrec(bigPrec).Mul(d, d)
					w = new(big.Float).SetPrec(bigPrec).Mul(nf(2), d)
				}
			default:
				xf, _ := x.Float64()
				l, wt := naiveEll(s, m, xf), naiveWeight(s, m, xf)
				if s == Logistic { // log(1 + e^(−x)) = max(−x, 0) + log(1 + e^(−|x|)), finite
					l = max(-xf, 0) + math.Log1p(math.Exp(-math.Abs(xf)))
				}
				if math.IsInf(l, 0) || math.IsInf(wt, 0) {
					return 0, nil, false
				}
				ell, w = nf(l), nf(wt)
			}
			sum.Add(sum, ell)
			g[i].Sub(g[i], w)
			g[j].Add(g[j], w)
		}
	}
	p := nf(float64(pairs))
	loss, _ = sum.Quo(sum, p).Float64()
	grad = make([]float64, len(f))
	for k := range g {
		grad[k], _ = g[k].Quo(g[k], p).Float64()
	}
	return loss, grad, finite(loss) && finite(grad...)
}

// TestExactAtLargeMagnitudes: every exact algorithm matches the exact reference on tied
// scores at magnitudes up to 1e308 and on spread scores shifted by up to 1e300, as the
// sampled pairs do; where the exact result lies beyond float64 the error is rocops.ErrRange.
// Before the algorithms centred the scores, tied scores at 1e16 gave an exponential loss of
// 0.25 and square and hinge losses of 0, where the loss is exactly 1.
func TestExactAtLargeMagnitudes(t *testing.T) {
	type batch struct {
		name string
		f, y []float64
	}
	var batches []batch
	for _, c := range []float64{1, 1e12, 1e15, 1e16, 1e100, 1e300, -1e300, 1e308, -math.MaxFloat64} {
		batches = append(batches, batch{fmt.Sprintf("tied at %g", c), []float64{c, c, c, c}, []float64{0, 1, 0, 1}})
	}
	// Scores c + d with d of order 1 (rounded to c's spacing), and at 1e300 scores a few
	// units in the last place apart: differences the float64 scores hold exactly.
	base, labels := testbatch.Shifted(11, 7, 30, 0.4, 1)
	for _, c := range []float64{1e6, 1e10, 1e14, 1e15} {
		f := make([]float64, len(base))
		for k, d := range base {
			f[k] = c + d
		}
		batches = append(batches, batch{fmt.Sprintf("spread 1 at %g", c), f, labels})
	}
	for _, c := range []float64{1e300, -1e300} {
		f := make([]float64, len(base))
		for k := range base {
			f[k] = c + float64(k%5)*math.Abs(c)*0x1p-52
		}
		batches = append(batches, batch{fmt.Sprintf("ulps apart at %g", c), f, labels})
	}
	for _, bt := range batches {
		for _, s := range Surrogates() {
			for _, margin := range []float64{1, 0.5} {
				cfg := Config{Surrogate: s, Margin: margin}
				t.Run(fmt.Sprintf("%s/%v/m=%v", bt.name, s, margin), func(t *testing.T) {
					want, wantGrad, ok := bigReference(s, margin, bt.f, bt.y)
					grad, loss, err := Gradient(bt.f, bt.y, cfg)
					if !ok {
						require.ErrorIs(t, err, rocops.ErrRange, "exact result beyond float64: got loss %v, error %v, want rocops.ErrRange", loss, err)
						return
					}
					require.NoError(t, err, "Gradient: %v (exact loss %v)", err, want)
					e := math.Abs(loss-want) / math.Abs(want)
					require.False(t, !(e <= tolMagnitude) && loss != want, "loss %v, exact %v (relative error %.2g)", loss, want, e)
					scale := 0.0
					for _, g := range wantGrad {
						scale = max(scale, math.Abs(g))
					}
					for k := range grad {
						require.LessOrEqual(t, math.Abs(grad[k]-wantGrad[k]), tolMagnitude*scale, "gradient[%d] %v, exact %v", k, grad[k], wantGrad[k])
					}
				})
			}
		}
	}
}
