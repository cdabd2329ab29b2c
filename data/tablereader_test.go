package data

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
)

// TableReader applies ReadCSV's header and row rules to streamed rows: duplicate or empty
// names, rows with more or fewer fields than the header, missing values, non-numbers and bad
// labels are *CSVErrors naming the line (and the column); blank lines are skipped.
func TestTableReader(t *testing.T) {
	tr, err := NewTableReader(strings.NewReader("\ufeff a ,b,y\n1,2,1\n\n  \n3,NA,0\n4,5,2\n6,7\n8,9,1,0\n"), CSVConfig{})
	require.NoError(t, err)
	if got := strings.Join(tr.Names(), "|"); got != "a|b|y" || tr.HeaderLine() != 1 {
		require.Fail(t, fmt.Sprintf("names %q on line %d", got, tr.HeaderLine()))
	}
	steps := []struct {
		line int
		col  int  // field to parse
		lab  bool // as a label
		want float64
		err  error // of Next, or of the parse
		at   string
	}{
		{line: 2, col: 0, want: 1},
		{line: 5, col: 1, err: ErrMissing, at: "b"},
		{line: 6, col: 2, lab: true, err: rocops.ErrLabel, at: "y"},
		{line: 7, err: ErrMalformed},
	}
	for _, s := range steps {
		line, err := tr.Next()
		if s.line == 7 { // the short row: Next itself fails
			var ce *CSVError
			require.False(t, !errors.Is(err, s.err) || !errors.As(err, &ce) || ce.Line != s.line, "line %d: %v, want %v there", s.line, err, s.err)
			continue
		}
		require.False(t, err != nil || line != s.line, "Next = %d, %v; want line %d", line, err, s.line)
		parse := tr.Feature
		if s.lab {
			parse = tr.Label
		}
		v, err := parse(s.col)
		var ce *CSVError
		switch {
		case s.err == nil && (err != nil || v != s.want):
			assert.Fail(t, fmt.Sprintf("line %d: %v, %v; want %v", s.line, v, err, s.want))
		case s.err != nil && (!errors.Is(err, s.err) || !errors.As(err, &ce) || ce.Line != s.line || ce.Column != s.at):
			assert.Fail(t, fmt.Sprintf("line %d: %v (%+v), want %v at column %s", s.line, err, ce, s.err, s.at))
		}
	}
	if _, err := tr.Next(); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "line 8") {
		assert.Fail(t, fmt.Sprintf("long row: %v, want ErrMalformed on line 8", err))
	}
	if _, err := tr.Next(); !errors.Is(err, io.EOF) {
		assert.Fail(t, fmt.Sprintf("after the last row: %v, want io.EOF", err))
	}

	for _, bad := range []struct {
		text string
		err  error
	}{
		{"", rocops.ErrEmpty},
		{"a,b,a\n1,2,3\n", ErrHeader},
		{"a,,b\n", ErrHeader},
		{" \n", ErrHeader},
	} {
		if _, err := NewTableReader(strings.NewReader(bad.text), CSVConfig{}); !errors.Is(err, bad.err) {
			assert.Fail(t, fmt.Sprintf("header %q: %v, want %v", bad.text, err, bad.err))
		}
	}
	one, err := NewTableReader(strings.NewReader("x\n\"1\nx\"\n2\n"), CSVConfig{})
	require.False(t, err != nil || len(one.Names()) != 1, "one column: %v, %v", one, err)
	if line, err := one.Next(); err != nil || line != 2 {
		require.Fail(t, fmt.Sprintf("quoted row: %d, %v", line, err))
	}
	if _, err := one.Feature(0); !errors.Is(err, ErrNotNumber) {
		assert.Fail(t, fmt.Sprintf(`"1\nx": %v, want ErrNotNumber`, err))
	}
	if line, err := one.Next(); err != nil || line != 4 {
		assert.Fail(t, fmt.Sprintf("the row after a quoted line end: %d, %v; want line 4", line, err))
	}
}

// Class reads a multi-class label field as ReadCSV names its class: trimmed, text or number as
// written; an empty field or a missing-value marker is ErrMissing naming the line and column.
func TestTableReaderClass(t *testing.T) {
	tr, err := NewTableReader(strings.NewReader("a,y\n1, dog big \n2,2.0\n3,\n4,NA\n"), CSVConfig{})
	require.NoError(t, err)
	for _, s := range []struct {
		line int
		want string
		err  error
	}{{2, "dog big", nil}, {3, "2.0", nil}, {4, "", ErrMissing}, {5, "", ErrMissing}} {
		if _, err := tr.Next(); err != nil {
			require.Fail(t, fmt.Sprint(err))
		}
		got, err := tr.Class(1)
		var ce *CSVError
		switch {
		case s.err == nil && (err != nil || got != s.want):
			assert.Fail(t, fmt.Sprintf("line %d: %q, %v; want %q", s.line, got, err, s.want))
		case s.err != nil && (!errors.Is(err, s.err) || !errors.As(err, &ce) || ce.Line != s.line || ce.Column != "y"):
			assert.Fail(t, fmt.Sprintf("line %d: %v, want %v at column y", s.line, err, s.err))
		}
	}
	if _, err := tr.Class(5); !errors.Is(err, ErrMalformed) {
		assert.Fail(t, fmt.Sprintf("field 6 of 2: %v", err))
	}
}
