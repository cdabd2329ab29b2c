package data

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// Next returns, with a bad value's error, the rows of its row group before the value's row:
// of a reader with a label column and of one without (whose first feature is read first).
func TestParquetNextRowsBeforeBadValue(t *testing.T) {
	dbl := parquet.Leaf(parquet.DoubleType)
	var rows []parquet.Row
	for i := range 10 {
		a, b := float64(i), float64(10*i)
		if i == 6 {
			a = math.NaN()
		}
		if i == 7 {
			b = math.Inf(1)
		}
		rows = append(rows, parquet.Row{parquet.DoubleValue(a).Level(0, 0, 0), parquet.DoubleValue(b).Level(0, 0, 1),
			parquet.DoubleValue(float64(i%2)).Level(0, 0, 2)})
	}
	path := writeSchema(t, parquet.Group{"a": dbl, "b": dbl, "y": dbl}, rows)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, features := range [][]string{{"b", "a"}, {"a", "b"}} {
		for _, label := range []string{"y", ""} {
			pr, err := newParquetColumnReader(bytes.NewReader(raw), int64(len(raw)), features, CSVConfig{Label: label})
			require.NoError(t, err)
			x, y, err := pr.Next(nil, nil)
			require.ErrorIs(t, err, ErrNotNumber)
			require.EqualError(t, err, `data: column "a", row 7: NaN is not a finite number`, "%v %q", features, label)
			require.Len(t, y, 6)
			require.Len(t, x, 12)
			for i := range 6 {
				want := map[string]float64{"a": float64(i), "b": float64(10 * i)}
				require.Equal(t, []float64{want[features[0]], want[features[1]]}, x[2*i:2*i+2])
				if label != "" {
					require.Equal(t, float64(i%2), y[i])
				}
			}
		}
	}
}
