package deploy

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// parquetFile writes the Parquet file name in a new temporary folder and returns its path:
// write makes a writer of f, writes the rows through it and returns it; parquetFile then
// closes the writer and f.
func parquetFile(t *testing.T, name string, write func(f *os.File) io.Closer) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	require.NoError(t, err)
	w := write(f)
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	return path
}

// featureRowsParquet writes n rows to a Parquet file in row groups of 1000 rows: the features
// a, b and c of rowsCSV and classRowsCSV as doubles, an extra text column "id" that scoring
// ignores, and the label columns of labels, whose names sort after "id" (a Group orders its
// columns by name), with the values labelRow(i) gives in that order; labels may be empty.
func featureRowsParquet(t *testing.T, n int, labels parquet.Group, labelRow func(i int) []parquet.Value) string {
	t.Helper()
	group := parquet.Group{
		"a":  parquet.Leaf(parquet.DoubleType),
		"b":  parquet.Leaf(parquet.DoubleType),
		"c":  parquet.Leaf(parquet.DoubleType),
		"id": parquet.String(),
	}
	maps.Copy(group, labels)
	return parquetFile(t, "rows.parquet", func(file *os.File) io.Closer {
		w := parquet.NewWriter(file, parquet.NewSchema("rows", group), parquet.MaxRowsPerRowGroup(1000))
		for i := range n {
			row := parquet.Row{
				parquet.DoubleValue(math.Sin(float64(i*i))+1).Level(0, 0, 0),
				parquet.DoubleValue(2*math.Cos(float64(3*i))-2).Level(0, 0, 1),
				parquet.DoubleValue(math.Sin(float64(7*i+1))).Level(0, 0, 2),
				parquet.ByteArrayValue([]byte("row")).Level(0, 0, 3),
			}
			if len(labels) > 0 {
				for k, v := range labelRow(i) {
					row = append(row, v.Level(0, 0, 4+k))
				}
			}
			_, err := w.WriteRows([]parquet.Row{row})
			require.NoError(t, err)
		}
		return w
	})
}

// fixture is a model with its operating point, standardisation and features, ready to Save.
type fixture struct {
	m        nn.Model
	op       OperatingPoint
	st       data.Standardizer
	features []string
}

// newFixture returns an MLP 3→4→1 initialised with seed, flagging scores ≥ 0.
func newFixture(t *testing.T, seed uint64) fixture {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4}, Seed: seed})
	require.NoError(t, err)
	return fixture{
		m:        m,
		op:       OperatingPoint{Alpha: 0.1, Threshold: 0, ValFPR: 0.1, ValTPR: 0.6, TestFPR: 0.08, TestTPR: 0.55, Label: "y", Run: Run{Loss: "ce", Seed: seed, LearningRate: 0.01}},
		st:       data.Standardizer{Mean: []float64{1, -2, 0.5}, Std: []float64{2, 0.5, 3}},
		features: []string{"a", "b", "c"},
	}
}

func (f fixture) save(t *testing.T, dir, name string) string {
	t.Helper()
	path, err := Save(dir, name, f.m, f.op, f.st, f.features)
	require.NoError(t, err)
	return path
}

// rowsCSV returns a CSV of n rows with the columns c, y, a, b (another order than the
// model's) of deterministic values.
func rowsCSV(n int) string {
	var b strings.Builder
	b.WriteString("c,y,a,b\n")
	for i := range n {
		fmt.Fprintf(&b, "%g,%d,%g,%g\n", math.Sin(float64(7*i+1)), i%3/2, math.Sin(float64(i*i))+1, 2*math.Cos(float64(3*i))-2)
	}
	return b.String()
}

// rawRows returns the features of rowsCSV(n) in the model's order a, b, c.
func rawRows(t *testing.T, n int) []float64 {
	t.Helper()
	ds, err := data.ReadCSV(strings.NewReader(rowsCSV(n)), data.CSVConfig{Label: "y"})
	require.NoError(t, err)
	x := make([]float64, 0, 3*n)
	for i := range n {
		r := ds.Row(i) // c, a, b
		x = append(x, r[1], r[2], r[0])
	}
	return x
}

// editSidecar rewrites the version-2, 3 or 4 sidecar at path through edit, which gets its
// decoded JSON object, and signs it again with a valid checksum (of the version it holds after
// the edit) unless edit sets resign false.
func editSidecar(t *testing.T, path string, edit func(obj map[string]any) (resign bool)) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var obj map[string]any
	require.NoError(t, json.Unmarshal(b, &obj))
	if edit(obj) {
		obj["sidecar_sha256"] = ""
		js, err := json.Marshal(obj)
		require.NoError(t, err)
		var head struct{ Version any } // as edit set it: 3 or 3.0
		require.NoError(t, json.Unmarshal(js, &head))
		var f interface{ checksum() (string, error) } = &fileV2{}
		_, classes := obj["classes"]
		if head.Version == float64(versionClasses) || head.Version == float64(versionGroups) && classes {
			f = &fileV3{}
		}
		if json.Unmarshal(js, f) == nil { // a value of the wrong type cannot be signed: leave it
			sum, err := f.checksum()
			require.NoError(t, err)
			obj["sidecar_sha256"] = sum
		}
	}
	js, err := json.MarshalIndent(obj, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, js, 0o644))
}

// files lists the names in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func sidecarOf(dir, name string) string { return filepath.Join(dir, name+".json") }
