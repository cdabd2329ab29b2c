package deploy

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
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
)

// classOf is the label of row i of classRowsCSV: a class of newClassFixture's, or "fox", a
// class the model was not trained on, every seventh row.
func classOf(i int) string {
	if i%7 == 3 {
		return "fox"
	}
	return []string{"cat", "dog, big", `say "hi"`}[i%3]
}

// labelOf is label column c of row i of classRowsCSV for a multi-label model, 0 or 1.
func labelOf(i, c int) int { return (i/(c+1) + c) % 2 }

// classRowsCSV returns rowsCSV(n) with its label column y replaced, for a multi-class model
// (multilabel false), by the class names classOf, quoted where CSV needs it; for a
// multi-label one, by the label columns p, q and r of labelOf, in another order.
func classRowsCSV(n int, multilabel bool) string {
	lines := strings.Split(strings.TrimSuffix(rowsCSV(n), "\n"), "\n")
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	for i, l := range lines {
		f := strings.Split(l, ",") // c,y,a,b
		rec := []string{f[0], "", f[2], f[3]}
		switch {
		case i == 0 && multilabel:
			rec = []string{"c", "r", "a", "p", "b", "q"}
		case i == 0:
			rec[1] = "y"
		case multilabel:
			rec = []string{f[0], strconv.Itoa(labelOf(i-1, 2)), f[2], strconv.Itoa(labelOf(i-1, 0)), f[3], strconv.Itoa(labelOf(i-1, 1))}
		default:
			rec[1] = classOf(i - 1)
		}
		if err := w.Write(rec); err != nil {
			panic(err)
		}
	}
	w.Flush()
	return b.String()
}

// savedThresholds reads the per-class thresholds from the sidecar at path, null as +Inf.
func savedThresholds(t *testing.T, path string) []float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var f struct{ Thresholds []*float64 }
	require.NoError(t, json.Unmarshal(b, &f))
	out := make([]float64, len(f.Thresholds))
	for c, v := range f.Thresholds {
		out[c] = math.Inf(1)
		if v != nil {
			out[c] = *v
		}
	}
	return out
}

// ScoreCSV of a multi-class model (raw outputs and probabilities) and of a multi-label one,
// over more rows than a chunk: the header row,<label>,score_c…,flag_c… with the class names
// quoted as CSV needs; each row's label fields as in the input (a class the model does not
// know, "fox", included); scores equal to the model's outputs, or their softmax, on the
// standardised rows (computed here); each flag equal to score ≥ the threshold the sidecar
// saved for its class; flagged the rows with a flag.
func TestScoreCSVClasses(t *testing.T) {
	for _, c := range []struct {
		name                      string
		multilabel, probabilities bool
		head                      string
	}{
		{"multi-class", false, false, `row,y,score_cat,"score_dog, big","score_say ""hi""",flag_cat,"flag_dog, big","flag_say ""hi"""`},
		{"multi-class probabilities", false, true, `row,y,score_cat,"score_dog, big","score_say ""hi""",flag_cat,"flag_dog, big","flag_say ""hi"""`},
		{"multi-label", true, false, `row,p,q,r,score_p,score_q,score_r,flag_p,flag_q,flag_r`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			f := newClassFixture(t, 6, c.multilabel, c.probabilities)
			f.op.Thresholds[2] = 0.1 // every class flags some rows, and none all
			if c.probabilities {
				f.op.Thresholds[2] = 0.5
			}
			s, err := Load(f.save(t, dir, "mc"))
			require.NoError(t, err)
			thresholds := savedThresholds(t, sidecarOf(dir, "mc"))
			require.Equal(t, f.op.Thresholds, thresholds)

			n := chunk + 17
			var out bytes.Buffer
			rows, flagged, err := s.ScoreCSV(strings.NewReader(classRowsCSV(n, c.multilabel)), &out)
			require.NoError(t, err)
			require.Equal(t, n, rows)
			require.Equal(t, c.head, strings.SplitN(out.String(), "\n", 2)[0])
			recs, err := csv.NewReader(&out).ReadAll()
			require.NoError(t, err)
			require.Len(t, recs, n+1)
			want := f.wantScores(t, rawRows(t, n), n)
			nl := 1
			if c.multilabel {
				nl = 3
			}
			wantFlagged, perClass := 0, [3]int{}
			for i, rec := range recs[1:] {
				require.Len(t, rec, 1+nl+6)
				require.Equal(t, strconv.Itoa(i+1), rec[0])
				if c.multilabel {
					require.Equal(t, []string{strconv.Itoa(labelOf(i, 0)), strconv.Itoa(labelOf(i, 1)), strconv.Itoa(labelOf(i, 2))}, rec[1:4])
				} else {
					require.Equal(t, classOf(i), rec[1])
				}
				some := false
				for k := range 3 {
					score, err := strconv.ParseFloat(rec[1+nl+k], 64)
					require.NoError(t, err)
					require.Equal(t, want[3*i+k], score, "row %d, class %d", i+1, k)
					flag := score >= thresholds[k]
					require.Equal(t, map[bool]string{false: "0", true: "1"}[flag], rec[1+nl+3+k], "row %d, class %d", i+1, k)
					if flag {
						some = true
						perClass[k]++
					}
				}
				if some {
					wantFlagged++
				}
			}
			require.Equal(t, wantFlagged, flagged)
			for k := range 3 {
				require.Greater(t, perClass[k], 0, "class %d flags some rows", k)
				require.Less(t, perClass[k], n, "class %d flags not all rows", k)
			}
			require.Less(t, flagged, n)
		})
	}
}

// Without the label column (multi-class) or without one of the label columns (multi-label),
// ScoreCSV writes no label field.
func TestScoreCSVClassesWithoutLabels(t *testing.T) {
	for _, c := range []struct {
		name, text, head string
		multilabel       bool
	}{
		{"multi-class", "a,b,c\n1,2,3\n", `row,score_cat,"score_dog, big","score_say ""hi""",flag_cat,"flag_dog, big","flag_say ""hi"""`, false},
		{"multi-label", "a,b,c,p,q\n1,2,3,0,1\n", "row,score_p,score_q,score_r,flag_p,flag_q,flag_r", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(newClassFixture(t, 6, c.multilabel, false).save(t, t.TempDir(), "mc"))
			require.NoError(t, err)
			var out bytes.Buffer
			rows, _, err := s.ScoreCSV(strings.NewReader(c.text), &out)
			require.NoError(t, err)
			require.Equal(t, 1, rows)
			lines := strings.Split(out.String(), "\n")
			require.Equal(t, c.head, lines[0])
			rec, err := csv.NewReader(strings.NewReader(lines[1])).Read()
			require.NoError(t, err)
			require.Len(t, rec, 7)
		})
	}
}

// A missing class name, and a multi-label value other than 0/1, are CSV errors naming the
// line and column, after the rows before them are written.
func TestScoreCSVClassesErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		multilabel bool
		err        error
		line       int
		column     string
	}{
		{"empty class", "a,b,c,y\n1,2,3,cat\n1,2,3, \n", false, data.ErrMissing, 3, "y"},
		{"class NA", "a,b,c,y\n1,2,3,cat\n1,2,3,NA\n", false, data.ErrMissing, 3, "y"},
		{"label 2", "a,b,c,p,q,r\n1,2,3,0,1,1\n1,2,3,0,2,1\n", true, rocops.ErrLabel, 3, "q"},
		{"label missing", "a,b,c,p,q,r\n1,2,3,0,1,1\n1,2,3,0,1,\n", true, data.ErrMissing, 3, "r"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(newClassFixture(t, 6, c.multilabel, false).save(t, t.TempDir(), "mc"))
			require.NoError(t, err)
			var out bytes.Buffer
			rows, _, err := s.ScoreCSV(strings.NewReader(c.text), &out)
			require.ErrorIs(t, err, c.err)
			ce, ok := errors.AsType[*data.CSVError](err)
			require.True(t, ok, "%T", err)
			require.Equal(t, c.line, ce.Line)
			require.Equal(t, c.column, ce.Column)
			require.Equal(t, 1, rows)
			require.Equal(t, 2, strings.Count(out.String(), "\n"), out.String())
		})
	}
}

// writeClassRowsParquet writes the rows of classRowsCSV(n, multilabel) as Parquet in row
// groups of 1000 rows, with an extra text column "id": the features as doubles, and unless
// withLabels is false, the class names as text, or the label columns p (int64), q (boolean)
// and r (int32).
func writeClassRowsParquet(t *testing.T, n int, multilabel, withLabels bool) string {
	t.Helper()
	switch {
	case withLabels && multilabel:
		labels := parquet.Group{"p": parquet.Leaf(parquet.Int64Type), "q": parquet.Leaf(parquet.BooleanType), "r": parquet.Leaf(parquet.Int32Type)}
		return featureRowsParquet(t, n, labels, func(i int) []parquet.Value {
			return []parquet.Value{parquet.Int64Value(int64(labelOf(i, 0))), parquet.BooleanValue(labelOf(i, 1) == 1), parquet.Int32Value(int32(labelOf(i, 2)))}
		})
	case withLabels:
		return featureRowsParquet(t, n, parquet.Group{"y": parquet.String()}, func(i int) []parquet.Value {
			return []parquet.Value{parquet.ByteArrayValue([]byte(classOf(i)))}
		})
	}
	return featureRowsParquet(t, n, nil, nil)
}

// ScoreParquet of a model of classes, over several row groups and chunks, writes exactly
// what ScoreCSV writes of the same rows, with the label fields and without them.
func TestScoreParquetClassesEqualsCSV(t *testing.T) {
	for _, c := range []struct {
		name                      string
		multilabel, probabilities bool
	}{{"multi-class", false, false}, {"multi-class probabilities", false, true}, {"multi-label", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(newClassFixture(t, 6, c.multilabel, c.probabilities).save(t, t.TempDir(), "mc"))
			require.NoError(t, err)
			n := chunk + 1017
			text := classRowsCSV(n, c.multilabel)
			var want bytes.Buffer
			wantRows, wantFlagged, err := s.ScoreCSV(strings.NewReader(text), &want)
			require.NoError(t, err)
			got, rows, flagged, err := scoreParquetFile(t, s, writeClassRowsParquet(t, n, c.multilabel, true))
			require.NoError(t, err)
			require.Equal(t, want.String(), got)
			require.Equal(t, wantRows, rows)
			require.Equal(t, wantFlagged, flagged)

			// Without labels: ScoreCSV of the rows less the label columns.
			want.Reset()
			_, _, err = s.ScoreCSV(strings.NewReader(rowsCSV(n)), &want) // y is no column of the model's
			require.NoError(t, err)
			got, _, _, err = scoreParquetFile(t, s, writeClassRowsParquet(t, n, c.multilabel, false))
			require.NoError(t, err)
			if !c.multilabel { // rowsCSV's y is a label column of 0/1 classes to a multi-class model
				lines := strings.Split(strings.TrimSuffix(want.String(), "\n"), "\n")
				var b bytes.Buffer
				for _, l := range lines {
					rec, err := csv.NewReader(strings.NewReader(l)).Read()
					require.NoError(t, err)
					w := csv.NewWriter(&b)
					require.NoError(t, w.Write(append(rec[:1:1], rec[2:]...)))
					w.Flush()
				}
				want = b
			}
			require.Equal(t, want.String(), got)
		})
	}
}

// ScoreParquet of a model of classes names a null or missing class name and a multi-label
// value other than 0/1.
func TestScoreParquetClassesErrors(t *testing.T) {
	write := func(group parquet.Group, row parquet.Row) string {
		return parquetFile(t, "bad.parquet", func(f *os.File) io.Closer {
			w := parquet.NewWriter(f, parquet.NewSchema("rows", group))
			_, err := w.WriteRows([]parquet.Row{row})
			require.NoError(t, err)
			return w
		})
	}
	num := parquet.Leaf(parquet.DoubleType)
	abc := func(extra ...parquet.Value) parquet.Row {
		row := parquet.Row{parquet.DoubleValue(1).Level(0, 0, 0), parquet.DoubleValue(2).Level(0, 0, 1), parquet.DoubleValue(3).Level(0, 0, 2)}
		for j, v := range extra {
			row = append(row, v.Level(0, 0, 3+j))
		}
		return row
	}
	for _, c := range []struct {
		name       string
		multilabel bool
		path       string
		err        error
		msg        string
	}{
		{"NA class", false, write(parquet.Group{"a": num, "b": num, "c": num, "y": parquet.String()}, abc(parquet.ByteArrayValue([]byte("NA")))),
			data.ErrMissing, `column "y", row 1: missing value "NA"`},
		{"null class", false, write(parquet.Group{"a": num, "b": num, "c": num, "y": parquet.Optional(parquet.String())}, abc(parquet.NullValue())),
			data.ErrMissing, `column "y", row 1: null`},
		{"label 2", true, write(parquet.Group{"a": num, "b": num, "c": num, "p": num, "q": num, "r": num},
			abc(parquet.DoubleValue(0), parquet.DoubleValue(2), parquet.DoubleValue(1))), rocops.ErrLabel, `deploy: column "q", row 1: 2 is not a label (want 0 or 1)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(newClassFixture(t, 6, c.multilabel, false).save(t, t.TempDir(), "mc"))
			require.NoError(t, err)
			_, _, _, err = scoreParquetFile(t, s, c.path)
			require.ErrorIs(t, err, c.err)
			require.ErrorContains(t, err, c.msg)
		})
	}
}
