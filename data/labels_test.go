package data

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadCSVMulticlass: a label column of more than two distinct values is multi-class, its
// classes sorted — by value when all are numbers, else as text — and named by their first
// spelling; Y holds each row's class index.
func TestReadCSVMulticlass(t *testing.T) {
	cases := []struct {
		name    string
		labels  []string // one per row, in order
		classes []string
		y       []float64
	}{
		{"text", []string{"cat", "dog", "ant", "dog", "cat", "ant", "ant", "dog", "cat"},
			[]string{"ant", "cat", "dog"}, []float64{1, 2, 0, 2, 1, 0, 0, 2, 1}},
		// Numbers sort by value (10 after 2), and in a column of integers "01" is the class "1"
		// first spelled "1".
		{"numbers", []string{"10", "2", "1", "10", "01", "2", "10", "2", " 1 "},
			[]string{"1", "2", "10"}, []float64{2, 1, 0, 2, 0, 1, 2, 1, 0}},
		// A column that is not all integers compares its values as text: "1.0" is not "1".
		// They sort by value, ties as text.
		{"decimals", []string{"1.0", "2", "1", "1.0", "2", "1", "1.0", "2", "1"},
			[]string{"1", "1.0", "2"}, []float64{1, 2, 0, 1, 2, 0, 1, 2, 0}},
		// With 0 and 1 among more values, they are classes like the others.
		{"0, 1 and 2", []string{"0", "1", "2", "2", "1", "0", "0", "1", "2"},
			[]string{"0", "1", "2"}, []float64{0, 1, 2, 2, 1, 0, 0, 1, 2}},
		// Mixed numbers and text sort as text: "10" < "2" < "b".
		{"mixed", []string{"b", "2", "10", "b", "2", "10", "b", "2", "10"},
			[]string{"10", "2", "b"}, []float64{2, 1, 0, 2, 1, 0, 2, 1, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("x,class\n")
			for i, l := range c.labels {
				fmt.Fprintf(&b, "%d,%s\n", i, l)
			}
			ds, err := ReadCSV(strings.NewReader(b.String()), CSVConfig{})
			require.NoError(t, err)
			require.Equal(t, c.classes, ds.Classes)
			require.Equal(t, c.y, ds.Y)
			require.Equal(t, len(c.classes), ds.Task().K())
			require.NoError(t, ds.Validate())
		})
	}

	ds, err := ReadCSV(strings.NewReader("x,y\n1,0\n2,1\n3,1.0\n"), CSVConfig{})
	require.NoError(t, err)
	require.Nil(t, ds.Classes, "a 0/1 column stays binary")
	require.Equal(t, []float64{0, 1, 1}, ds.Y)
}

// TestReadCSVClassErrors: a class of fewer than MinClassRows rows, more than MaxClasses
// classes, and an empty class name are CSV errors naming the line and the label column.
func TestReadCSVClassErrors(t *testing.T) {
	many := func(n int) string {
		var b strings.Builder
		b.WriteString("x,y\n")
		for i := range n {
			fmt.Fprintf(&b, "1,c%d\n", i)
		}
		return b.String()
	}
	cases := []struct {
		name string
		text string
		want error
		line int
		msg  string
	}{
		{"class of two rows", "x,y\n1,a\n2,b\n3,a\n4,c\n5,b\n6,a\n7,c\n8,b\n", ErrClassTooSmall, 5,
			`data: line 5, column "y": class "c" has 2 rows (the first on this line); a class needs at least 3, one for each of training, validation and test`},
		{"too many classes", many(MaxClasses + 1), ErrTooManyClasses, MaxClasses + 2,
			fmt.Sprintf(`data: line %d, column "y": "c%d" is a label value beyond the first %d; at most %d classes`, MaxClasses+2, MaxClasses, MaxClasses, MaxClasses)},
		{"empty class name", "x,y\n1,a\n2,b\n3,c\n4,\n", ErrMissing, 5,
			`data: line 5, column "y": missing value (empty field): a class name cannot be empty`},
		{"quoted empty class name", "x,y\n1,a\n2,\" \"\n", ErrMissing, 3, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			requireCSVError(t, c.text, c.want, c.line, "y", c.msg)
		})
	}
	// Exactly MaxClasses classes of MinClassRows rows each load.
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range MaxClasses * MinClassRows {
		fmt.Fprintf(&b, "1,c%04d\n", i%MaxClasses)
	}
	ds, err := ReadCSV(strings.NewReader(b.String()), CSVConfig{})
	require.NoError(t, err)
	require.Len(t, ds.Classes, MaxClasses)
	require.Equal(t, "c0000", ds.Classes[0])
	require.Equal(t, float64(MaxClasses-1), ds.Y[MaxClasses-1])
}

// requireCSVError requires that ReadCSV of text fails with a *CSVError wrapping want, at line
// and column, with the message msg unless msg is "".
func requireCSVError(t *testing.T, text string, want error, line int, column, msg string) {
	t.Helper()
	ds, err := ReadCSV(strings.NewReader(text), CSVConfig{})
	require.Nil(t, ds)
	require.ErrorIs(t, err, want)
	var ce *CSVError
	require.True(t, errors.As(err, &ce), "error is a *CSVError")
	require.Equal(t, line, ce.Line, "line")
	require.Equal(t, column, ce.Column, "column")
	require.True(t, strings.HasPrefix(err.Error(), "data: "), err.Error())
	if msg != "" {
		require.EqualError(t, err, msg)
	}
}

// FuzzReadCSVLabels: any label column either loads — binary with Y of 0s and 1s and no
// Classes, or multi-class with at least three classes of MinClassRows rows, each row's class
// named by a label of that row — or fails with a *CSVError; it never panics.
func FuzzReadCSVLabels(f *testing.F) {
	f.Add("a\nb\nc\na\nb\nc\na\nb\nc")
	f.Add("0\n1\n1.0\n0")
	f.Add("yes\nno")
	f.Add("2\n10\n1\n2\n10\n1\n2\n10\n1")
	f.Fuzz(func(t *testing.T, column string) {
		var b strings.Builder
		b.WriteString("x,y\n")
		var labels []string
		for l := range strings.SplitSeq(column, "\n") {
			if strings.ContainsAny(l, ",\"\r") || strings.TrimSpace(l) == "" {
				continue // one field per line, no blank rows
			}
			fmt.Fprintf(&b, "1,%s\n", l)
			labels = append(labels, strings.TrimSpace(l))
		}
		ds, err := ReadCSV(strings.NewReader(b.String()), CSVConfig{})
		if err != nil {
			if _, ok := errors.AsType[*CSVError](err); !ok {
				require.Fail(t, fmt.Sprintf("error %v is not a *CSVError", err))
			}
			return
		}
		require.NoError(t, ds.Validate())
		if ds.Classes == nil {
			return
		}
		counts := make([]int, len(ds.Classes))
		for _, y := range ds.Y {
			counts[int(y)]++
		}
		for c, n := range counts {
			require.False(t, n < MinClassRows, "class %q has %d rows", ds.Classes[c], n)
		}
		require.False(t, len(ds.Classes) < 3, "%d classes", len(ds.Classes))
		for i, y := range ds.Y {
			if name := ds.Classes[int(y)]; name != labels[i] && !sameNumber(name, labels[i]) {
				require.Fail(t, fmt.Sprintf("row %d: label %q loaded as class %q", i, labels[i], name))
			}
		}
	})
}

// sameNumber reports whether a and b are numbers of one value.
func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	z, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == z
}
