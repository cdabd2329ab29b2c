package experiment

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/train"
)

// "+wu" gives a plain recipe its warm-up, refuses one on a recipe that starts from
// cross-entropy, and a KDE option out of the loss's range fails here, before training.
func TestParseRun(t *testing.T) {
	point := kdequantile.Config{Alpha: 0.1}
	rs, wu, err := ParseRun("sqhinge+wu", 7, point)
	require.NoError(t, err)
	require.Equal(t, 7, wu)
	require.Len(t, rs, 1)
	require.Equal(t, 7, rs[0].(train.Plain).WarmupEpochs)

	rs, wu, err = ParseRun("sqhinge", 7, point)
	require.NoError(t, err)
	require.Zero(t, wu)
	require.Zero(t, rs[0].(train.Plain).WarmupEpochs)

	_, _, err = ParseRun("kde+wu", 7, point)
	require.ErrorContains(t, err, "already starts from cross-entropy")
	_, _, err = ParseRun("kde:widen=1e308", 0, point)
	require.ErrorContains(t, err, "kde:widen=1e308")
	_, _, err = ParseRun("nosuch", 0, point)
	require.Error(t, err)
	rs, _, err = ParseRun("ce+kde", 0, point)
	require.NoError(t, err)
	require.Len(t, rs, len(train.KDEWeights), "one candidate per weight λ")
}

func TestRunLabel(t *testing.T) {
	require.Equal(t, "sqhinge+wu(10)", RunLabel("sqhinge+wu", 10))
	require.Equal(t, "kde", RunLabel("kde", 0))
}
