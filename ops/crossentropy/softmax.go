package crossentropy

import (
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

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
// NaN or infinite logit (rocops.ErrNonFinite), as for the loss of a Classes task ([Evaluate]).
// Cost O(n·k).
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
