package deploy

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// rawTrain is a raw training table: a numeric column with blanks and NA, a text column, a
// column with no value, and a Yes/No label.
const rawTrain = `age,dept,note,left
30,sales,,No
,sales,,Yes
41,hr,,No
NA,sales,,Yes
25,it,,No
50,hr,,No
33,it,,Yes
47,hr,,Yes
`

// newEncodedFixture returns a model of the raw table's encoding, with its encoder in the
// operating point.
func newEncodedFixture(t *testing.T) fixture {
	t.Helper()
	ds, err := data.ReadCSV(strings.NewReader(rawTrain), data.CSVConfig{Text: true, Missing: true, Positive: "Yes"})
	require.NoError(t, err)
	enc, err := data.FitEncoder(ds, data.EncoderConfig{MinRows: 2})
	require.NoError(t, err)
	x, err := enc.Apply(ds)
	require.NoError(t, err)
	st, err := data.FitStandardizer(x)
	require.NoError(t, err)
	m, err := nn.NewMLP(nn.MLPConfig{In: x.Cols, Hidden: []int{3}, Seed: 4})
	require.NoError(t, err)
	op := OperatingPoint{Alpha: 0.1, Threshold: 0, ValFPR: 0.1, ValTPR: 0.6, TestFPR: 0.1, TestTPR: 0.5, Label: "left",
		Run: Run{Loss: "ce", Seed: 1, LearningRate: 0.01}, Encoder: enc}
	return fixture{m: m, op: op, st: st, features: x.FeatureNames}
}

// encodedFixture saves a model of the raw table's encoding and returns its path and encoder.
func encodedFixture(t *testing.T, dir string) (string, *data.Encoder) {
	t.Helper()
	f := newEncodedFixture(t)
	return f.save(t, dir, "raw"), f.op.Encoder
}

func TestEncodedSidecar(t *testing.T) {
	dir := t.TempDir()
	path, enc := encodedFixture(t, dir)
	s, err := Load(path)
	require.NoError(t, err)
	defer s.Close()
	require.Equal(t, versionGroups, s.Version())
	require.Equal(t, enc.Columns, s.OperatingPoint().Encoder.Columns)
	require.Equal(t, []string{"No", "Yes"}, s.OperatingPoint().Encoder.LabelValues)
	require.Equal(t, []string{"age", "age (missing)", "dept=hr", "dept=it", "dept=sales"}, s.Features())
	js, err := os.ReadFile(sidecarPath(path))
	require.NoError(t, err)
	require.Contains(t, string(js), `"encoding": {`)
	require.Contains(t, string(js), `"kind": "empty"`)

	// Scoring rows with levels new since training and blank cells: every score finite, and
	// each the score of the row encoded by hand.
	rows := "left,note,dept,age\nYes,,legal,\nNo,x,,61\nYes,,hr,NA\n"
	var out bytes.Buffer
	n, _, err := s.ScoreCSV(strings.NewReader(rows), &out)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	recs, err := csv.NewReader(&out).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"row", "left", "score", "flag"}, recs[0])
	raw := [][]string{{"", "legal", ""}, {"61", "", "x"}, {"NA", "hr", ""}}
	var x []float64
	for _, r := range raw {
		x, err = enc.Encode(x, r)
		require.NoError(t, err)
	}
	want, err := s.Score(x, len(raw)) // one batch, as ScoreCSV scores them
	require.NoError(t, err)
	for i := range raw {
		got, err := strconv.ParseFloat(recs[i+1][2], 64)
		require.NoError(t, err)
		require.False(t, math.IsNaN(got) || math.IsInf(got, 0))
		require.Equal(t, want[i], got, "row %d", i+1)
		require.Equal(t, map[int]string{0: "1", 1: "0", 2: "1"}[i], recs[i+1][1], "the label as 0/1")
	}

	// Bad input still names the line and the column.
	for _, c := range []struct {
		rows string
		err  error
		msg  string
	}{
		{"age,dept,note,left\n1,hr,,Maybe\n", rocops.ErrLabel, `data: line 2, column "left": "Maybe" is a label value not seen in training ("No", "Yes")`},
		{"age,dept,note,left\nold,hr,,No\n", data.ErrNotNumber, `data: line 2, column "age": "old" is not a number`},
		{"age,note,left\n1,,No\n", data.ErrHeader, `data: line 1: no column "dept", a feature of the model`},
	} {
		_, _, err := s.ScoreCSV(strings.NewReader(c.rows), &bytes.Buffer{})
		require.ErrorIs(t, err, c.err, c.rows)
		require.EqualError(t, err, c.msg, c.rows)
	}

	// The same rows in Parquet score to the same bytes.
	type prow struct {
		Left *string  `parquet:"left,optional"`
		Note *string  `parquet:"note,optional"`
		Dept *string  `parquet:"dept,optional"`
		Age  *float64 `parquet:"age,optional"`
	}
	str := func(v string) *string { return &v }
	f := func(v float64) *float64 { return &v }
	pq := parquetFile(t, "rows.parquet", func(file *os.File) io.Closer {
		w := parquet.NewGenericWriter[prow](file)
		_, err := w.Write([]prow{{str("Yes"), nil, str("legal"), nil}, {str("No"), str("x"), nil, f(61)}, {str("Yes"), nil, str("hr"), f(math.NaN())}})
		require.NoError(t, err)
		return w
	})
	var fromParquet bytes.Buffer
	file, err := os.Open(pq)
	require.NoError(t, err)
	defer file.Close()
	st, err := file.Stat()
	require.NoError(t, err)
	out.Reset()
	_, _, err = s.ScoreCSV(strings.NewReader(rows), &out)
	require.NoError(t, err)
	_, _, err = s.ScoreParquet(context.Background(), file, st.Size(), &fromParquet)
	require.NoError(t, err)
	require.Equal(t, out.String(), fromParquet.String())
}

func TestEncodedSidecarChecked(t *testing.T) {
	dir := t.TempDir()
	path, _ := encodedFixture(t, dir)
	side := sidecarPath(path)
	edit := func(f func(obj map[string]any)) {
		editSidecar(t, side, func(obj map[string]any) bool { f(obj); return true })
	}
	b, err := os.ReadFile(side)
	require.NoError(t, err)
	restore := func() { require.NoError(t, os.WriteFile(side, b, 0o644)) }

	edit(func(obj map[string]any) {
		obj["encoding"].(map[string]any)["columns"].([]any)[0].(map[string]any)["kind"] = "date"
	})
	_, err = Load(path)
	require.ErrorIs(t, err, ErrSidecar)
	require.ErrorContains(t, err, `column "age" has kind "date"`)
	restore()
	edit(func(obj map[string]any) { delete(obj, "encoding") })
	_, err = Load(path)
	require.ErrorContains(t, err, `key "encoding" missing`)
	restore()
	edit(func(obj map[string]any) {
		obj["encoding"].(map[string]any)["columns"].([]any)[1].(map[string]any)["levels"] = []any{"hr", "sales"}
	})
	_, err = Load(path)
	require.ErrorContains(t, err, "the encoder gives 4 features, not the model's 5 named in order")
	restore()
	_, err = Load(path)
	require.NoError(t, err)
}
