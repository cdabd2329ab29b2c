package deploy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
)

// ScoreParquet numbers rows as LoadParquet does, from 1 as its output's row column, and says
// that a file without rows has none, in one "deploy:" message.
func TestScoreParquetMessages(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	num := parquet.Leaf(parquet.DoubleType)
	group := parquet.Group{"a": num, "b": num, "c": num, "y": num}
	write := func(rows []parquet.Row) string {
		path := filepath.Join(t.TempDir(), "rows.parquet")
		f, err := os.Create(path)
		require.NoError(t, err)
		w := parquet.NewWriter(f, parquet.NewSchema("rows", group))
		_, err = w.WriteRows(rows)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		require.NoError(t, f.Close())
		return path
	}
	_, _, _, err = scoreParquetFile(t, s, write(nil))
	require.ErrorIs(t, err, rocops.ErrEmpty)
	require.EqualError(t, err, "deploy: the Parquet file has no rows")

	var rows []parquet.Row
	for i := range 4 {
		y := float64(i % 2)
		if i == 2 {
			y = 2
		}
		rows = append(rows, parquet.Row{parquet.DoubleValue(1).Level(0, 0, 0), parquet.DoubleValue(2).Level(0, 0, 1),
			parquet.DoubleValue(3).Level(0, 0, 2), parquet.DoubleValue(y).Level(0, 0, 3)})
	}
	bad := write(rows)
	out, n, _, err := scoreParquetFile(t, s, bad)
	require.ErrorIs(t, err, rocops.ErrLabel)
	require.EqualError(t, err, `data: column "y", row 3: 2 is not a label (want 0 or 1)`)
	_, err = data.LoadParquet(bad, data.CSVConfig{Label: "y"})
	require.ErrorContains(t, err, `column "y", row 3: class "2" has 1 rows`, "LoadParquet counts the rows as the scorer does")
	require.Equal(t, 2, n, "the rows before the bad one are written")
	require.Equal(t, 3, strings.Count(out, "\n"), "the header and two rows: %q", out)
}
