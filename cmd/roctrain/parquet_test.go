package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
)

// writeParquetOf writes the rows of the CSV at csvPath (numeric features a, b, c and a 0/1
// label y) to a Parquet file beside it: the features as doubles, the label as an int64.
func writeParquetOf(t *testing.T, csvPath string) string {
	t.Helper()
	ds, err := data.LoadCSV(csvPath, data.CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "c"}, ds.FeatureNames)
	group := parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.DoubleType),
		"c": parquet.Leaf(parquet.DoubleType), "y": parquet.Leaf(parquet.Int64Type)}
	path := filepath.Join(filepath.Dir(csvPath), "rows.parquet")
	f, err := os.Create(path)
	require.NoError(t, err)
	w := parquet.NewWriter(f, parquet.NewSchema("rows", group), parquet.MaxRowsPerRowGroup(150))
	for i := range ds.Rows {
		r := ds.Row(i) // a, b, c; the Group's columns are ordered by name: a, b, c, y
		_, err := w.WriteRows([]parquet.Row{{parquet.DoubleValue(r[0]).Level(0, 0, 0),
			parquet.DoubleValue(r[1]).Level(0, 0, 1), parquet.DoubleValue(r[2]).Level(0, 0, 2),
			parquet.Int64Value(int64(ds.Y[i])).Level(0, 0, 3)}})
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	return path
}

// A Parquet file and a CSV of the same rows train to the same results (the JSON less its
// timings and the data's name) and -predict prints the same rows for both.
func TestParquetLikeCSV(t *testing.T) {
	dir := t.TempDir()
	csvPath := writeCSV(t, dir, 400)
	pq := writeParquetOf(t, csvPath)
	timing := regexp.MustCompile(`"train_seconds": [^,\n]*`)
	var outs [2]string
	for k, path := range []string{csvPath, pq} {
		code, out, stderr := roctrain(t, "-data", path, "-label", "y", "-json", "-plot", "", "-losses", "ce,sqhinge",
			"-hidden", "4", "-epochs", "3", "-lr", "0.01", "-boot", "20", "-out", filepath.Join(dir, "m"+string(rune('0'+k))))
		require.Equal(t, 0, code, stderr)
		outs[k] = timing.ReplaceAllString(out, `"train_seconds": 0`)
	}
	require.Equal(t, outs[0], outs[1])
	model := filepath.Join(dir, "m0", "ce.params")
	code, fromCSV, stderr := roctrain(t, "-predict", model, "-data", csvPath)
	require.Equal(t, 0, code, stderr)
	code, fromParquet, stderr := roctrain(t, "-predict", model, "-data", pq)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, fromCSV, fromParquet)
}

// A Parquet file whose label column holds class names trains as the CSV of the same rows
// does: the same JSON, classes included, less the timings; ce, a one-vs-rest pairwise loss
// and aucm.
func TestParquetClassesLikeCSV(t *testing.T) {
	dir := t.TempDir()
	csvPath := writeClassCSV(t, dir, 120, []string{"wolf", "emu", "Cat"})
	ds, err := data.LoadCSV(csvPath, data.CSVConfig{Label: "kind"})
	require.NoError(t, err)
	require.Equal(t, []string{"u", "v", "w"}, ds.FeatureNames)
	group := parquet.Group{"kind": parquet.String(), "u": parquet.Leaf(parquet.DoubleType),
		"v": parquet.Leaf(parquet.DoubleType), "w": parquet.Leaf(parquet.DoubleType)}
	pq := filepath.Join(dir, "classes.parquet")
	f, err := os.Create(pq)
	require.NoError(t, err)
	w := parquet.NewWriter(f, parquet.NewSchema("rows", group), parquet.MaxRowsPerRowGroup(50))
	for i := range ds.Rows {
		r := ds.Row(i) // the Group's columns are ordered by name: kind, u, v, w
		_, err := w.WriteRows([]parquet.Row{{parquet.ByteArrayValue([]byte(ds.Classes[int(ds.Y[i])])).Level(0, 0, 0),
			parquet.DoubleValue(r[0]).Level(0, 0, 1), parquet.DoubleValue(r[1]).Level(0, 0, 2), parquet.DoubleValue(r[2]).Level(0, 0, 3)}})
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())

	timing := regexp.MustCompile(`"train_seconds": [^,\n]*`)
	var outs [2]string
	for k, path := range []string{csvPath, pq} {
		code, out, stderr := roctrain(t, "-data", path, "-label", "kind", "-json", "-plot", "", "-losses", "ce,sqhinge,aucm",
			"-hidden", "4", "-epochs", "3", "-lr", "0.01", "-boot", "20")
		require.Equal(t, 0, code, stderr)
		outs[k] = timing.ReplaceAllString(out, `"train_seconds": 0`)
	}
	require.Equal(t, outs[0], outs[1])
	require.Equal(t, []string{"Cat", "emu", "wolf"}, decodeClasses(t, outs[1]).Classes)
}
