package crossentropy

import (
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// SoftmaxGradient returns the mean softmax cross-entropy of k-class logits against class
// indices, and its gradient. logits is row-major n×k (z_ic = logits[i·k + c]) and labels holds
// y_i ∈ {0, …, k−1}:
//
//	L = (1/n) Σ_i −log p_{i,y_i},   p_ic = e^{z_ic} / Σ_d e^{z_id},
//	∂L/∂z_ic = (p_ic − [y_i = c]) / n,
//
// where [·] is 1 when its condition holds, else 0 (Bishop, Pattern Recognition and Machine
// Learning, §4.3.4). The log-sum-exp is taken from the row's largest logit m_i,
//
//	−log p_{i,y_i} = (m_i − z_{i,y_i}) + log Σ_d e^{z_id − m_i},
//
// so no exponential exceeds 1 and the sum lies in [1, k]: logits of any finite size, ±1e3 and
// beyond, neither overflow nor lose the loss to cancellation. For k = 2 it is the binary
// cross-entropy of [Evaluate] on the logit difference z_i1 − z_i0.
//
// Like the binary loss it is defined on any batch, also one in which some classes have no
// rows. Errors: len(logits) ≠ n·k or k < 1 (rocops.ErrLength), no rows (rocops.ErrEmpty), a NaN or infinite
// logit (rocops.ErrNonFinite), a label outside 0…k−1 (rocops.ErrLabel), and rocops.ErrRange for a loss
// beyond float64, which needs logits of one row about 1e308 apart. Cost O(n·k).
func SoftmaxGradient(logits []float64, k int, labels []int) (grad []float64, value float64, err error) {
	if _, err := check.ClassIndices(pkg, logits, k, labels); err != nil {
		return nil, 0, err
	}
	grad = make([]float64, len(logits))
	inv := 1 / float64(len(labels))
	for i, y := range labels {
		z, g := logits[i*k:(i+1)*k], grad[i*k:(i+1)*k]
		m := z[0]
		for _, x := range z {
			m = max(m, x)
		}
		var s float64
		for c, x := range z {
			g[c] = math.Exp(x - m)
			s += g[c]
		}
		// Each part divided by n first: rows of huge logits add up without overflowing.
		value += m*inv - z[y]*inv + math.Log(s)*inv
		for c := range g {
			g[c] *= inv / s
		}
		g[y] -= inv
	}
	if math.IsInf(value, 0) {
		return nil, 0, check.Errorf(pkg, rocops.ErrRange, "the loss overflows float64: logits of one row differ by more than float64 holds")
	}
	return grad, value, nil
}

// Softmax returns the class probabilities of k-class logits, row by row: logits is row-major
// n×k (z_ic = logits[i·k + c]) and
//
//	p_ic = e^{z_ic − m_i} / Σ_d e^{z_id − m_i},   m_i = max_d z_id,
//
// the form from the row's largest logit, so that no exponential exceeds 1 and logits of any
// finite size give probabilities that sum to 1 within rounding. These are the scores a model
// trained with the softmax cross-entropy is ranked by: its one-vs-rest AUC of class c ranks
// rows by p_ic, as scikit-learn's roc_auc_score ranks predict_proba's columns. A probability
// below about 1e-308 rounds to 0, so logits more than about 709 apart within a row tie there.
//
// Errors: len(logits) not a multiple of k, or k < 1 (rocops.ErrLength), no rows (rocops.ErrEmpty), and a
// NaN or infinite logit (rocops.ErrNonFinite), as for [SoftmaxGradient]. Cost O(n·k).
func Softmax(logits []float64, k int) ([]float64, error) {
	if k < 1 || len(logits)%k != 0 {
		return nil, check.Errorf(pkg, rocops.ErrLength, "%d logits for %d classes", len(logits), k)
	}
	if len(logits) == 0 {
		return nil, check.Errorf(pkg, rocops.ErrEmpty, "")
	}
	if err := check.Finite(pkg, logits); err != nil {
		return nil, err
	}
	p := make([]float64, len(logits))
	for i := 0; i < len(logits); i += k {
		z, q := logits[i:i+k], p[i:i+k]
		m := z[0]
		for _, x := range z {
			m = max(m, x)
		}
		var s float64
		for c, x := range z {
			q[c] = math.Exp(x - m)
			s += q[c]
		}
		for c := range q {
			q[c] /= s
		}
	}
	return p, nil
}
