package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// classRows returns n rows of two features, a (a double) and b (an int32), and the label
// label(i), as Parquet rows of the schema {a, b, y} (a Group sorts its columns by name) and
// as the CSV "a,y,b" of the same values, the label column in the middle.
func classRows(n int, label func(i int) parquet.Value) ([]parquet.Row, string) {
	var rows []parquet.Row
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"a", "y", "b"})
	for i := range n {
		a, c := math.Sin(float64(i*i+1))*3, int32(i%5-2)
		v := label(i)
		rows = append(rows, parquet.Row{parquet.DoubleValue(a).Level(0, 0, 0), parquet.Int32Value(c).Level(0, 0, 1), v.Level(0, 0, 2)})
		spelled, _ := appendParquetLabel(nil, v)
		_ = w.Write([]string{strconv.FormatFloat(a, 'g', -1, 64), string(spelled), strconv.Itoa(int(c))})
	}
	w.Flush()
	return rows, b.String()
}

// A Parquet file and a CSV of the same multi-class rows load to the same dataset: the same
// Classes (sorted as text, or by value for numbers), Y, X and names, whether the label column
// holds text, int64s or doubles; the 0/1 numbers stay a binary label, in text as well.
func TestParquetClassesEqualCSV(t *testing.T) {
	names := []string{"wolf", " emu", "Cat", "dog", "Cat "} // "Cat " is "Cat", trimmed
	ints := []int64{10, 2, -1, 2}
	doubles := []float64{2.5, 0.1, 1e21, -3}
	for _, c := range []struct {
		name    string
		node    parquet.Node
		label   func(int) parquet.Value
		classes []string
	}{
		{"text", parquet.String(), func(i int) parquet.Value { return parquet.ByteArrayValue([]byte(names[i%5])) },
			[]string{"Cat", "dog", "emu", "wolf"}},
		{"int64", parquet.Leaf(parquet.Int64Type), func(i int) parquet.Value { return parquet.Int64Value(ints[i%4]) },
			[]string{"-1", "2", "10"}},
		{"double", parquet.Leaf(parquet.DoubleType), func(i int) parquet.Value { return parquet.DoubleValue(doubles[i%4]) },
			[]string{"-3", "0.1", "2.5", "1e+21"}},
		{"text 0/1", parquet.String(), func(i int) parquet.Value { return parquet.ByteArrayValue([]byte(strconv.Itoa(i % 2))) }, nil},
		{"boolean", parquet.Leaf(parquet.BooleanType), func(i int) parquet.Value { return parquet.BooleanValue(i%3 == 0) }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, text := classRows(40, c.label)
			pq := writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": c.node}, rows)
			fromParquet, err := LoadParquet(pq, CSVConfig{Label: "y"})
			require.NoError(t, err)
			fromCSV, err := ReadCSV(strings.NewReader(text), CSVConfig{Label: "y"})
			require.NoError(t, err)
			require.Equal(t, c.classes, fromParquet.Classes)
			require.Equal(t, fromCSV.Classes, fromParquet.Classes)
			require.Equal(t, fromCSV.Y, fromParquet.Y)
			require.Equal(t, fromCSV.X, fromParquet.X)
			require.Equal(t, fromCSV.FeatureNames, fromParquet.FeatureNames)
			require.Equal(t, fromCSV, fromParquet)
			if c.classes != nil {
				require.Equal(t, len(c.classes), fromParquet.Task().K())
			}
		})
	}
}

// The label column's errors name it and the row (from 1), with the CSV path's sentinels: a
// class of fewer than MinClassRows rows (at its first row), a null, a NaN or a missing-value
// marker, two values that are not 0/1, one class, and more than MaxClasses classes.
func TestParquetClassErrors(t *testing.T) {
	str := func(s string) parquet.Value { return parquet.ByteArrayValue([]byte(s)) }
	cycle := func(vs ...parquet.Value) func(int) parquet.Value {
		return func(i int) parquet.Value { return vs[i%len(vs)] }
	}
	for _, c := range []struct {
		name  string
		node  parquet.Node
		label func(int) parquet.Value
		want  error
		msg   string
	}{
		{"small class", parquet.String(), func(i int) parquet.Value {
			if i == 7 || i == 11 {
				return str("rare")
			}
			return cycle(str("x"), str("y"), str("z"))(i)
		}, ErrClassTooSmall, `column "y", row 8: class "rare" has 2 rows (the first in this row)`},
		{"null", parquet.Optional(parquet.String()), func(i int) parquet.Value {
			if i == 4 {
				return parquet.NullValue()
			}
			return cycle(str("x"), str("y"), str("z"))(i)
		}, ErrMissing, `column "y", row 5: null`},
		{"NA", parquet.String(), cycle(str("x"), str("y"), str("NA")), ErrMissing, `column "y", row 3`},
		{"empty", parquet.String(), cycle(str("x"), str(" "), str("z")), ErrMissing, `column "y", row 2`},
		{"NaN", parquet.Leaf(parquet.DoubleType), cycle(parquet.DoubleValue(2), parquet.DoubleValue(3), parquet.DoubleValue(math.NaN())),
			ErrMissing, `column "y", row 3: NaN`},
		{"two names", parquet.String(), cycle(str("yes"), str("no")), rocops.ErrLabel, `column "y", row 1: the label column has two values, "yes" and "no", and not 0 and 1: name the positive class`},
		{"0 and 2", parquet.Leaf(parquet.Int64Type), cycle(parquet.Int64Value(0), parquet.Int64Value(2)), rocops.ErrLabel, `column "y", row 2: the label column has two values, "0" and "2", and not 0 and 1: name the positive class`},
		{"one class", parquet.Leaf(parquet.Int64Type), cycle(parquet.Int64Value(1)), rocops.ErrOneClass, `column "y"`},
		{"too many classes", parquet.String(), func(i int) parquet.Value { return str(fmt.Sprint("c", i)) }, ErrTooManyClasses,
			fmt.Sprintf(`column "y", row %d: "c%d" is a label value beyond the first %d`, MaxClasses+1, MaxClasses, MaxClasses)},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, text := classRows(MaxClasses+3, c.label)
			if c.name != "too many classes" {
				rows, text = classRows(30, c.label)
			}
			if c.name == "null" { // an optional column's values are defined at level 1
				for _, r := range rows {
					if !r[2].IsNull() {
						r[2] = r[2].Level(0, 1, 2)
					}
				}
			}
			pq := writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": c.node}, rows)
			_, err := LoadParquet(pq, CSVConfig{Label: "y"})
			require.ErrorIs(t, err, c.want)
			require.ErrorContains(t, err, c.msg)
			if c.name != "null" { // a CSV has no null
				_, err = ReadCSV(strings.NewReader(text), CSVConfig{Label: "y"})
				require.ErrorIs(t, err, c.want, "the CSV of the same rows")
			}
		})
	}
	// newParquetRowReader, which streams rows before all classes are known, still takes 0/1
	// labels only.
	rows, _ := classRows(9, func(i int) parquet.Value { return parquet.ByteArrayValue([]byte{byte('a' + i%3)}) })
	pq := writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": parquet.String()}, rows)
	f, err := os.Open(pq)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	_, err = newParquetRowReader(f, st.Size(), CSVConfig{Label: "y"})
	require.ErrorIs(t, err, ErrColumnType)
	require.ErrorContains(t, err, `column "y"`)
}

// appendParquetLabel spells numbers as CSV fields do; parquetClassReader names the rows'
// classes as ClassName does, row group by row group, and refuses missing values naming the
// 1-based row.
func TestParquetClassReader(t *testing.T) {
	for _, c := range []struct {
		v    parquet.Value
		want string
	}{
		{parquet.Int32Value(-3), "-3"}, {parquet.Int64Value(12), "12"}, {parquet.DoubleValue(2.5), "2.5"},
		{parquet.FloatValue(0.1), "0.1"}, {parquet.BooleanValue(true), "1"}, {parquet.BooleanValue(false), "0"},
		{parquet.ByteArrayValue([]byte(" a b ")), " a b "}, {parquet.DoubleValue(math.Inf(-1)), "-Inf"},
	} {
		got, missing := appendParquetLabel([]byte("x"), c.v)
		require.Empty(t, missing)
		require.Equal(t, "x"+c.want, string(got), fmt.Sprint(c.v))
	}
	for v, want := range map[string]parquet.Value{"null": parquet.NullValue(), "NaN": parquet.DoubleValue(math.NaN()),
		"NaN ": parquet.FloatValue(float32(math.NaN()))} {
		got, missing := appendParquetLabel([]byte("x"), want)
		require.Equal(t, strings.TrimSpace(v), missing)
		require.Equal(t, "x", string(got))
	}

	labels := []string{" a b ", "c", "10"}
	rows, _ := classRows(7, func(i int) parquet.Value { return parquet.ByteArrayValue([]byte(labels[i%3])) })
	path := writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": parquet.String()}, rows)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	r := bytes.NewReader(data)
	cr, err := newParquetClassReader(r, int64(len(data)), "y")
	require.NoError(t, err)
	var got []string
	for {
		got, err = cr.Next(got)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
	}
	require.Equal(t, []string{"a b", "c", "10", "a b", "c", "10", "a b"}, got)
	none, err := newParquetClassReader(r, int64(len(data)), "z")
	require.NoError(t, err)
	require.Nil(t, none)
	_, err = newParquetClassReader(bytes.NewReader([]byte("a,b\n")), 4, "y")
	require.ErrorIs(t, err, ErrMalformed)

	rows, _ = classRows(3, func(i int) parquet.Value { return parquet.ByteArrayValue([]byte([]string{"a", "b", "n/a"}[i])) })
	path = writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": parquet.String()}, rows)
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	cr, err = newParquetClassReader(bytes.NewReader(data), int64(len(data)), "y")
	require.NoError(t, err)
	_, err = cr.Next(nil)
	require.ErrorIs(t, err, ErrMissing)
	require.ErrorContains(t, err, `column "y", row 3: missing value "n/a"`)
}

// classNames checks that parquetClassReader names row i of the file at path ClassName of
// labels[i mod len(labels)], or fails at the first row ClassName refuses, with ErrMissing.
func classNames(t *testing.T, path string, labels []string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	cr, err := newParquetClassReader(bytes.NewReader(raw), int64(len(raw)), "y")
	require.NoError(t, err)
	var got []string
	for err == nil {
		got, err = cr.Next(got)
	}
	for i := range 3 * len(labels) {
		want, werr := ClassName(labels[i%len(labels)])
		if werr != nil {
			require.ErrorIs(t, err, ErrMissing)
			require.ErrorContains(t, err, fmt.Sprintf("row %d:", i+1))
			return
		}
		require.Equal(t, want, got[i], "row %d", i)
	}
	require.ErrorIs(t, err, io.EOF)
}

// A Parquet label column of text loads as a CSV of the same rows does: the same dataset, or
// errors of the same sentinel. The fuzzer writes the labels, one per line of its input.
func FuzzParquetClassLabels(f *testing.F) {
	for _, s := range []string{"a\nb\nc", "0\n1", "x\ny", "1\n2\n3\n2.0", "NA\nb\nc", "a\n\nb", " q\nq \nr\ns", "1e3\n1000\n7\n8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		labels := strings.Split(s, "\n")
		if len(labels) > 200 {
			return
		}
		rows, text := classRows(3*len(labels), func(i int) parquet.Value { return parquet.ByteArrayValue([]byte(labels[i%len(labels)])) })
		path := writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": parquet.String()}, rows)
		classNames(t, path, labels)
		fromParquet, err := LoadParquet(path, CSVConfig{Label: "y"})
		// The Parquet side on its own, whatever CSV makes of the rows: a class name holding a
		// carriage return is text (no number spells one) and is named with it, not with LF.
		for _, l := range labels {
			if name, nerr := ClassName(l); nerr == nil && err == nil && strings.Contains(name, "\r") {
				require.Contains(t, fromParquet.Classes, name, "labels %q", labels)
				require.NotContains(t, fromParquet.Classes, strings.ReplaceAll(name, "\r", "\n"), "labels %q", labels)
			}
		}
		fromCSV, csvErr := ReadCSV(strings.NewReader(text), CSVConfig{Label: "y"})
		var ce *CSVError
		if csvErr != nil && (!errors.As(csvErr, &ce) || errors.Is(csvErr, ErrMalformed)) {
			return // a label that no CSV field spells back
		}
		if csvErr != nil {
			if !errors.Is(err, ce.Err) {
				t.Fatalf("labels %q: CSV %v, Parquet %v", labels, csvErr, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("labels %q: CSV loads, Parquet: %v", labels, err)
		}
		require.Equal(t, fromCSV, fromParquet)
	})
}
