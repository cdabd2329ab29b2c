package dataset

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/stretchr/testify/require"
)

// The counts are those of this package's README.md (and of the source, UCI's WDBC page):
// 569 rows, 30 features, 212 malignant and 357 benign.
func TestWDBCShape(t *testing.T) {
	rows, err := csv.NewReader(bytes.NewReader(WDBC)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 1+569)
	require.Len(t, rows[0], 31)
	require.Equal(t, WDBCLabel, rows[0][30])
	pos := 0
	for _, r := range rows[1:] {
		require.Contains(t, []string{"0", "1"}, r[30])
		if r[30] == "1" {
			pos++
		}
	}
	require.Equal(t, 212, pos)
}
