package experiment

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// The figure each kind of recipe targets: the partial AUC for a pairwise loss over a partial
// AUC (roctrain's pauc, and maxfpr=β), the AUC for the all-pairs surrogates and cross-entropy.
func TestTarget(t *testing.T) {
	partial := train.Plain(train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.1}})
	all := train.Plain(train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}})
	require.Equal(t, "test_pauc", Target([]train.Recipe{partial}, false))
	require.Equal(t, "test_pauc", Target([]train.Recipe{partial}, true))
	require.Equal(t, "test_auc", Target([]train.Recipe{all}, false))
	require.Equal(t, "test_auc", Target([]train.Recipe{train.Plain(train.CrossEntropy{})}, false))
	require.Equal(t, "test_tpr_at_fpr", Target([]train.Recipe{train.Plain(train.KDE{})}, false))
}
