package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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
// 2^31 allocated 16 GiB a column before reading anything. LoadParquet, and newParquetRowReader
// and newParquetColumnReader (with a label column and without), read at most what the file
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
		open := []func() (*parquetReader, error){
			func() (*parquetReader, error) {
				return newParquetRowReader(bytes.NewReader(b), int64(len(b)), CSVConfig{Label: "class"})
			},
			func() (*parquetReader, error) {
				return newParquetColumnReader(bytes.NewReader(b), int64(len(b)), []string{"f2", "f0"}, CSVConfig{})
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

// The page index, which rocops never reads, does not matter: with its offsets moved, past the
// end of the file or before its start, a file loads as it did (parquet-go panicked on it,
// "slice bounds out of range"), through every reader.
func TestParquetPageIndexIgnored(t *testing.T) {
	pq, _ := writeMixed(t, t.TempDir(), 300, 100, 7)
	want, err := LoadParquet(pq, CSVConfig{Label: "class"})
	require.NoError(t, err)
	b, err := os.ReadFile(pq)
	require.NoError(t, err)
	meta, _ := footerOf(t, b)
	require.Positive(t, meta.RowGroups[0].Columns[1].ColumnIndexOffset, "the writer wrote a page index")
	for _, move := range []int64{-938, 5000, 1 << 40} {
		damaged := rewriteFooter(t, pq, func(m *format.FileMetaData) {
			c := &m.RowGroups[1].Columns[2]
			c.ColumnIndexOffset += move
			c.OffsetIndexOffset += move
		})
		got, err := LoadParquet(damaged, CSVConfig{Label: "class"})
		require.NoError(t, err, "moved by %d", move)
		requireSameBits(t, want, got)
		raw, err := os.ReadFile(damaged)
		require.NoError(t, err)
		pr, err := newParquetColumnReader(bytes.NewReader(raw), int64(len(raw)), []string{"f1"}, CSVConfig{Label: "class"})
		require.NoError(t, err)
		_, _, err = pr.Next(nil, nil)
		require.NoError(t, err)
		cr, err := newParquetClassReader(bytes.NewReader(raw), int64(len(raw)), "class")
		require.NoError(t, err)
		_, err = cr.Next(nil)
		require.NoError(t, err)
	}
}

// A footer length beyond the file, and a reader that panics on damaged data, are ErrMalformed.
func TestParquetFooterLength(t *testing.T) {
	pq, _ := writeMixed(t, t.TempDir(), 30, 10, 8)
	b, err := os.ReadFile(pq)
	require.NoError(t, err)
	for _, length := range []uint32{uint32(len(b)) - 11, 1 << 31, math.MaxUint32} {
		damaged := slices.Clone(b)
		binary.LittleEndian.PutUint32(damaged[len(damaged)-8:], length)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := newParquetRowReader(bytes.NewReader(damaged), int64(len(damaged)), CSVConfig{Label: "class"})
		runtime.ReadMemStats(&after)
		require.ErrorIs(t, err, ErrMalformed, "footer length %d", length)
		require.ErrorContains(t, err, fmt.Sprintf("a footer of %d bytes", length))
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "footer length %d", length)
	}
	_, err = newParquetRowReader(bytes.NewReader(b[:7]), 7, CSVConfig{})
	require.ErrorIs(t, err, ErrMalformed)
}

// countingBytes counts the bytes read through it.
type countingBytes struct {
	r *bytes.Reader
	n int
}

func (c *countingBytes) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// A data page whose header gives more nulls than values makes parquet-go panic ("number of
// values out of range: -20"): every reader returns ErrMalformed instead.
func TestParquetReaderPanic(t *testing.T) {
	pq, _ := writeMixed(t, t.TempDir(), 30, 10, 10)
	b, err := os.ReadFile(pq)
	require.NoError(t, err)
	meta, _ := footerOf(t, b)
	at := meta.RowGroups[1].Columns[1].MetaData.DataPageOffset // f0's first page in row group 1
	in := &countingBytes{r: bytes.NewReader(b[at:])}
	var header format.PageHeader
	require.NoError(t, thrift.NewDecoder(new(thrift.CompactProtocol).NewReader(in)).Decode(&header))
	require.True(t, header.DataPageHeaderV2.Valid, "parquet-go writes version 2 data pages")
	h := &header.DataPageHeaderV2.V
	h.NumNulls = h.NumValues + 20 // 10 values and 30 nulls: each a byte

	encoded, err := thrift.Marshal(new(thrift.CompactProtocol), &header)
	require.NoError(t, err)
	damaged := slices.Clone(b)
	require.Equal(t, in.n, len(encoded), "the header rewritten in place")
	copy(damaged[at:], encoded)
	path := filepath.Join(t.TempDir(), "page.parquet")
	require.NoError(t, os.WriteFile(path, damaged, 0o644))

	_, err = LoadParquet(path, CSVConfig{Label: "class"})
	require.ErrorIs(t, err, ErrMalformed)
	require.ErrorContains(t, err, "the reader failed")
	pr, err := newParquetColumnReader(bytes.NewReader(damaged), int64(len(damaged)), []string{"f0"}, CSVConfig{})
	require.NoError(t, err)
	for err == nil {
		_, _, err = pr.Next(nil, nil)
	}
	require.ErrorIs(t, err, ErrMalformed)
}

// Two columns of one name are ErrHeader on opening, as a CSV header that repeats a name is:
// scoring read the first of them.
func TestParquetDuplicateColumn(t *testing.T) {
	pq, _ := writeMixed(t, t.TempDir(), 30, 10, 11)
	damaged := rewriteFooter(t, pq, func(m *format.FileMetaData) {
		for k := range m.Schema {
			if m.Schema[k].Name == "f1" {
				m.Schema[k].Name = "f0"
			}
		}
	})
	_, err := LoadParquet(damaged, CSVConfig{Label: "class"})
	require.ErrorIs(t, err, ErrHeader)
	require.ErrorContains(t, err, `column "f0": duplicate column name`)
	raw, err := os.ReadFile(damaged)
	require.NoError(t, err)
	r, size := bytes.NewReader(raw), int64(len(raw))
	_, err = newParquetColumnReader(r, size, []string{"f0"}, CSVConfig{})
	require.ErrorIs(t, err, ErrHeader)
	_, err = newParquetRowReader(r, size, CSVConfig{Label: "class"})
	require.ErrorIs(t, err, ErrHeader)
	_, err = newParquetClassReader(r, size, "class")
	require.ErrorIs(t, err, ErrHeader)
}
