package deploy

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A number of rows whose product with the features overflows int is the length error, not a
// panic: 6148914691236517206 rows of 3 features "are" 2 values once the product wraps around
// (2⁶⁴ + 2 = 3·6148914691236517206), and 1<<62 + 1 rows of 3 are −2⁶² + 3. Score sliced past
// the end of x (slice bounds out of range).
func TestScoreRowsOverflow(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	defer s.Close()
	for _, c := range []struct {
		values, rows int
		want         string
	}{
		{2, 6148914691236517206, "deploy: 2 values for 6148914691236517206 rows of 3 features"},
		{3, 1<<62 + 1, "deploy: 3 values for 4611686018427387905 rows of 3 features"},
		{3, 2, "deploy: 3 values for 2 rows of 3 features"},
	} {
		require.NotPanics(t, func() {
			_, err = s.Score(make([]float64, c.values), c.rows)
		}, "%d rows", c.rows)
		require.EqualError(t, err, c.want)
	}
}
