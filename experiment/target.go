package experiment

import "github.com/rocops/rocops/train"

// Target is the JSON key of the figure a search's recipes optimise, which tables list first:
// the TPR at FPR α ("test_tpr_at_fpr") for a recipe that trains the KDE-quantile loss, which
// estimates exactly that rate (with recall, the FPR at TPR recall, "test_fpr_at_tpr", its
// mirror), the partial AUC ("test_pauc") for a pairwise loss over a partial AUC (a MaxFPR
// cut, as roctrain's "pauc"), and the AUC ("test_auc") for the others, the pairwise surrogates
// and cross-entropy, which rank all pairs alike.
func Target(recipes []train.Recipe, recall bool) string {
	for _, r := range recipes {
		if trainsKDE(r) {
			if recall {
				return recallKey
			}
			return keyTPR
		}
	}
	for _, r := range recipes {
		if trainsPartialAUC(r) {
			return keyPAUC
		}
	}
	return "test_auc"
}

// trainsPartialAUC reports whether recipe r trains a pairwise loss over a partial AUC (a
// MaxFPR cut, as "pauc" and "sqhinge:maxfpr=β") in some phase, whose target is the partial
// AUC.
func trainsPartialAUC(r train.Recipe) bool {
	for _, p := range r {
		if l, ok := p.Loss.(train.Pairwise); ok && l.Config.MaxFPR > 0 {
			return true
		}
	}
	return false
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
