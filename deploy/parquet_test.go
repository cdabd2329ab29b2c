package deploy

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
)

// writeRowsParquet writes the rows of rowsCSV(n) to a Parquet file in row groups of 1000
// rows, with an extra text column "id" that scoring ignores and, unless withLabel is false,
// the label column y; a, b and c hold the CSV's numbers, so both score alike.
func writeRowsParquet(t *testing.T, n int, withLabel bool) string {
	t.Helper()
	if !withLabel {
		return featureRowsParquet(t, n, nil, nil)
	}
	return featureRowsParquet(t, n, parquet.Group{"y": parquet.Leaf(parquet.Int64Type)}, func(i int) []parquet.Value {
		return []parquet.Value{parquet.Int64Value(int64(i % 3 / 2))}
	})
}

// scoreParquetFile scores the Parquet file at path with s.
func scoreParquetFile(t *testing.T, s *Scorer, path string) (string, int, int, error) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	fi, err := f.Stat()
	require.NoError(t, err)
	var out bytes.Buffer
	rows, flagged, err := s.ScoreParquet(context.Background(), f, fi.Size(), &out)
	return out.String(), rows, flagged, err
}

// TestScoreParquetEqualsCSV: the same rows as Parquet, over several row groups and chunks,
// with an extra text column, give exactly ScoreCSV's output; without the label column, its
// output less the label column.
func TestScoreParquetEqualsCSV(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	n := 2*chunk + 17
	var want bytes.Buffer
	wantRows, wantFlagged, err := s.ScoreCSV(strings.NewReader(rowsCSV(n)), &want)
	require.NoError(t, err)

	got, rows, flagged, err := scoreParquetFile(t, s, writeRowsParquet(t, n, true))
	require.NoError(t, err)
	require.Equal(t, want.String(), got)
	require.Equal(t, wantRows, rows)
	require.Equal(t, wantFlagged, flagged)

	got, rows, _, err = scoreParquetFile(t, s, writeRowsParquet(t, n, false))
	require.NoError(t, err)
	require.Equal(t, n, rows)
	lines := strings.Split(strings.TrimSuffix(want.String(), "\n"), "\n")
	for i, l := range lines { // drop the label field: row,y,score,flag → row,score,flag
		f := strings.Split(l, ",")
		lines[i] = strings.Join(append(f[:1:1], f[2:]...), ",")
	}
	require.Equal(t, strings.Join(lines, "\n")+"\n", got)
}

// TestScoreParquetErrors: a missing feature column, and a feature column of text, are named.
func TestScoreParquetErrors(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	write := func(group parquet.Group, row parquet.Row) string {
		path := filepath.Join(t.TempDir(), "bad.parquet")
		f, err := os.Create(path)
		require.NoError(t, err)
		w := parquet.NewWriter(f, parquet.NewSchema("rows", group))
		_, err = w.WriteRows([]parquet.Row{row})
		require.NoError(t, err)
		require.NoError(t, w.Close())
		require.NoError(t, f.Close())
		return path
	}
	missing := write(parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.DoubleType)},
		parquet.Row{parquet.DoubleValue(1).Level(0, 0, 0), parquet.DoubleValue(2).Level(0, 0, 1)})
	text := write(parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.DoubleType), "c": parquet.String()},
		parquet.Row{parquet.DoubleValue(1).Level(0, 0, 0), parquet.DoubleValue(2).Level(0, 0, 1), parquet.ByteArrayValue([]byte("x")).Level(0, 0, 2)})
	for _, c := range []struct {
		name, path, msg string
		want            error
	}{
		{"missing feature", missing, `no column "c"`, data.ErrHeader},
		{"text feature", text, `column "c"`, data.ErrColumnType},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, err := scoreParquetFile(t, s, c.path)
			require.True(t, errors.Is(err, c.want), "%v", err)
			require.ErrorContains(t, err, c.msg)
		})
	}
}
