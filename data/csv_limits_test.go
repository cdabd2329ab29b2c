package data

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
)

// endless is a reader of prefix followed by the byte fill forever, holding nothing but
// prefix: a stream longer than any limit without that much memory.
type endless struct {
	prefix string
	fill   byte
	read   int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.prefix)
	e.prefix = e.prefix[n:]
	for i := n; i < len(p); i++ {
		p[i] = e.fill
	}
	e.read += int64(len(p))
	return len(p), nil
}

// heapGrowth returns the bytes allocated while f runs.
func heapGrowth(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadCSVBoundsLines: a field or a line longer than the documented limits stops reading
// there with ErrTooLong naming the line (and the column, when one field is too long): memory
// and time stay bounded by the limits, not by the input. Before, a streamed 1 GiB field took
// 8.2 GB and a 200 MiB header without a newline 1 GB.
func TestReadCSVBoundsLines(t *testing.T) {
	cases := []struct {
		name   string
		in     *endless
		cfg    CSVConfig
		line   int
		column string
		limit  int // bytes the limit lets through
	}{
		{"endless field", &endless{prefix: "a,b,y\n1,", fill: '7'}, CSVConfig{}, 2, "b", defaultMaxField},
		{"endless header", &endless{prefix: "a,", fill: 'x'}, CSVConfig{}, 1, "", defaultMaxField},
		// A row of delimiters: every field is empty, but each costs the parser ~80 bytes.
		{"endless delimiters", &endless{prefix: "a,y\n", fill: ','}, CSVConfig{}, 2, "", 100 * defaultMaxColumns},
		{"endless quoted field over lines", &endless{prefix: "a,y\n1,0\n\"", fill: '\n'}, CSVConfig{}, 3, "a", defaultMaxField},
		{"smaller limits", &endless{prefix: "a,y\n", fill: ' '}, CSVConfig{MaxField: 100, MaxLine: 50}, 2, "", 50},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			grew := heapGrowth(func() { _, err = ReadCSV(c.in, c.cfg) })
			ce, ok := errors.AsType[*CSVError](err)
			require.False(t, !ok || !errors.Is(err, ErrTooLong), "ReadCSV: %v, want a *CSVError wrapping ErrTooLong", err)
			assert.False(t, ce.Line != c.line || ce.Column != c.column, "error at line %d, column %q; want line %d, column %q (%v)", ce.Line, ce.Column, c.line, c.column, err)
			// The reader is consumed up to the limit plus one buffer, and the parser holds at
			// most a few copies of a line.
			if max := int64(c.limit + 1<<20); c.in.read > max {
				assert.Fail(t, fmt.Sprintf("read %d bytes for a limit of %d", c.in.read, c.limit))
			}
			if max := uint64(8*c.limit + 8<<20); grew > max {
				assert.Fail(t, fmt.Sprintf("allocated %d bytes for a limit of %d", grew, c.limit))
			}
			assert.False(t, len(err.Error()) > 300, "message of %d bytes: %.300s…", len(err.Error()), err)
		})
	}
}

// TestCSVErrorCutsLongValues: a bad value is quoted in the error cut to its first bytes,
// with its length, not in full.
func TestCSVErrorCutsLongValues(t *testing.T) {
	long := strings.Repeat("z", 5000)
	_, err := ReadCSV(strings.NewReader("a,y\n"+long+",1\n"), CSVConfig{})
	ce, ok := errors.AsType[*CSVError](err)
	require.False(t, !ok || !errors.Is(err, ErrNotNumber), "ReadCSV: %v, want ErrNotNumber", err)
	assert.False(t, len(ce.Reason) > 200 || !strings.Contains(ce.Reason, "5000 bytes") || !strings.Contains(ce.Reason, "zzzz"), "reason %q: want the start of the value and its length", ce.Reason)
}

// TestReadCSVSmallDefects: the smaller defects the hostile probe found.
func TestReadCSVSmallDefects(t *testing.T) {
	ok := func(t *testing.T, text string, rows int) *Dataset {
		t.Helper()
		ds, err := ReadCSV(strings.NewReader(text), CSVConfig{})
		if err != nil {
			require.Fail(t, fmt.Sprintf("ReadCSV(%q): %v", text, err))
		}
		require.True(t, ds.Rows == rows, "ReadCSV(%q): %d rows, want %d", text, ds.Rows, rows)
		return ds
	}
	t.Run("BOM before a quoted header", func(t *testing.T) {
		// As pandas writes with quoting=csv.QUOTE_ALL and encoding="utf-8-sig".
		ds := ok(t, "\ufeff\"a\",\"y\"\n\"1.5\",\"0\"\n\"2\",\"1\"\n", 2)
		assert.False(t, ds.FeatureNames[0] != "a" || ds.LabelName != "y", "names %q and %q", ds.FeatureNames, ds.LabelName)
	})
	t.Run("line of spaces", func(t *testing.T) { ok(t, "a,y\n1,0\n   \n \t \n2,1\n", 2) })
	t.Run("CR line endings", func(t *testing.T) {
		ds := ok(t, "a,y\r1,0\r2,1\r", 2)
		assert.True(t, ds.X[1] == 2, "X = %v", ds.X)
		_, err := ReadCSV(strings.NewReader("a,y\r1,0\rx,1\r"), CSVConfig{})
		if ce, isCSV := errors.AsType[*CSVError](err); !isCSV || ce.Line != 3 {
			assert.Fail(t, fmt.Sprintf("bad value on the third CR-ended line: %v", err))
		}
	})
	t.Run("CRLF and a final CR", func(t *testing.T) { ok(t, "a,y\r\n1,0\r\n2,1\r", 2) })
	t.Run("nil reader", func(t *testing.T) {
		if _, err := ReadCSV(nil, CSVConfig{}); !errors.Is(err, rocops.ErrEmpty) {
			assert.Fail(t, fmt.Sprintf("ReadCSV(nil): %v, want rocops.ErrEmpty", err))
		}
	})
	t.Run("failing reader", func(t *testing.T) {
		cause := errors.New("disk on fire")
		r := io.MultiReader(strings.NewReader("a,y\n1,0\n"), iotest.ErrReader(cause))
		_, err := ReadCSV(r, CSVConfig{})
		assert.False(t, !errors.Is(err, cause) || errors.Is(err, ErrMalformed), "ReadCSV: %v, want the reader's error, not ErrMalformed", err)
	})
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		_, err := LoadCSV(dir, CSVConfig{})
		assert.False(t, errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), dir), "LoadCSV(directory): %v, want a read error naming it", err)
		assert.False(t, runtime.GOOS == "linux" && !errors.Is(err, syscall.EISDIR), "LoadCSV(directory): %v, want EISDIR", err)
	})
}

// rowReader streams rows with the lines they start on, ends with io.EOF, and stops an endless
// field at ReadCSV's limit with a *CSVError naming the line and the header's column.
func TestRowReader(t *testing.T) {
	rr := newRowReader(strings.NewReader("a, b\n1,2\n\n\"3\n\",4\n"), CSVConfig{})
	var lines []int
	var rows [][]string
	for {
		rec, line, err := rr.read()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		lines, rows = append(lines, line), append(rows, append([]string(nil), rec...))
	}
	if want := []int{1, 2, 4}; !slices.Equal(lines, want) {
		assert.Fail(t, fmt.Sprintf("lines %v, want %v", lines, want))
	}
	assert.False(t, len(rows) != 3 || rows[2][0] != "3\n", "rows %q", rows)

	rr = newRowReader(&endless{prefix: "x,y\n1,", fill: '7'}, CSVConfig{MaxField: 1000})
	if _, _, err := rr.read(); err != nil {
		require.Fail(t, fmt.Sprint(err))
	}
	_, _, err := rr.read()
	var ce *CSVError
	require.False(t, !errors.Is(err, ErrTooLong) || !errors.As(err, &ce) || ce.Line != 2 || ce.Column != "y", "endless field: %v (%+v), want ErrTooLong at line 2, column y", err, ce)
}
