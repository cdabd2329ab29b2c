package pairwise

import (
	"cmp"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/enum"
	logisticfn "github.com/rocops/rocops/internal/logistic" // package pairwise has its own func logistic
)

// Surrogate names a pairwise surrogate ℓ of the 0-1 ranking loss, a function of the pair
// margin x = f_pos − f_neg (Chen et al., arXiv 2610.21743, §3 and appendix E.1). With m the
// margin of [Config]:
//
//	Logistic      ℓ(x) = log(1 + e^(−x))     w(x) = σ(−x) = 1/(1 + e^x)
//	Exponential   ℓ(x) = e^(−x)              w(x) = e^(−x)
//	Square        ℓ(x) = (m − x)²            w(x) = 2(m − x)
//	Hinge         ℓ(x) = (m − x)₊            w(x) = 1{x < m}
//	SquaredHinge  ℓ(x) = (m − x)₊²           w(x) = 2(m − x)₊
//
// where (u)₊ = max(u, 0), 1{·} is 1 when the condition holds and 0 otherwise, and w = −ℓ′ is
// the weight a pair gets in the gradient (see [Weight]). Logistic and Exponential have no
// margin parameter: m does not enter them. The zero value is Logistic.
type Surrogate int

// The five surrogates of Chen et al., arXiv 2610.21743.
const (
	Logistic Surrogate = iota
	Exponential
	Square
	Hinge
	SquaredHinge
)

// surrogates names the surrogates; an unknown name is rocops.ErrConfig.
var surrogates = enum.New[Surrogate]("surrogate", check.Errorf(pkg, rocops.ErrConfig, ""),
	"logistic", "exp", "square", "hinge", "sqhinge")

// Surrogates returns the five surrogates in the order of their constants.
func Surrogates() []Surrogate {
	return []Surrogate{Logistic, Exponential, Square, Hinge, SquaredHinge}
}

func (s Surrogate) valid() bool { return surrogates.Valid(s) }

// String returns the surrogate's short name: "logistic", "exp", "square", "hinge" or
// "sqhinge", the names [ParseSurrogate] accepts.
func (s Surrogate) String() string { return surrogates.String(s) }

// ParseSurrogate returns the surrogate named name, in any case. An unknown name is
// [rocops.ErrConfig].
func ParseSurrogate(name string) (Surrogate, error) { return surrogates.Parse(name) }

// MarshalText returns the surrogate's name, so that a Surrogate is a JSON field and, through
// flag.TextVar, a command-line flag.
func (s Surrogate) MarshalText() ([]byte, error) { return surrogates.MarshalText(s) }

// UnmarshalText sets s to the surrogate named text, as ParseSurrogate does.
func (s *Surrogate) UnmarshalText(text []byte) error { return surrogates.UnmarshalText(s, text) }

// Weight returns w(x) = −ℓ′(x), the weight surrogate s gives a pair of margin x: the pair's
// gradient is −w(x)/(|B1|·|B0|) on its positive's score and +w(x)/(|B1|·|B0|) on its
// negative's (formulas at [Surrogate]). margin is m as in [Config]: 0 means the default 1; it
// is ignored by Logistic and Exponential.
//
// At the hinge's kink x = m the loss has no derivative; Weight returns the subgradient 0
// there, the value of 1{x < m}, and the all-pairs and sampled gradients use the same
// convention. The squared hinge is differentiable at x = m, with w(m) = 0.
//
// Weight returns NaN for an unknown surrogate, a negative, infinite or NaN margin, or a NaN x.
func Weight(s Surrogate, margin, x float64) float64 {
	if !validMargin(margin) || !s.valid() || math.IsNaN(x) {
		return math.NaN()
	}
	return weight(s, cmp.Or(margin, 1), x)
}

// PairLoss returns ℓ(x), the loss surrogate s charges a pair of margin x (formulas at
// [Surrogate]), with margin as in [Weight]. It returns NaN where Weight does.
func PairLoss(s Surrogate, margin, x float64) float64 {
	if !validMargin(margin) || !s.valid() || math.IsNaN(x) {
		return math.NaN()
	}
	return pairLoss(s, cmp.Or(margin, 1), x)
}

// weight is w(x) for a valid surrogate and effective margin m.
func weight(s Surrogate, m, x float64) float64 {
	switch s {
	case Logistic:
		return logisticfn.Sigmoid(-x)
	case Exponential:
		return math.Exp(-x)
	case Square:
		return 2 * (m - x)
	case Hinge:
		if x < m {
			return 1
		}
		return 0
	default: // SquaredHinge
		return 2 * max(m-x, 0)
	}
}

// pairLoss is ℓ(x) for a valid surrogate and effective margin m.
func pairLoss(s Surrogate, m, x float64) float64 {
	switch s {
	case Logistic:
		return logisticfn.Softplus(-x)
	case Exponential:
		return math.Exp(-x)
	case Square:
		return (m - x) * (m - x)
	case Hinge:
		return max(m-x, 0)
	default: // SquaredHinge
		d := max(m-x, 0)
		return d * d
	}
}

// sigmoidNeg is σ(−x) = 1/(1 + e^x) given e = e^(−|x|): e/(1+e) for x ≥ 0 and 1/(1+e) for
// x < 0, so that no exponential overflows; it is logisticfn.Sigmoid(−x) for a caller that has
// the exponential already (the logistic tile).
func sigmoidNeg(x, e float64) float64 {
	if x >= 0 {
		return e / (1 + e)
	}
	return 1 / (1 + e)
}
