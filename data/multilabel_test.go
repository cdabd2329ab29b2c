package data

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// TestReadCSVMultilabel: CSVConfig.Labels names the 0/1 label columns, in any order of the
// header; Y holds each row's labels in the order of Labels, and the other columns are the
// features in the header's order.
func TestReadCSVMultilabel(t *testing.T) {
	in := "b,x1,a,x2\n1,0.5,0,2\n0,1.5,1,3\n1.0,2.5,1,4\n\n0,3.5,0,5\n"
	ds, err := ReadCSV(strings.NewReader(in), CSVConfig{Labels: []string{"a", "b"}})
	require.NoError(t, err)
	require.NoError(t, ds.Validate())
	require.Equal(t, []string{"a", "b"}, ds.Labels)
	require.Nil(t, ds.Classes)
	require.Equal(t, []string{"x1", "x2"}, ds.FeatureNames)
	require.Equal(t, 4, ds.Rows)
	require.Equal(t, []float64{0.5, 2, 1.5, 3, 2.5, 4, 3.5, 5}, ds.X)
	require.Equal(t, []float64{0, 1, 1, 0, 1, 1, 0, 0}, ds.Y) // (a, b) per row
	require.Equal(t, 2, ds.Task().K())
}

// TestReadCSVMultilabelErrors: each bad input is a *CSVError wrapping its Err value, and
// its message names the column (and the line, for a bad value).
func TestReadCSVMultilabelErrors(t *testing.T) {
	const good = "a,b,x\n0,1,1\n1,0,2\n1,1,3\n"
	for _, c := range []struct {
		name, in string
		cfg      CSVConfig
		err      error
		msg      []string
	}{
		{"missing column", good, CSVConfig{Labels: []string{"a", "c"}}, ErrHeader, []string{`no label column "c"`, "line 1"}},
		{"not 0/1", "a,b,x\n0,1,1\n1,2,2\n1,0,3\n", CSVConfig{Labels: []string{"a", "b"}}, rocops.ErrLabel, []string{"line 3", `column "b"`, `"2"`}},
		{"text", "a,b,x\n0,yes,1\n1,0,2\n", CSVConfig{Labels: []string{"a", "b"}}, rocops.ErrLabel, []string{"line 2", `column "b"`}},
		{"missing value", "a,b,x\n0,,1\n1,0,2\n", CSVConfig{Labels: []string{"a", "b"}}, ErrMissing, []string{"line 2", `column "b"`}},
		{"one class", "a,b,x\n0,1,1\n1,1,2\n1,1,3\n", CSVConfig{Labels: []string{"a", "b"}}, rocops.ErrOneClass, []string{`"b"`, "1 on all 3 rows"}},
		{"no features", "a,b\n0,1\n1,0\n", CSVConfig{Labels: []string{"a", "b"}}, ErrHeader, []string{"at least one feature"}},
		{"both", good, CSVConfig{Label: "a", Labels: []string{"a", "b"}}, rocops.ErrConfig, []string{`"a"`}},
		{"twice", good, CSVConfig{Labels: []string{"a", "a"}}, rocops.ErrConfig, nil},
		{"empty name", good, CSVConfig{Labels: []string{"a", ""}}, rocops.ErrConfig, nil},
		{"no rows", "a,b,x\n", CSVConfig{Labels: []string{"a", "b"}}, rocops.ErrEmpty, nil},
		{"field count", "a,b,x\n0,1\n", CSVConfig{Labels: []string{"a", "b"}}, ErrMalformed, []string{"line 2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.in), c.cfg)
			require.ErrorIs(t, err, c.err)
			_, ok := errors.AsType[*CSVError](err)
			require.True(t, ok, "%v is not a *CSVError", err)
			for _, m := range c.msg {
				require.Contains(t, err.Error(), m)
			}
		})
	}
}

func TestParseLabelList(t *testing.T) {
	for in, want := range map[string][]string{
		"y": {"y"}, " a , b,c ": {"a", "b", "c"}, "not VF,M or L": {"not VF", "M or L"},
	} {
		got, err := ParseLabelList(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for in, msg := range map[string]string{
		"": "no column", " ": "no column", "a,": "name 2", ",a": "name 1", "a,,b": "name 2", "a, b ,a": `"a" is named twice`,
	} {
		_, err := ParseLabelList(in)
		require.ErrorIs(t, err, rocops.ErrConfig, in)
		require.Contains(t, err.Error(), msg, in)
	}
}

// FuzzParseLabelList: a list either parses into trimmed, distinct, non-empty names, which
// joined with commas parse back to themselves, or is rocops.ErrConfig; it never panics.
func FuzzParseLabelList(f *testing.F) {
	for _, s := range []string{"y", "a,b,c", "a,,b", " a , a ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := ParseLabelList(s)
		if err != nil {
			require.ErrorIs(t, err, rocops.ErrConfig)
			return
		}
		require.NotEmpty(t, names)
		for k, n := range names {
			require.Equal(t, strings.TrimSpace(n), n)
			require.NotEmpty(t, n)
			require.NotContains(t, n, ",")
			require.NotContains(t, names[:k], n)
		}
		again, err := ParseLabelList(strings.Join(names, ","))
		require.NoError(t, err)
		require.Equal(t, names, again)
	})
}

// FuzzReadCSVMultilabel: any CSV read with two label columns either loads — a multi-label
// dataset whose every label is the 0/1 value of its field and whose label columns each hold
// both values — or fails with a *CSVError; it never panics.
func FuzzReadCSVMultilabel(f *testing.F) {
	f.Add("a,x,b\n0,1,1\n1,2,0\n")
	f.Add("a,x,b\n0,1,1\n1,2,2\n")
	f.Add("a,x,b\n0,1,1\n0,2,0\n")
	f.Add("x,b\n0,1\n")
	f.Fuzz(func(t *testing.T, in string) {
		ds, err := ReadCSV(strings.NewReader(in), CSVConfig{Labels: []string{"b", "a"}})
		if err != nil {
			if _, ok := errors.AsType[*CSVError](err); !ok {
				require.Fail(t, fmt.Sprintf("error %v is not a *CSVError", err))
			}
			return
		}
		require.NoError(t, ds.Validate())
		require.Equal(t, []string{"b", "a"}, ds.Labels)
		require.False(t, slices.Contains(ds.FeatureNames, "a") || slices.Contains(ds.FeatureNames, "b"))
		for c := range 2 {
			var ones int
			for i := range ds.Rows {
				ones += int(ds.Y[i*2+c])
			}
			require.True(t, ones > 0 && ones < ds.Rows, "label %d: %d of %d", c, ones, ds.Rows)
		}
	})
}
