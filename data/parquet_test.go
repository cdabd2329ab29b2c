package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// mixedColumns are the columns of the test files, in the order parquet.Group sorts them
// (by name): one of each readable type, the label "class" first.
var mixedColumns = []struct {
	name string
	node parquet.Node
}{
	{"class", parquet.Leaf(parquet.Int64Type)},
	{"f0", parquet.Leaf(parquet.DoubleType)},
	{"f1", parquet.Leaf(parquet.FloatType)},
	{"f2", parquet.Leaf(parquet.Int32Type)},
	{"f3", parquet.Leaf(parquet.Int64Type)},
	{"f4", parquet.Leaf(parquet.BooleanType)},
	{"f5", parquet.Optional(parquet.Leaf(parquet.DoubleType))},
}

// mixedValue returns row i's value of column j, as a parquet Value and as CSV text that
// parses to the same float64.
func mixedValue(rng *rand.Rand, j int) (parquet.Value, string) {
	switch j {
	case 0:
		y := int64(0)
		if rng.Float64() < 0.2 {
			y = 1
		}
		return parquet.Int64Value(y), strconv.FormatInt(y, 10)
	case 1, 6:
		v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
		return parquet.DoubleValue(v), strconv.FormatFloat(v, 'g', -1, 64)
	case 2:
		v := float32(rng.NormFloat64())
		return parquet.FloatValue(v), strconv.FormatFloat(float64(v), 'g', -1, 64) // its float64 in full
	case 3:
		v := int32(rng.Uint32())
		return parquet.Int32Value(v), strconv.FormatInt(int64(v), 10)
	case 4:
		v := rng.Int64N(1<<53) - 1<<52
		return parquet.Int64Value(v), strconv.FormatInt(v, 10)
	}
	b := rng.IntN(2) == 1
	if b {
		return parquet.BooleanValue(true), "1"
	}
	return parquet.BooleanValue(false), "0"
}

// writeMixed writes the same rows random rows to a Parquet file (row groups of groupRows)
// and a CSV file in dir, and returns their paths.
func writeMixed(t testing.TB, dir string, rows, groupRows int, seed uint64) (pq, csvPath string) {
	t.Helper()
	group := parquet.Group{}
	for _, c := range mixedColumns {
		group[c.name] = c.node
	}
	schema := parquet.NewSchema("rows", group)
	pq, csvPath = filepath.Join(dir, "d.parquet"), filepath.Join(dir, "d.csv")
	pf, err := os.Create(pq)
	require.NoError(t, err)
	cf, err := os.Create(csvPath)
	require.NoError(t, err)
	cw := bufio.NewWriter(cf)
	w := parquet.NewWriter(pf, schema, parquet.MaxRowsPerRowGroup(int64(groupRows)), parquet.PageBufferSize(4096))
	rng := rand.New(rand.NewPCG(seed, 1))
	for j, c := range mixedColumns {
		if j > 0 {
			cw.WriteString(",")
		}
		cw.WriteString(c.name)
	}
	cw.WriteString("\n")
	row := make(parquet.Row, len(mixedColumns))
	for range rows {
		for j := range mixedColumns {
			v, text := mixedValue(rng, j)
			def := 0
			if j == len(mixedColumns)-1 {
				def = 1 // the optional column's value is present
			}
			row[j] = v.Level(0, def, j)
			if j > 0 {
				cw.WriteString(",")
			}
			cw.WriteString(text)
		}
		cw.WriteString("\n")
		_, err := w.WriteRows([]parquet.Row{row})
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	require.NoError(t, pf.Close())
	require.NoError(t, cw.Flush())
	require.NoError(t, cf.Close())
	return pq, csvPath
}

// requireSameBits fails unless a and b hold the same names and bit-identical numbers.
func requireSameBits(t testing.TB, a, b *Dataset) {
	t.Helper()
	require.Equal(t, a.Rows, b.Rows)
	require.Equal(t, a.Cols, b.Cols)
	require.Equal(t, a.FeatureNames, b.FeatureNames)
	require.Equal(t, a.LabelName, b.LabelName)
	for k := range a.X {
		if math.Float64bits(a.X[k]) != math.Float64bits(b.X[k]) {
			t.Fatalf("row %d, feature %q: %v and %v", k/a.Cols, a.FeatureNames[k%a.Cols], a.X[k], b.X[k])
		}
	}
	require.Equal(t, a.Y, b.Y)
}

func TestParquetEqualsCSV(t *testing.T) {
	for _, c := range []struct{ rows, group int }{{1, 1}, {37, 5}, {5000, 1024}} {
		t.Run(fmt.Sprintf("rows=%d,group=%d", c.rows, c.group), func(t *testing.T) {
			pq, cp := writeMixed(t, t.TempDir(), c.rows, c.group, 0)
			cfg := CSVConfig{Label: "class"}
			fromCSV, errCSV := Load(cp, cfg)
			fromPQ, errPQ := Load(pq, cfg)
			if c.rows == 1 {
				require.ErrorIs(t, errCSV, rocops.ErrOneClass)
				require.ErrorIs(t, errPQ, rocops.ErrOneClass)
				return
			}
			require.NoError(t, errCSV)
			require.NoError(t, errPQ)
			requireSameBits(t, fromCSV, fromPQ)
			require.Equal(t, []string{"f0", "f1", "f2", "f3", "f4", "f5"}, fromPQ.FeatureNames)
		})
	}
}

func TestParquetReaderRowGroups(t *testing.T) {
	pq, _ := writeMixed(t, t.TempDir(), 1000, 300, 3)
	whole, err := LoadParquet(pq, CSVConfig{Label: "class"})
	require.NoError(t, err)
	f, err := os.Open(pq)
	require.NoError(t, err)
	defer f.Close()
	st, _ := f.Stat()
	var calls [][2]int64
	pr, err := newParquetRowReader(f, st.Size(), CSVConfig{Label: "class", Progress: func(rows int, bytes int64) {
		calls = append(calls, [2]int64{int64(rows), bytes})
	}})
	require.NoError(t, err)
	var x, y, allX, allY []float64
	for {
		x, y, err = pr.Next(x, y)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		require.LessOrEqual(t, len(y), 300, "a row group at a time")
		allX, allY = append(allX, x...), append(allY, y...)
	}
	require.Equal(t, whole.X, allX)
	require.Equal(t, whole.Y, allY)
	require.Len(t, calls, 4, "one progress call per row group")
	require.Equal(t, int64(1000), calls[3][0])
	require.True(t, slices.IsSortedFunc(calls, func(a, b [2]int64) int { return int(a[1] - b[1]) }))
	require.Positive(t, calls[0][1])
}

// writeSchema writes one row of the given columns (values by column) to a Parquet file.
func writeSchema(t *testing.T, group parquet.Group, rows []parquet.Row) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.parquet")
	f, err := os.Create(path)
	require.NoError(t, err)
	w := parquet.NewWriter(f, parquet.NewSchema("rows", group))
	_, err = w.WriteRows(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	return path
}

func TestParquetErrors(t *testing.T) {
	dbl := parquet.Leaf(parquet.DoubleType)
	row := func(vs ...parquet.Value) parquet.Row {
		r := make(parquet.Row, len(vs))
		for j, v := range vs {
			r[j] = v.Level(0, 0, j)
		}
		return r
	}
	d := parquet.DoubleValue
	two := []parquet.Row{row(d(0), d(1)), row(d(1), d(2))}
	cases := []struct {
		name  string
		group parquet.Group
		rows  []parquet.Row
		label string
		want  error
		msg   string
	}{
		{"string feature", parquet.Group{"a": parquet.String(), "y": dbl},
			[]parquet.Row{row(parquet.ByteArrayValue([]byte("x")), d(0))}, "y", ErrColumnType, `column "a"`},
		{"no label", parquet.Group{"a": dbl, "b": dbl}, two, "y", ErrHeader, `"y"`},
		{"one column", parquet.Group{"a": dbl}, []parquet.Row{row(d(0))}, "", ErrHeader, "1 columns"},
		{"bad label", parquet.Group{"a": dbl, "b": dbl}, two, "b", rocops.ErrLabel, `x.parquet: column "b", row 2: the label column has two values, "1" and "2", and not 0 and 1: name the positive class`},
		{"one class", parquet.Group{"a": dbl, "b": dbl}, []parquet.Row{row(d(1), d(1)), row(d(1), d(2))}, "a", rocops.ErrOneClass, "both classes"},
		{"NaN", parquet.Group{"a": dbl, "b": dbl}, []parquet.Row{row(d(math.NaN()), d(1)), row(d(1), d(0))}, "b", ErrNotNumber, `column "a", row 1: NaN is not a finite number`},
		{"null", parquet.Group{"a": parquet.Optional(dbl), "b": dbl},
			[]parquet.Row{{parquet.NullValue().Level(0, 0, 0), d(1).Level(0, 0, 1)}, row(d(1), d(0))}, "b", ErrMissing, `column "a", row 1: null`},
		{"empty", parquet.Group{"a": dbl, "b": dbl}, nil, "b", rocops.ErrEmpty, "x.parquet: the Parquet file has no rows"},
	}
	for _, c := range cases {
		path := writeSchema(t, c.group, c.rows)
		_, err := LoadParquet(path, CSVConfig{Label: c.label})
		require.ErrorIs(t, err, c.want, c.name)
		require.ErrorContains(t, err, c.msg, c.name)
	}
	_, err := LoadParquet(filepath.Join(t.TempDir(), "none.parquet"), CSVConfig{})
	require.ErrorIs(t, err, os.ErrNotExist)
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	require.NoError(t, os.WriteFile(bad, []byte("a,b\n1,0\n"), 0o644))
	_, err = Load(bad, CSVConfig{})
	require.ErrorIs(t, err, ErrMalformed)
}

func BenchmarkLoadParquet(b *testing.B) {
	for _, rows := range []int{1000, 100_000} {
		pq, _ := writeMixed(b, b.TempDir(), rows, 50_000, 1)
		st, err := os.Stat(pq)
		require.NoError(b, err)
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(st.Size())
			for b.Loop() {
				if _, err := LoadParquet(pq, CSVConfig{Label: "class"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// WriteMixed is writeMixed for the package's external tests.
var WriteMixed = writeMixed

// TestParquetFloat32: with Float32 a Parquet file's features are stored in float32, equal bit
// for bit to the float32 dataset of a CSV of the same values and to the float64 Parquet
// dataset rounded to nearest; a value beyond float32's range is rocops.ErrRange naming its column
// and row (from 1), and loads unchanged without Float32.
func TestParquetFloat32(t *testing.T) {
	pq, cp := writeMixed(t, t.TempDir(), 5000, 1024, 5)
	cfg := CSVConfig{Label: "class", Float32: true}
	fromCSV, err := Load(cp, cfg)
	require.NoError(t, err)
	fromPQ, err := Load(pq, cfg)
	require.NoError(t, err)
	require.Equal(t, fromCSV.X32, fromPQ.X32) // float32s compare by value; NaN cannot occur
	require.Equal(t, fromCSV.Y, fromPQ.Y)
	wide, err := Load(pq, CSVConfig{Label: "class"})
	require.NoError(t, err)
	requireNarrowed(t, wide, fromPQ)

	dbl := parquet.Leaf(parquet.DoubleType)
	row := func(a, b float64) parquet.Row {
		return parquet.Row{parquet.DoubleValue(a).Level(0, 0, 0), parquet.DoubleValue(b).Level(0, 0, 1)}
	}
	path := writeSchema(t, parquet.Group{"a": dbl, "y": dbl},
		[]parquet.Row{row(math.MaxFloat32, 0), row(-4e38, 1), row(1, 0)})
	_, err = LoadParquet(path, CSVConfig{Label: "y", Float32: true})
	require.ErrorIs(t, err, rocops.ErrRange)
	require.ErrorContains(t, err, `column "a", row 2: -4e+38 is beyond float32's range`)
	ds, err := LoadParquet(path, CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Equal(t, []float64{math.MaxFloat32, -4e38, 1}, ds.X)
}
