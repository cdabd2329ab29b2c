package deploy

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
)

// writeEditedParquet writes writeRowsParquet's rows (with the label y), in row groups of
// 1000, after edit has changed those it wants; the columns are a, b, c, id, y.
func writeEditedParquet(t *testing.T, n int, edit func(i int, row parquet.Row)) string {
	t.Helper()
	group := parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.DoubleType),
		"c": parquet.Leaf(parquet.DoubleType), "id": parquet.String(), "y": parquet.Leaf(parquet.Int64Type)}
	path := filepath.Join(t.TempDir(), "rows.parquet")
	f, err := os.Create(path)
	require.NoError(t, err)
	w := parquet.NewWriter(f, parquet.NewSchema("rows", group), parquet.MaxRowsPerRowGroup(1000))
	for i := range n {
		row := parquet.Row{
			parquet.DoubleValue(math.Sin(float64(i*i)) + 1),
			parquet.DoubleValue(2*math.Cos(float64(3*i)) - 2),
			parquet.DoubleValue(math.Sin(float64(7*i + 1))),
			parquet.ByteArrayValue([]byte("row")),
			parquet.Int64Value(int64(i % 3 / 2)),
		}
		edit(i, row)
		for j := range row {
			row[j] = row[j].Level(0, 0, j)
		}
		_, err := w.WriteRows([]parquet.Row{row})
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	return path
}

// firstLines returns the header and the first n lines of ScoreCSV's output on rowsCSV(rows).
func firstLines(t *testing.T, s *Scorer, rows, n int) string {
	t.Helper()
	var all bytes.Buffer
	_, _, err := s.ScoreCSV(strings.NewReader(rowsCSV(rows)), &all)
	require.NoError(t, err)
	lines := strings.SplitAfter(all.String(), "\n")
	return strings.Join(lines[:n+1], "")
}

// A bad value in the middle of a row group: ScoreParquet writes every row before it, as
// ScoreCSV does (a NaN at row 9,501 gave 8,192 rows, the CSV path 9,500), and names the first
// bad value in row order, then the file's column order.
func TestScoreParquetWritesRowsBeforeBadOne(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	const n = 12000
	for _, c := range []struct {
		name string
		edit func(i int, row parquet.Row)
		err  error
		msg  string
	}{
		{"NaN", func(i int, row parquet.Row) {
			if i == 9500 {
				row[1] = parquet.DoubleValue(math.NaN())
			}
		}, data.ErrNotNumber, `data: column "b", row 9501: NaN is not a finite number`},
		{"two columns of one row, and a later row", func(i int, row parquet.Row) {
			switch i {
			case 9500:
				row[2], row[0] = parquet.DoubleValue(math.Inf(1)), parquet.DoubleValue(math.NaN())
			case 9501:
				row[1] = parquet.DoubleValue(math.NaN())
			}
		}, data.ErrNotNumber, `data: column "a", row 9501: NaN is not a finite number`},
		{"a feature after a bad label", func(i int, row parquet.Row) {
			switch i {
			case 9500:
				row[4] = parquet.Int64Value(2)
			case 9499:
				row[2] = parquet.DoubleValue(math.Inf(-1))
			}
		}, data.ErrNotNumber, `data: column "c", row 9500: -Inf is not a finite number`},
		{"a label", func(i int, row parquet.Row) {
			if i == 9500 {
				row[4] = parquet.Int64Value(2)
			}
		}, rocops.ErrLabel, `data: column "y", row 9501: 2 is not a label (want 0 or 1)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, rows, _, err := scoreParquetFile(t, s, writeEditedParquet(t, n, c.edit))
			require.ErrorIs(t, err, c.err)
			require.EqualError(t, err, c.msg)
			want := 9500
			if c.name == "a feature after a bad label" {
				want = 9499
			}
			require.Equal(t, want, rows)
			require.Equal(t, firstLines(t, s, n, want), out, "ScoreCSV's lines of those rows")
		})
	}
}

// cancelWriter cancels its context at its first write.
type cancelWriter struct {
	w      io.Writer
	cancel context.CancelFunc
}

func (c *cancelWriter) Write(p []byte) (int, error) {
	c.cancel()
	return c.w.Write(p)
}

// Stopped between row groups, ScoreParquet writes every row it has read (it wrote 4,096 of
// the 5,000 it had read), as ScoreCSVContext does.
func TestScoreParquetStoppedWritesRowsRead(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	path := writeRowsParquet(t, 9000, true)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	fi, err := f.Stat()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	// The first 4096 rows are written, and so the context cancelled, in row group 5.
	rows, _, err := s.ScoreParquet(ctx, f, fi.Size(), &cancelWriter{&out, cancel})
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	require.Equal(t, 5000, rows)
	require.Equal(t, firstLines(t, s, 9000, 5000), out.String())
}
