package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/parquet-go/parquet-go/format"
	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// soundParquet returns a small Parquet file of writeMixed's rows (three row groups, a page
// index) and its dataset.
func soundParquet(t testing.TB) ([]byte, *Dataset) {
	t.Helper()
	pq, _ := writeMixed(t, t.TempDir(), 30, 10, 9)
	b, err := os.ReadFile(pq)
	require.NoError(t, err)
	ds, err := LoadParquet(pq, CSVConfig{Label: "class"})
	require.NoError(t, err)
	return b, ds
}

// parquetSentinels are the errors a Parquet file can be refused with.
var parquetSentinels = []error{ErrMalformed, ErrHeader, ErrColumnType, ErrMissing, ErrNotNumber, rocops.ErrRange,
	ErrClassTooSmall, ErrTooManyClasses, rocops.ErrLabel, rocops.ErrOneClass, rocops.ErrEmpty}

// checkParquet reads the Parquet data b with every reader and fails on a panic, an error
// that wraps none of parquetSentinels, or an allocation of more than 64 MiB beyond 64 times
// the data's size (the data is small: only a count it does not back could ask for more).
func checkParquet(t *testing.T, b []byte) {
	t.Helper()
	known := func(err error) {
		t.Helper()
		if err == nil || errors.Is(err, io.EOF) {
			return
		}
		for _, s := range parquetSentinels {
			if errors.Is(err, s) {
				return
			}
		}
		t.Fatalf("an error of no sentinel: %v", err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, size := bytes.NewReader(b), int64(len(b))
	ds, err := loadParquet(r, size, CSVConfig{Label: "class"})
	known(err)
	if err == nil {
		require.NoError(t, ds.Validate())
	}
	if pr, err := newParquetRowReader(r, size, CSVConfig{Label: "class"}); err != nil {
		known(err)
	} else {
		for err == nil {
			_, _, err = pr.Next(nil, nil)
		}
		known(err)
	}
	if pr, err := newParquetColumnReader(r, size, []string{"f3", "f0"}, CSVConfig{}); err != nil {
		known(err)
	} else {
		for err == nil {
			_, _, err = pr.Next(nil, nil)
		}
		known(err)
	}
	if cr, err := newParquetClassReader(r, size, "class"); err != nil || cr == nil {
		known(err)
	} else {
		for err == nil {
			_, err = cr.Next(nil)
		}
		known(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20+64*uint64(len(b)) {
		t.Fatalf("%d bytes allocated for %d bytes of Parquet", grew, len(b))
	}
}

// FuzzParquetFooter reads a sound file whose footer (the Thrift metadata) is the fuzzer's
// bytes, and whose footer length field is the fuzzer's when not 0.
func FuzzParquetFooter(f *testing.F) {
	sound, _ := soundParquet(f)
	meta, start := footerOf(f, sound)
	f.Add(sound[start:len(sound)-8], uint32(0))
	damaged := meta
	damaged.NumRows = 1 << 31
	f.Add(withFooter(f, sound, start, &damaged)[start:], uint32(0))
	f.Add(sound[start:len(sound)-8], uint32(1<<31))
	f.Fuzz(func(t *testing.T, footer []byte, length uint32) {
		b := append(append([]byte{}, sound[:start]...), footer...)
		if length == 0 {
			length = uint32(len(footer))
		}
		b = append(binary.LittleEndian.AppendUint32(b, length), "PAR1"...)
		checkParquet(t, b)
	})
}

// FuzzParquetPageIndex reads a sound file whose page index (the column and offset indexes
// between the column chunks and the footer) is overwritten by the fuzzer's bytes, and whose
// chunks' index offsets are moved by shift: rocops never reads the page index, so every
// reader gives the sound file's rows.
func FuzzParquetPageIndex(f *testing.F) {
	sound, want := soundParquet(f)
	meta, start := footerOf(f, sound)
	from := int64(start)
	for _, rg := range meta.RowGroups {
		for _, c := range rg.Columns {
			if c.ColumnIndexOffset > 0 {
				from = min(from, c.ColumnIndexOffset)
			}
			if c.OffsetIndexOffset > 0 {
				from = min(from, c.OffsetIndexOffset)
			}
		}
	}
	require.Less(f, from, int64(start), "the writer wrote a page index")
	f.Add(sound[from:start], int64(0), uint8(0))
	f.Add(bytes.Repeat([]byte{0xff}, start-int(from)), int64(-938), uint8(1))
	f.Fuzz(func(t *testing.T, index []byte, shift int64, chunk uint8) {
		b := bytes.Clone(sound)
		copy(b[from:start], index)
		m := meta
		m.RowGroups = append([]format.RowGroup(nil), meta.RowGroups...)
		g := int(chunk) % len(m.RowGroups)
		m.RowGroups[g].Columns = append([]format.ColumnChunk(nil), m.RowGroups[g].Columns...)
		c := &m.RowGroups[g].Columns[int(chunk/8)%len(m.RowGroups[g].Columns)]
		c.ColumnIndexOffset += shift
		c.OffsetIndexOffset += shift
		c.ColumnIndexLength += int32(shift)
		b = withFooter(t, b, start, &m)
		got, err := loadParquet(bytes.NewReader(b), int64(len(b)), CSVConfig{Label: "class"})
		require.NoError(t, err)
		requireSameBits(t, want, got)
		checkParquet(t, b)
	})
}
