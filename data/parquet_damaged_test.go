package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/require"
)

// Damaged Parquet files, made here from sound ones by rewriting their footer, load as
// ErrMalformed: never as invented rows, a panic or an allocation the file does not back.

// footerOf returns the decoded footer of the Parquet file b and where it starts.
func footerOf(t testing.TB, b []byte) (format.FileMetaData, int) {
	t.Helper()
	n := len(b)
	size := int(binary.LittleEndian.Uint32(b[n-8:]))
	start := n - 8 - size
	var meta format.FileMetaData
	require.NoError(t, thrift.Unmarshal(new(thrift.CompactProtocol), b[start:n-8], &meta))
	return meta, start
}

// withFooter returns the Parquet file b with its footer replaced by meta.
func withFooter(t testing.TB, b []byte, start int, meta *format.FileMetaData) []byte {
	t.Helper()
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), meta)
	require.NoError(t, err)
	out := append(append([]byte{}, b[:start]...), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// rewriteFooter writes a copy of the Parquet file at path with its footer changed by edit,
// and returns the copy's path.
func rewriteFooter(t *testing.T, path string, edit func(*format.FileMetaData)) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	meta, start := footerOf(t, b)
	edit(&meta)
	damaged := filepath.Join(t.TempDir(), "damaged.parquet")
	require.NoError(t, os.WriteFile(damaged, withFooter(t, b, start, &meta), 0o644))
	return damaged
}

// A footer whose row count is not the sum of its row groups' is ErrMalformed: more rows than
// the row groups hold invented zero rows, fewer panicked.
func TestParquetFooterRowCount(t *testing.T) {
	pq, _ := writeMixed(t, t.TempDir(), 300, 100, 5)
	for _, rows := range []int64{305, 200, 0, -1} {
		damaged := rewriteFooter(t, pq, func(m *format.FileMetaData) { m.NumRows = rows })
		_, err := LoadParquet(damaged, CSVConfig{Label: "class"})
		require.ErrorIs(t, err, ErrMalformed, "num_rows %d", rows)
		if rows >= 0 { // parquet-go refuses a negative one itself
			require.ErrorContains(t, err, fmt.Sprintf("the footer gives %d rows, its row groups 300", rows))
		}
	}
	ds, err := LoadParquet(rewriteFooter(t, pq, func(*format.FileMetaData) {}), CSVConfig{Label: "class"})
	require.NoError(t, err, "the footer rewritten unchanged")
	require.Equal(t, 300, ds.Rows)
}

// Row counts that the column chunks do not hold, the footer's and a row group's rewritten
// alike, are ErrMalformed before memory is sized by them: 2^60 rows panicked in makeslice, and
// 2^31 allocated 16 GiB a column before reading anything. LoadParquet, and NewParquetReader
// and NewParquetColumnReader (with a label column and without), read at most what the file
// holds.
func TestParquetRowGroupCount(t *testing.T) {
	pq, _ := writeMixed(t, t.TempDir(), 300, 100, 6)
	for _, rows := range []int64{1 << 60, 1 << 31, 101, 99} {
		damaged := rewriteFooter(t, pq, func(m *format.FileMetaData) {
			m.RowGroups[1].NumRows = rows
			m.NumRows = 200 + rows
		})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := LoadParquet(damaged, CSVConfig{Label: "class"})
		runtime.ReadMemStats(&after)
		require.ErrorIs(t, err, ErrMalformed, "%d rows", rows)
		require.ErrorContains(t, err, fmt.Sprintf("the %d rows of its row group", rows))
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "%d rows: memory as the file holds", rows)

		b, err := os.ReadFile(damaged)
		require.NoError(t, err)
		open := []func() (*ParquetReader, error){
			func() (*ParquetReader, error) {
				return NewParquetReader(bytes.NewReader(b), int64(len(b)), CSVConfig{Label: "class"})
			},
			func() (*ParquetReader, error) {
				return NewParquetColumnReader(bytes.NewReader(b), int64(len(b)), []string{"f2", "f0"}, CSVConfig{})
			},
		}
		for _, o := range open {
			pr, err := o()
			require.NoError(t, err)
			var x, y []float64
			for range 2 { // row group 1 is the damaged one
				x, y, err = pr.Next(x, y)
			}
			require.ErrorIs(t, err, ErrMalformed, "%d rows", rows)
		}
	}
}
