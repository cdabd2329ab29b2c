package deploy

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// withLine returns rowsCSV(n) with the data row on line (the header is line 1) replaced.
func withLine(n, line int, row string) string {
	lines := strings.SplitAfter(rowsCSV(n), "\n")
	lines[line-1] = row + "\n"
	return strings.Join(lines, "")
}

// A row whose score overflows, or whose feature is beyond a float32 model's range, is refused
// naming its line (and the feature), after the rows before it are written: the whole chunk of
// 4,096 rows was lost, the header too, and the error named the row's index in the chunk.
func TestScoreCSVOverflowWritesRowsBefore(t *testing.T) {
	f64 := newFixture(t, 3)
	m32, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4}, Seed: 3, Dtype: tensor.Float32})
	require.NoError(t, err)
	f32 := f64
	f32.m = m32
	// c, y, a, b: a, b and c standardise to about 5e307, −8e307 and 3e307, within float64.
	huge := "1e308,1,1e308,-4e307"
	s64, err := Load(f64.save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	_, err = s64.Score([]float64{1e308, -4e307, 1e308}, 1)
	require.ErrorIs(t, err, rocops.ErrRange, "the row's score overflows in float64")
	s32, err := Load(f32.save(t, t.TempDir(), "ce32"))
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		s    *Scorer
		row  string
		msg  string
	}{
		{"score overflow", s64, huge, `data: line 6: the row's score overflows float64, the model's dtype`},
		{"float32 feature", s32, "0.5,0,1e39,-2", `data: line 6, column "a": 1e+39 standardises to 5e+38, beyond the range of the model's float32`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			rows, _, err := c.s.ScoreCSV(strings.NewReader(withLine(20, 6, c.row)), &out)
			require.ErrorIs(t, err, rocops.ErrRange)
			require.EqualError(t, err, c.msg)
			ce, ok := err.(*data.CSVError)
			require.True(t, ok, "a *data.CSVError, which ScoreFile names the file in")
			require.Equal(t, 6, ce.Line)
			require.Equal(t, 4, rows)
			var want bytes.Buffer
			_, _, err = c.s.ScoreCSV(strings.NewReader(rowsCSV(4)), &want)
			require.NoError(t, err)
			require.Equal(t, want.String(), out.String(), "the header and the four rows before line 6")
		})
	}
	// Deep in a chunk, and through ScoreParquet's rows alike.
	var out bytes.Buffer
	rows, _, err := s64.ScoreCSV(strings.NewReader(withLine(5000, 3001, huge)), &out)
	require.ErrorContains(t, err, "line 3001: the row's score overflows")
	require.Equal(t, 2999, rows)
	require.Equal(t, firstLines(t, s64, 5000, 2999), out.String())
}

// ScoreParquet likewise, naming the row.
func TestScoreParquetOverflowWritesRowsBefore(t *testing.T) {
	s, err := Load(newFixture(t, 3).save(t, t.TempDir(), "ce"))
	require.NoError(t, err)
	path := writeEditedParquet(t, 3000, func(i int, row parquet.Row) {
		if i == 2500 {
			row[0], row[1], row[2] = parquet.DoubleValue(1e308), parquet.DoubleValue(-4e307), parquet.DoubleValue(1e308)
		}
	})
	out, rows, _, err := scoreParquetFile(t, s, path)
	require.ErrorIs(t, err, rocops.ErrRange)
	require.EqualError(t, err, "deploy: row 2501: the row's score overflows float64, the model's dtype")
	require.Equal(t, 2500, rows)
	require.Equal(t, firstLines(t, s, 3000, 2500), out)
}
