package data

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// labelCSV is a CSV of one feature and the label column y, the labels cycled over rows rows.
func labelCSV(labels []string, rows int) string {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range rows {
		fmt.Fprintf(&b, "%d,%s\n", i, labels[i%len(labels)])
	}
	return b.String()
}

// Class values are compared exactly: as integers in a column of integers (not through a
// float64, which rounds 2^53 + 1 to 2^53), as text in any other column ("007" and "7", "01"
// and "1" are then two classes, never one by their numeric value), from CSV and from a
// Parquet column of text or INT64 alike.
func TestClassValuesExact(t *testing.T) {
	for _, c := range []struct {
		name    string
		labels  []string
		classes []string
	}{
		{"integers beyond 2^53", []string{"9007199254740993", "9007199254740992", "5"},
			[]string{"5", "9007199254740992", "9007199254740993"}},
		{"negative integers beyond 2^53", []string{"-9007199254740993", "-9007199254740992", "-5", "+7"},
			[]string{"-9007199254740993", "-9007199254740992", "-5", "+7"}},
		{"leading zeros in text", []string{"007", "7", "abc"}, []string{"007", "7", "abc"}},
		{"01 and 1 in text", []string{"01", "1", "x"}, []string{"01", "1", "x"}},
		{"leading zeros in integers", []string{"007", "7", "8", "9"}, []string{"007", "8", "9"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := labelCSV(c.labels, 3*len(c.labels))
			ds, err := ReadCSV(strings.NewReader(text), CSVConfig{Label: "y"})
			require.NoError(t, err)
			require.Equal(t, c.classes, ds.Classes)
			rows, _ := classRows(3*len(c.labels), func(i int) parquet.Value {
				return parquet.ByteArrayValue([]byte(c.labels[i%len(c.labels)]))
			})
			path := writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": parquet.String()}, rows)
			fromParquet, err := LoadParquet(path, CSVConfig{Label: "y"})
			require.NoError(t, err)
			require.Equal(t, c.classes, fromParquet.Classes, "a Parquet text column")
		})
	}
	// A Parquet INT64 column of values that one float64 holds.
	big := []int64{1 << 53, 1<<53 + 1, 3}
	rows, text := classRows(9, func(i int) parquet.Value { return parquet.Int64Value(big[i%3]) })
	path := writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": parquet.Leaf(parquet.Int64Type)}, rows)
	ds, err := LoadParquet(path, CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Equal(t, []string{"3", "9007199254740992", "9007199254740993"}, ds.Classes)
	require.Equal(t, []float64{1, 2, 0, 1, 2, 0, 1, 2, 0}, ds.Y)
	fromCSV, err := ReadCSV(strings.NewReader(text), CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Equal(t, fromCSV, ds)

	// The numbers 0 and 1 stay a binary label however they are written.
	bin, err := ReadCSV(strings.NewReader(labelCSV([]string{"0", "1", "1.0", "01", "0.0"}, 10)), CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Nil(t, bin.Classes)
	require.Equal(t, []float64{0, 1, 1, 1, 0, 0, 1, 1, 1, 0}, bin.Y)
}

// Three values that are two classes (two spellings of one integer) are refused naming all
// three, not only the first.
func TestClassValuesMergedMessage(t *testing.T) {
	_, err := ReadCSV(strings.NewReader(labelCSV([]string{"007", "7", "8"}, 9)), CSVConfig{Label: "y"})
	require.ErrorIs(t, err, rocops.ErrLabel)
	require.EqualError(t, err, `data: line 2, column "y": the label values "007", "7" and "8" are 2 classes, each integer one class however it is written (want 0 or 1, or more than two classes)`)
	_, err = ReadCSV(strings.NewReader(labelCSV([]string{"yes", "no"}, 6)), CSVConfig{Label: "y"})
	require.EqualError(t, err, `data: line 2, column "y": the label column has two values, "yes" and "no", and not 0 and 1: name the positive class (CSVConfig.Positive; roctrain -positive VALUE)`, "two values, both named")
}

// Endless spellings of a few integers keep the memory of a few classes, and are those classes;
// in a column that then turns out to be text, they are too many classes.
func TestClassValueSpellings(t *testing.T) {
	var labels []string
	for i := range maxSpellings + 10 {
		labels = append(labels, strings.Repeat("0", i)+[]string{"1", "2", "3"}[i%3])
	}
	text := labelCSV(labels, len(labels))
	ds, err := ReadCSV(strings.NewReader(text), CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Equal(t, []string{"1", "02", "003"}, ds.Classes, "named by their first spellings")
	for i, y := range ds.Y {
		require.Equal(t, float64(i%3), y, "row %d", i)
	}
	_, err = ReadCSV(strings.NewReader(text+"1,x\n"), CSVConfig{Label: "y"})
	require.ErrorIs(t, err, ErrTooManyClasses)
	// And spellings of 0 and 1 of a binary column.
	labels = labels[:0]
	for i := range maxSpellings + 10 {
		labels = append(labels, strings.Repeat("0", i)+[]string{"0", "1"}[i%2]+".0")
	}
	bin, err := ReadCSV(strings.NewReader(labelCSV(labels, len(labels))), CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Nil(t, bin.Classes)
	require.Equal(t, float64(1), bin.Y[len(labels)-1])
}
