package data

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
)

// rawCSV is a small raw table: a numeric column with blanks and NA, a text column with a rare
// level, a column with no value at all, a column that turns to text on its fourth row, and a
// Yes/No label.
const rawCSV = `age,dept,empty,grade,left
30,sales,,1,No
,sales,NA,2,Yes
41,hr,,2.0,No
NA,sales,,A,Yes
25,it,,1,No
50,hr,,A,No
33,sales,,,Yes
`

var rawCfg = CSVConfig{Text: true, Missing: true, Positive: "Yes"}

func TestReadRawCSV(t *testing.T) {
	ds, err := ReadCSV(strings.NewReader(rawCSV), rawCfg)
	require.NoError(t, err)
	require.Equal(t, []string{"age", "dept", "empty", "grade"}, ds.FeatureNames)
	require.Equal(t, "left", ds.LabelName)
	require.Equal(t, []string{"No", "Yes"}, ds.LabelValues)
	require.Equal(t, []float64{0, 1, 0, 1, 0, 0, 1}, ds.Y)
	require.True(t, ds.Raw())
	// Levels: dept in order of appearance; grade's numbers before its first text renamed by
	// their float32 spelling ("2.0" is "2"); age and empty numeric.
	require.Equal(t, [][]string{nil, {"sales", "hr", "it"}, nil, {"1", "2", "A"}}, ds.Levels)
	nan := math.NaN()
	want := []float64{
		30, 0, nan, 0,
		nan, 0, nan, 1,
		41, 1, nan, 1,
		nan, 0, nan, 2,
		25, 2, nan, 0,
		50, 1, nan, 2,
		33, 0, nan, nan,
	}
	requireSameValues(t, want, ds.X)
	require.ErrorIs(t, ds.Validate(), ErrShape, "a raw dataset is not a model's input")
	_, err = FitStandardizer(ds)
	require.ErrorIs(t, err, ErrShape)

	// Without Missing the first blank is still ErrMissing, without Text the first text ErrNotNumber.
	_, err = ReadCSV(strings.NewReader(rawCSV), CSVConfig{Text: true, Positive: "Yes"})
	require.ErrorIs(t, err, ErrMissing)
	require.EqualError(t, err, `data: line 2, column "empty": missing value (empty field)`)
	_, err = ReadCSV(strings.NewReader(strings.ReplaceAll(rawCSV, ",,", ",0,")), CSVConfig{Missing: true, Positive: "Yes"})
	require.ErrorIs(t, err, ErrNotNumber)
	require.EqualError(t, err, `data: line 2, column "dept": "sales" is not a number`)
}

func requireSameValues(t *testing.T, want, got []float64) {
	t.Helper()
	require.Len(t, got, len(want))
	for k := range want {
		require.False(t, math.Float64bits(want[k]) != math.Float64bits(got[k]) && !(math.IsNaN(want[k]) && math.IsNaN(got[k])), "value %d: got %v, want %v", k, got[k], want[k])
	}
}

func TestEncoder(t *testing.T) {
	ds, err := ReadCSV(strings.NewReader(rawCSV), rawCfg)
	require.NoError(t, err)
	enc, err := FitEncoder(ds, EncoderConfig{MinRows: 2})
	require.NoError(t, err)
	require.Equal(t, []EncodedColumn{
		{Name: "age", Median: 33, Missing: true}, // the median of 25, 30, 33, 41, 50
		{Name: "dept", Text: true, Levels: []string{"hr", "sales"}, Other: true},
		{Name: "empty", Text: false, Empty: true},
		{Name: "grade", Text: true, Levels: []string{"1", "2", "A"}, Missing: true},
	}, enc.Columns)
	require.Equal(t, []string{"age", "age (missing)", "dept=hr", "dept=sales", "dept=(other)",
		"grade=1", "grade=2", "grade=A", "grade=(missing)"}, enc.Names())
	require.Equal(t, []string{"No", "Yes"}, enc.LabelValues)

	out, err := enc.Apply(ds)
	require.NoError(t, err)
	require.False(t, out.Raw())
	require.NoError(t, out.Validate())
	require.Equal(t, enc.Names(), out.FeatureNames)
	want := [][]float64{
		{30, 0, 0, 1, 0, 1, 0, 0, 0},
		{33, 1, 0, 1, 0, 0, 1, 0, 0},
		{41, 0, 1, 0, 0, 0, 1, 0, 0},
		{33, 1, 0, 1, 0, 0, 0, 1, 0},
		{25, 0, 0, 0, 1, 1, 0, 0, 0}, // it: rarer than MinRows, other
		{50, 0, 1, 0, 0, 0, 0, 1, 0},
		{33, 0, 0, 1, 0, 0, 0, 0, 1},
	}
	for i, w := range want {
		require.Equal(t, w, out.Row(i), "row %d", i)
	}
	require.Equal(t, ds.Y, out.Y)

	// Encode gives each row as Apply does, from the row's text.
	lines := strings.Split(strings.TrimSpace(rawCSV), "\n")[1:]
	for i, line := range lines {
		f := strings.Split(line, ",")
		got, err := enc.Encode(nil, f[:4])
		require.NoError(t, err)
		require.Equal(t, want[i], got, "row %d", i)
	}
	// A level first seen now goes to other, or to no feature where the column has none; a
	// missing value where training had none is the median alone; a number in a text column
	// is its level by value; the empty column reads anything.
	got, err := enc.Encode([]float64{-1}, []string{"", "legal", "x", "1.0"})
	require.NoError(t, err)
	require.Equal(t, []float64{-1, 33, 1, 0, 0, 1, 1, 0, 0, 0}, got)
	got, err = enc.Encode(nil, []string{"7", " hr ", "", "B"})
	require.NoError(t, err)
	require.Equal(t, []float64{7, 0, 1, 0, 0, 0, 0, 0, 0}, got)
	_, err = enc.Encode(nil, []string{"old", "hr", "", "1"})
	require.ErrorIs(t, err, ErrNotNumber)
	require.EqualError(t, err, `data: "old" is not a number`)
	require.Equal(t, "age", err.(*CSVError).Column, "for the caller's line")
	_, err = enc.Encode(nil, []string{"1"})
	require.ErrorIs(t, err, ErrShape)

	for _, c := range []struct {
		field string
		want  float64
		err   error
	}{{"Yes", 1, nil}, {" No", 0, nil}, {"Maybe", 0, rocops.ErrLabel}, {"", 0, ErrMissing}} {
		y, err := enc.Label(c.field)
		require.ErrorIs(t, err, c.err, c.field)
		require.Equal(t, c.want, y, c.field)
	}
	_, err = enc.Label("Maybe")
	require.EqualError(t, err, `data: "Maybe" is a label value not seen in training ("No", "Yes")`)

	// The defaults: MinRows 5 sends every level of this small table to other.
	enc5, err := FitEncoder(ds, EncoderConfig{})
	require.NoError(t, err)
	require.Equal(t, EncodedColumn{Name: "dept", Text: true, Other: true}, enc5.Columns[1])
	enc1, err := FitEncoder(ds, EncoderConfig{MinRows: 1, MaxLevels: 2})
	require.NoError(t, err)
	require.Equal(t, []string{"hr", "sales"}, enc1.Columns[1].Levels, "the two most frequent")
	_, err = FitEncoder(ds, EncoderConfig{MinRows: -1})
	require.ErrorIs(t, err, rocops.ErrConfig)
}

func TestEncoderNameCollision(t *testing.T) {
	ds, err := ReadCSV(strings.NewReader("a,a (missing),y\n1,2,0\n,3,1\n4,5,0\n"), CSVConfig{Missing: true})
	require.NoError(t, err)
	enc, err := FitEncoder(ds, EncoderConfig{})
	require.NoError(t, err)
	require.Equal(t, []string{"a", "a (missing)", "a (missing)#2"}, enc.Names())
}

func TestEncoderFloat32(t *testing.T) {
	d64, err := ReadCSV(strings.NewReader(rawCSV), rawCfg)
	require.NoError(t, err)
	cfg := rawCfg
	cfg.Float32 = true
	d32, err := ReadCSV(strings.NewReader(rawCSV), cfg)
	require.NoError(t, err)
	require.Equal(t, d64.Levels, d32.Levels)
	e64, err := FitEncoder(d64, EncoderConfig{MinRows: 2})
	require.NoError(t, err)
	e32, err := FitEncoder(d32, EncoderConfig{MinRows: 2})
	require.NoError(t, err)
	require.Equal(t, e64.Columns, e32.Columns)
	out, err := e32.Apply(d32)
	require.NoError(t, err)
	require.NotNil(t, out.X32)
	require.Equal(t, []float32{33, 1, 0, 1, 0, 0, 1, 0, 0}, out.X32[9:18])
}

func TestLabelRules(t *testing.T) {
	// true and false are 0/1 labels without Positive, in any case.
	ds, err := ReadCSV(strings.NewReader("x,y\n1,true\n2,False\n3,TRUE\n"), CSVConfig{})
	require.NoError(t, err)
	require.Equal(t, []float64{1, 0, 1}, ds.Y)
	require.Nil(t, ds.LabelValues)
	// Positive picks either value, by value for numbers.
	ds, err = ReadCSV(strings.NewReader("x,y\n1,0\n2,1\n3,1.0\n"), CSVConfig{Positive: "0"})
	require.NoError(t, err)
	require.Equal(t, []float64{1, 0, 0}, ds.Y)
	require.Equal(t, []string{"1", "0"}, ds.LabelValues)
	ds, err = ReadCSV(strings.NewReader("x,d\n1,M\n2,B\n3,M\n"), CSVConfig{Positive: " M "})
	require.NoError(t, err)
	require.Equal(t, []float64{1, 0, 1}, ds.Y)
	require.Equal(t, []string{"B", "M"}, ds.LabelValues)

	for _, c := range []struct{ name, csv, positive, msg string }{
		{"not a value", "x,d\n1,M\n2,B\n", "X", `data: the positive class "X" is not a value of the label column "d", whose values are "M" and "B"`},
		{"three values", "x,d\n1,M\n2,B\n3,C\n", "M", `data: the positive class "M" names one of two label values, and the label column "d" has 3 ("M", "B", "C"…)`},
	} {
		_, err := ReadCSV(strings.NewReader(c.csv), CSVConfig{Positive: c.positive})
		require.ErrorIs(t, err, rocops.ErrLabel, c.name)
		require.EqualError(t, err, c.msg, c.name)
	}
	_, err = ReadCSV(strings.NewReader("x,d\n1,M\n2,M\n"), CSVConfig{Positive: "M"})
	require.ErrorIs(t, err, rocops.ErrOneClass)

	// The label column: the one named label, y, class or target, else the last.
	for _, c := range []struct{ header, want string }{
		{"Target,a,b", "Target"}, {"a,class,b", "class"}, {"y,label,b", "b"}, {"a,b,c", "c"},
	} {
		ds, err := ReadCSV(strings.NewReader(c.header+"\n0,0,0\n1,1,1\n"), CSVConfig{})
		require.NoError(t, err, c.header)
		require.Equal(t, c.want, ds.LabelName, c.header)
	}
	// A Parquet writer that sorts its columns by name puts a feature last: the column named
	// target is the label.
	dbl := parquet.Leaf(parquet.DoubleType)
	row := func(a, t, z float64) parquet.Row {
		return parquet.Row{parquet.DoubleValue(a).Level(0, 0, 0), parquet.DoubleValue(t).Level(0, 0, 1), parquet.DoubleValue(z).Level(0, 0, 2)}
	}
	path := writeSchema(t, parquet.Group{"a": dbl, "target": dbl, "z": dbl}, []parquet.Row{row(1, 0, 5), row(2, 1, 6), row(3, 1, 7)})
	ds, err = LoadParquet(path, CSVConfig{})
	require.NoError(t, err)
	require.Equal(t, "target", ds.LabelName)
	require.Equal(t, []string{"a", "z"}, ds.FeatureNames)
	require.Equal(t, []float64{0, 1, 1}, ds.Y)
}

// likeCSV is a validation file of rawCSV's table: a level only it has (legal), blanks.
const likeCSV = `age,dept,empty,grade,left
,legal,,1,Yes
28,hr,5,,No
`

func TestReadLike(t *testing.T) {
	tr, err := ReadCSV(strings.NewReader(rawCSV), rawCfg)
	require.NoError(t, err)
	cfg := CSVConfig{Text: true, Missing: true, Like: tr}
	val, err := ReadCSV(strings.NewReader(likeCSV), cfg)
	require.NoError(t, err)
	require.Equal(t, tr.LabelValues, val.LabelValues)
	require.Equal(t, []float64{1, 0}, val.Y)
	// The text columns of the training data are text here, even of numbers only.
	require.Equal(t, [][]string{nil, {"legal", "hr"}, nil, {"1"}}, val.Levels)
	enc, err := FitEncoder(tr, EncoderConfig{MinRows: 2})
	require.NoError(t, err)
	out, err := enc.Apply(val)
	require.NoError(t, err)
	require.Equal(t, []float64{33, 1, 0, 0, 1, 1, 0, 0, 0}, out.Row(0))
	require.Equal(t, []float64{28, 0, 1, 0, 0, 0, 0, 0, 1}, out.Row(1))

	for _, c := range []struct {
		name, csv string
		err       error
		msg       string
	}{
		{"unseen label", strings.Replace(likeCSV, "No\n", "Maybe\n", 1), rocops.ErrLabel,
			`data: line 3, column "left": "Maybe" is a label value not seen in training ("No", "Yes")`},
		{"another column", strings.Replace(likeCSV, "grade", "grad", 1), ErrHeader,
			`data: line 1, column "grad": feature 4 is "grad", a column the training data does not have (it has "grade" there): the columns must be the training data's, in its order`},
		{"another order", strings.Replace(likeCSV, "age,dept", "dept,age", 1), ErrHeader,
			`data: line 1, column "dept": feature 1 is "dept" where the training data has "age": the columns must be the training data's, in its order`},
		{"a column fewer", "age,dept,empty,left\n1,hr,,No\n2,hr,,Yes\n", ErrHeader,
			`data: line 1: no column "grade", feature 4 of the training data: the columns must be the training data's, in its order`},
		{"text in a numeric column", strings.Replace(likeCSV, "28", "old", 1), ErrNotNumber,
			`data: line 3, column "age": "old" is not a number (the column is numeric in the training data)`},
		{"one class", strings.Replace(likeCSV, "No\n", "Yes\n", 1), rocops.ErrOneClass,
			`data: label column "left": all 2 rows have label 1; both classes are needed`},
	} {
		_, err := ReadCSV(strings.NewReader(c.csv), cfg)
		require.ErrorIs(t, err, c.err, c.name)
		require.EqualError(t, err, c.msg, c.name)
	}

	// Classes: the training classes' indices, a class absent or of one row allowed.
	mc, err := ReadCSV(strings.NewReader("x,c\n1,a\n2,b\n3,c\n4,a\n5,b\n6,c\n7,a\n8,b\n9,c\n"), CSVConfig{})
	require.NoError(t, err)
	v, err := ReadCSV(strings.NewReader("x,c\n1,c\n2,a\n"), CSVConfig{Like: mc})
	require.NoError(t, err)
	require.Equal(t, []float64{2, 0}, v.Y)
	require.Equal(t, mc.Classes, v.Classes)
	_, err = ReadCSV(strings.NewReader("x,c\n1,c\n2,d\n"), CSVConfig{Like: mc})
	require.EqualError(t, err, `data: line 3, column "c": "d" is a label value not seen in training ("a", "b", "c")`)
}

// parquetRaw is a row of rawCSV's table in Parquet: optional columns for the blanks, text as
// BYTE_ARRAY.
type parquetRaw struct {
	Age   *float64 `parquet:"age,optional"`
	Dept  *string  `parquet:"dept,optional"`
	Empty *float64 `parquet:"empty,optional"`
	Grade *string  `parquet:"grade,optional"`
	Left  string   `parquet:"left"`
}

// TestParquetRawMatchesCSV: the same rows and columns read from Parquet and from CSV give
// the same raw dataset, and so the same encoding.
func TestParquetRawMatchesCSV(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	rows := []parquetRaw{
		{f(30), s("sales"), nil, s("1"), "No"},
		{nil, s("sales"), f(math.NaN()), s("2"), "Yes"},
		{f(41), s("hr"), nil, s("2.0"), "No"},
		{nil, s("sales"), nil, s("A"), "Yes"},
		{f(25), s("it"), nil, s("1"), "No"},
		{f(50), s("hr"), nil, s("A"), "No"},
		{f(33), s("sales"), nil, nil, "Yes"},
	}
	path := filepath.Join(t.TempDir(), "raw.parquet")
	out, err := os.Create(path)
	require.NoError(t, err)
	w := parquet.NewGenericWriter[parquetRaw](out)
	_, err = w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, out.Close())

	want, err := ReadCSV(strings.NewReader(rawCSV), rawCfg)
	require.NoError(t, err)
	got, err := Load(path, rawCfg)
	require.NoError(t, err)
	require.Equal(t, want.FeatureNames, got.FeatureNames)
	require.Equal(t, want.Levels, got.Levels)
	require.Equal(t, want.LabelValues, got.LabelValues)
	require.Equal(t, want.Y, got.Y)
	requireSameValues(t, want.X, got.X)

	_, err = Load(path, CSVConfig{Text: true, Positive: "Yes"})
	require.ErrorIs(t, err, ErrMissing)
	require.ErrorContains(t, err, `raw.parquet: column "age", row 2: null`)
	_, err = Load(path, CSVConfig{Positive: "Yes", Missing: true})
	require.ErrorIs(t, err, ErrColumnType, "text features need Text")

	val, err := Load(path, CSVConfig{Text: true, Missing: true, Like: want})
	require.NoError(t, err)
	require.Equal(t, want.Y, val.Y)
	require.Equal(t, want.Levels, val.Levels)
	other := *want
	other.FeatureNames = []string{"age", "dept", "empty", "level"}
	_, err = Load(path, CSVConfig{Text: true, Missing: true, Like: &other})
	require.ErrorIs(t, err, ErrHeader)
	require.ErrorContains(t, err, `raw.parquet: column "grade": feature 4 is "grade", a column the training data does not have (it has "level" there)`)
}
