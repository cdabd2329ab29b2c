package data

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// Parquet errors read as CSV errors do, "data: <file>: column "c", row r: …", with one "data:"
// prefix, rows counted from 1 (as deploy numbers the rows it scores) and an empty file named
// as such.
func TestParquetMessages(t *testing.T) {
	notParquet := filepath.Join(t.TempDir(), "bad.parquet")
	require.NoError(t, os.WriteFile(notParquet, []byte("a,b\n1,0\n"), 0o644))
	_, err := LoadParquet(notParquet, CSVConfig{})
	require.ErrorIs(t, err, ErrMalformed)
	require.True(t, strings.HasPrefix(err.Error(), "data: "+notParquet+": not a valid Parquet file: "), "%v", err)
	require.Equal(t, 1, strings.Count(err.Error(), "data:"), "%v", err)

	dbl := parquet.Leaf(parquet.DoubleType)
	empty := writeSchema(t, parquet.Group{"a": dbl, "y": dbl}, nil)
	_, err = LoadParquet(empty, CSVConfig{Label: "y"})
	require.ErrorIs(t, err, rocops.ErrEmpty)
	require.EqualError(t, err, "data: "+empty+": the Parquet file has no rows")

	var rows []parquet.Row
	for i := range 4 {
		v := parquet.DoubleValue(float64(i))
		if i == 2 {
			v = parquet.DoubleValue(-1 / zero())
		}
		rows = append(rows, parquet.Row{v.Level(0, 0, 0), parquet.DoubleValue(float64(i%2)).Level(0, 0, 1)})
	}
	third := writeSchema(t, parquet.Group{"a": dbl, "y": dbl}, rows)
	_, err = LoadParquet(third, CSVConfig{Label: "y"})
	require.ErrorIs(t, err, ErrNotNumber)
	require.EqualError(t, err, "data: "+third+`: column "a", row 3: -Inf is not a finite number`)

	f, err := os.Open(third)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	pr, err := newParquetRowReader(f, st.Size(), CSVConfig{Label: "y"})
	require.NoError(t, err)
	_, _, err = pr.Next(nil, nil)
	require.EqualError(t, err, `data: column "a", row 3: -Inf is not a finite number`, "a reader of an io.ReaderAt names no file")
	require.True(t, errors.Is(err, ErrNotNumber))
}

// zero is 0, out of the compiler's sight.
func zero() float64 { return float64(len(os.Args) * 0) }
