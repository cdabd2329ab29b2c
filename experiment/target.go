package experiment

import "github.com/rocops/rocops/train"

// Target is the JSON key of the figure a search's recipes optimise, which tables list first:
// the TPR at FPR α ("test_tpr_at_fpr") for a recipe that trains the KDE-quantile loss, which
// estimates exactly that rate (with recall, the FPR at TPR recall, "test_fpr_at_tpr", its
// mirror), and the AUC ("test_auc") for the others, the pairwise surrogates and
// cross-entropy, which rank all pairs alike.
func Target(recipes []train.Recipe, recall bool) string {
	for _, r := range recipes {
		if trainsKDE(r) {
			if recall {
				return recallKey
			}
			return keyTPR
		}
	}
	return "test_auc"
}

// trainsKDE reports whether recipe r trains the KDE loss in some phase, alone or in a
// weighted sum.
func trainsKDE(r train.Recipe) bool {
	for _, p := range r {
		switch l := p.Loss.(type) {
		case train.KDE:
			return true
		case train.Weighted:
			for _, term := range l {
				if _, ok := term.Loss.(train.KDE); ok {
					return true
				}
			}
		}
	}
	return false
}
