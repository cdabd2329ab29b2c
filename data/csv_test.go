package data

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

func TestReadCSV(t *testing.T) {
	// A byte-order mark, spaces around fields, a blank line, a quoted field, "1.0" as a
	// label and a label column in the middle.
	const text = "\ufeffa, y ,b\n" +
		"1.5, 0 ,-2\n" +
		"\n" +
		"\"3e2\",1.0, 0x1p-2\n"
	ds, err := ReadCSV(strings.NewReader(text), CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Equal(t, &Dataset{
		X:            []float64{1.5, -2, 300, 0.25},
		Y:            []float64{0, 1},
		Rows:         2,
		Cols:         2,
		FeatureNames: []string{"a", "b"},
		LabelName:    "y",
	}, ds)

	// Without a label name, the last column is the label.
	ds, err = ReadCSV(strings.NewReader("p;q;r\n1;2;1\n3;4;0\n"), CSVConfig{Comma: ';'})
	require.NoError(t, err)
	require.Equal(t, "r", ds.LabelName)
	require.Equal(t, []string{"p", "q"}, ds.FeatureNames)
	require.Equal(t, []float64{1, 2, 3, 4}, ds.X)
	require.Equal(t, []float64{1, 0}, ds.Y)
}

// TestReadCSVErrors feeds one bad input per kind of error and checks the sentinel, the line
// and column it names, and for some the whole message.
func TestReadCSVErrors(t *testing.T) {
	const header = "mean_radius,texture,label\n"
	const good = "1,2,0\n3,4,1\n" // lines 2 and 3 after the header
	cases := []struct {
		name   string
		text   string
		want   error
		line   int
		column string
		msg    string // the whole message, if not ""
	}{
		{"not a number", header + good + "abc,4,1\n", ErrNotNumber, 4, "mean_radius",
			`data: line 4, column "mean_radius": "abc" is not a number`},
		{"infinite", header + good + "1,inf,1\n", ErrNotNumber, 4, "texture",
			`data: line 4, column "texture": "inf" is not a finite number`},
		{"overflow", header + "1e400,2,0\n" + good, ErrNotNumber, 2, "mean_radius", ""},
		{"empty field", header + good + "1,,1\n", ErrMissing, 4, "texture",
			`data: line 4, column "texture": missing value (empty field)`},
		{"NA", header + "NA,2,1\n" + good, ErrMissing, 2, "mean_radius", ""},
		{"NaN", header + good + "1, nan ,0\n", ErrMissing, 4, "texture", ""},
		{"question mark", header + good + "?,1,0\n", ErrMissing, 4, "mean_radius", ""},
		{"missing label", header + good + "1,2,\n", ErrMissing, 4, "label", ""},
		{"too few fields", header + good + "1,2\n", ErrMalformed, 4, "",
			`data: line 4: 2 fields, the header has 3`},
		{"too many fields", header + "1,2,0,5\n" + good, ErrMalformed, 2, "",
			`data: line 2: 4 fields, the header has 3`},
		// A third label value makes the column multi-class, whose classes need 3 rows each;
		// the stray value is the class reported.
		{"label 2", header + good + "1,2,2\n", ErrClassTooSmall, 4, "label",
			`data: line 4, column "label": class "2" has 1 rows (the first on this line); a class needs at least 3, one for each of training, validation and test`},
		{"label word", header + good + "1,2,yes\n", ErrClassTooSmall, 4, "label", ""},
		{"label 0.5", header + good + "1,2,0.5\n", ErrClassTooSmall, 4, "label", ""},
		{"two words", header + "1,2,yes\n3,4,no\n", rocops.ErrLabel, 2, "label",
			`data: line 2, column "label": the label column has two values, "yes" and "no", and not 0 and 1: name the positive class (CSVConfig.Positive; roctrain -positive VALUE)`},
		{"0 and a word", header + "1,2,0\n3,4,yes\n", rocops.ErrLabel, 3, "label", ""},
		{"bare quote", header + good + "1,2\"x,0\n", ErrMalformed, 4, "", ""},
		// The quoted field spans lines 2 and 3, and the blank line 5 is skipped, so the bad
		// value is on line 6 of the text.
		{"line numbers", header + "1,\"2\n\",0\n3,4,1\n\n5,x,1\n", ErrNotNumber, 6, "texture", ""},
		{"empty input", "", rocops.ErrEmpty, 0, "", "data: no header row"},
		{"header only", header, rocops.ErrEmpty, 0, "", ""},
		{"one class", header + "1,2,1\n3,4,1\n", rocops.ErrOneClass, 0, "",
			"data: all 2 rows have label 1; both classes are needed"},
		{"duplicate column", "a,b,a,y\n1,2,3,0\n", ErrHeader, 1, "a", ""},
		{"unnamed column after a blank line", "\na,,y\n1,2,0\n", ErrHeader, 2, "", ""},
		{"single column", "y\n0\n1\n", ErrHeader, 1, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			requireCSVError(t, c.text, c.want, c.line, c.column, c.msg)
		})
	}

	_, err := ReadCSV(strings.NewReader("a,b\n1,0\n2,1\n"), CSVConfig{Label: "label"})
	require.ErrorIs(t, err, ErrHeader)
	require.EqualError(t, err, `data: line 1: no label column "label"`)
}

func TestLoadCSV(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(path, []byte("x,y\n1,0\n2,1\nz,0\n"), 0o600))
	_, err := LoadCSV(path, CSVConfig{})
	require.ErrorIs(t, err, ErrNotNumber)
	require.EqualError(t, err, "data: "+path+`: line 4, column "x": "z" is not a number`)

	path = filepath.Join(dir, "good.csv")
	require.NoError(t, os.WriteFile(path, []byte("x,y\n1,0\n2,1\n"), 0o600))
	ds, err := LoadCSV(path, CSVConfig{})
	require.NoError(t, err)
	require.Equal(t, []float64{1, 2}, ds.X)

	_, err = LoadCSV(filepath.Join(dir, "absent.csv"), CSVConfig{})
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.True(t, strings.HasPrefix(err.Error(), "data: "), err.Error())
}

// The counts are those documented for the data (internal/dataset/README.md): 569 rows, 30
// features, 212 malignant; the first row is the first line of wdbc.csv.
func TestWDBC(t *testing.T) {
	ds, err := WDBC()
	require.NoError(t, err)
	require.Equal(t, 569, ds.Rows)
	require.Equal(t, 30, ds.Cols)
	require.Equal(t, 212, ds.Positives())
	require.Equal(t, "malignant", ds.LabelName)
	require.Equal(t, "mean_radius", ds.FeatureNames[0])
	require.Equal(t, "worst_fractal_dimension", ds.FeatureNames[29])
	require.Equal(t, []float64{17.99, 10.38, 122.8, 1001}, ds.Row(0)[:4])
	require.Equal(t, 0.1189, ds.Row(0)[29])
	require.Equal(t, 1.0, ds.Y[0])
	require.NoError(t, ds.Validate())
	require.Contains(t, WDBCCredit, "10.24432/C5DW2B")
}
