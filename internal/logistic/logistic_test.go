package logistic

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// reference returns softplus(z) and σ(z) to about 30 digits with math/big, from the series of
// e^{−|z|}: the identities softplus(z) = max(z, 0) + log(1 + e^{−|z|}) and σ(z) = 1 −
// σ(−z) hold exactly, so only exp and log of numbers in (0, 2] are needed.
func reference(z float64) (softplus, sigmoid float64) {
	const prec = 200
	x := new(big.Float).SetPrec(prec).SetFloat64(-math.Abs(z))
	e := bigExp(x, prec)
	onePlus := new(big.Float).SetPrec(prec).Add(big.NewFloat(1).SetPrec(prec), e)
	sp := bigLog1p(e, prec)
	sp.Add(sp, new(big.Float).SetPrec(prec).SetFloat64(max(z, 0)))
	s := new(big.Float).SetPrec(prec)
	if z >= 0 {
		s.Quo(big.NewFloat(1).SetPrec(prec), onePlus)
	} else {
		s.Quo(e, onePlus)
	}
	a, _ := sp.Float64()
	b, _ := s.Float64()
	return a, b
}

// bigExp returns e^x for x ≤ 0 by its Taylor series, after halving x until |x| < 1 and
// squaring back.
func bigExp(x *big.Float, prec uint) *big.Float {
	k := 0
	y := new(big.Float).SetPrec(prec).Set(x)
	for y.Cmp(big.NewFloat(-0.5)) < 0 {
		y.Quo(y, big.NewFloat(2))
		k++
	}
	sum := new(big.Float).SetPrec(prec).SetFloat64(1)
	term := new(big.Float).SetPrec(prec).SetFloat64(1)
	for n := 1; n < 200; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(n)))
		sum.Add(sum, term)
	}
	for ; k > 0; k-- {
		sum.Mul(sum, sum)
	}
	return sum
}

// bigLog1p returns log(1 + e) for 0 ≤ e ≤ 1 by the series of atanh: log(1+e) = 2·atanh(e/(2+e)).
func bigLog1p(e *big.Float, prec uint) *big.Float {
	u := new(big.Float).SetPrec(prec).Quo(e, new(big.Float).SetPrec(prec).Add(big.NewFloat(2), e))
	u2 := new(big.Float).SetPrec(prec).Mul(u, u)
	sum := new(big.Float).SetPrec(prec)
	pow := new(big.Float).SetPrec(prec).Set(u)
	for n := 1; n < 400; n += 2 {
		sum.Add(sum, new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetPrec(prec).SetInt64(int64(n))))
		pow.Mul(pow, u2)
	}
	return sum.Mul(sum, big.NewFloat(2))
}

func TestAgainstHighPrecision(t *testing.T) {
	// tolUlps: a few roundings of float64 arithmetic, relative.
	const tolRel = 4e-16
	for _, z := range []float64{0, 1e-300, -1e-300, 1e-8, -1e-8, 0.5, -0.5, 1, -1, 10, -10, 36, -36,
		40, -40, 700, -700, 745, -745, 800, -800, 1e300, -1e300} {
		wantSP, wantS := reference(z)
		sp, s := SoftplusSigmoid(z)
		d := math.Abs(sp - wantSP)
		require.LessOrEqual(t, d, tolRel*math.Abs(wantSP), "softplus(%v) = %v, want %v", z, sp, wantSP)
		d = math.Abs(s - wantS)
		require.LessOrEqual(t, d, tolRel*math.Abs(wantS), "σ(%v) = %v, want %v", z, s, wantS)
		require.Equal(t, sp, Softplus(z), "the one-value forms disagree with SoftplusSigmoid at %v", z)
		require.Equal(t, s, Sigmoid(z), "the one-value forms disagree with SoftplusSigmoid at %v", z)
		// LogLoss: softplus(z) for y = 0, softplus(−z) = softplus(z) − z for y = 1, each
		// against its own high-precision value, and SoftplusSigmoid's σ to the bit.
		wantNeg, _ := reference(-z)
		for _, c := range []struct{ y, want float64 }{{0, wantSP}, {1, wantNeg}} {
			l, ls := LogLoss(z, c.y)
			d := math.Abs(l - c.want)
			require.LessOrEqual(t, d, tolRel*math.Abs(c.want), "LogLoss(%v, %v) = %v, want %v", z, c.y, l, c.want)
			require.Equal(t, s, ls, "LogLoss(%v, %v)'s σ = %v, SoftplusSigmoid's %v", z, c.y, ls, s)
		}
	}
}
