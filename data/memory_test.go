package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// largeRows is the size of the generated CSV of TestLoadCSVMemory: modest by default, one
// million rows with the build tag long (memory_long_test.go).
var largeRows = 100_000

const largeCols = 30 // features, as in WDBC

// writeLargeCSV writes a header and rows rows of largeCols random features with 4 decimals
// and a 0/1 label: about 8.5 bytes of text per 8-byte number.
func writeLargeCSV(w io.Writer, rows int) error {
	bw := bufio.NewWriter(w)
	for j := range largeCols {
		fmt.Fprintf(bw, "f%d,", j)
	}
	bw.WriteString("label\n")
	rng := rand.New(rand.NewPCG(11, 12))
	var buf []byte
	for range rows {
		buf = buf[:0]
		for range largeCols {
			buf = strconv.AppendFloat(buf, rng.NormFloat64()*100, 'f', 4, 64)
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(rng.IntN(2)), 10)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// TestLoadCSVMemory loads a generated CSV and checks that memory is proportional to the
// numbers kept, not to the text: the dataset retains no more than the numbers plus 10%, and
// the heap grows by less than 3× the numbers while loading. Holding every record as strings
// would already take the text (≈ 1.06× here) plus 16-byte string headers (2×) on top of the
// numbers. Heap growth is measured from HeapSys, which only rises when the heap needs more
// memory than it has; memory left idle by earlier tests can only make it smaller.
func TestLoadCSVMemory(t *testing.T) {
	const (
		maxRetained = 1.1 // the numbers have no spare capacity; a little for the names
		maxGrowth   = 2.5 // the numbers (1×: LoadCSV sizes the matrix first), plus the garbage of the text read
	)
	path := filepath.Join(t.TempDir(), "large.csv")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, writeLargeCSV(f, largeRows))
	require.NoError(t, f.Close())
	numbers := float64(8 * largeRows * (largeCols + 1)) // features and labels

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ds, err := LoadCSV(path, CSVConfig{})
	require.NoError(t, err)
	runtime.GC()
	runtime.ReadMemStats(&after)

	require.Equal(t, largeRows, ds.Rows)
	require.Equal(t, largeCols, ds.Cols)
	retained := (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / numbers
	growth := (float64(after.HeapSys) - float64(before.HeapSys)) / numbers
	t.Logf("%d rows, %.1f MB of numbers: retained %.2f×, heap growth %.2f×", largeRows, numbers/1e6, retained, growth)
	require.Less(t, retained, maxRetained, "retained heap / numbers")
	require.Less(t, growth, maxGrowth, "heap growth while loading / numbers")
	runtime.KeepAlive(ds)
}

func BenchmarkReadCSV(b *testing.B) {
	for _, rows := range []int{1000, 100_000} {
		var text bytes.Buffer
		if err := writeLargeCSV(&text, rows); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(text.Len()))
			for b.Loop() {
				if _, err := ReadCSV(bytes.NewReader(text.Bytes()), CSVConfig{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
