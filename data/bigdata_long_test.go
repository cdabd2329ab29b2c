//go:build long

package data

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// The data of docs/benchmarks.md's memory section ("Memory"):
//
//	go test -tags long ./data -run TestWriteBig -big.rows 3000000 -big.dir /tmp
//
// writes /tmp/big.csv and /tmp/big.parquet with the same numbers: 30 features, 10% positives
// whose first five features are shifted by 1, every value rounded to 4 decimals.
var (
	bigRows = flag.Int("big.rows", 0, "rows of big.csv and big.parquet; 0 = skip TestWriteBig")
	bigDir  = flag.String("big.dir", os.TempDir(), "directory of big.csv and big.parquet")
)

func TestWriteBig(t *testing.T) {
	if *bigRows == 0 {
		t.Skip("set -big.rows")
	}
	const cols = 30
	group := parquet.Group{"label": parquet.Leaf(parquet.Int64Type)}
	for j := range cols {
		group[fmt.Sprintf("f%02d", j)] = parquet.Leaf(parquet.DoubleType)
	}
	cf, err := os.Create(filepath.Join(*bigDir, "big.csv"))
	require.NoError(t, err)
	pf, err := os.Create(filepath.Join(*bigDir, "big.parquet"))
	require.NoError(t, err)
	cw := bufio.NewWriterSize(cf, 1<<20)
	pw := parquet.NewWriter(pf, parquet.NewSchema("rows", group), parquet.MaxRowsPerRowGroup(1<<17))
	// Columns in the schema's (sorted) order: f00 … f29, label.
	for j := range cols {
		fmt.Fprintf(cw, "f%02d,", j)
	}
	cw.WriteString("label\n")
	rng := rand.New(rand.NewPCG(1, 2))
	var text []byte
	rows := make([]parquet.Row, 0, 1024)
	for i := range *bigRows {
		y := int64(0)
		if rng.Float64() < 0.1 {
			y = 1
		}
		row := make(parquet.Row, cols+1)
		for j := range cols {
			v := rng.NormFloat64()
			if j < 5 && y == 1 {
				v++
			}
			start := len(text)
			text = strconv.AppendFloat(text, v, 'f', 4, 64)
			v, _ = strconv.ParseFloat(string(text[start:]), 64) // the number the CSV holds
			text = append(text, ',')
			row[j] = parquet.DoubleValue(v).Level(0, 0, j)
		}
		row[cols] = parquet.Int64Value(y).Level(0, 0, cols)
		text = strconv.AppendInt(text, y, 10)
		text = append(text, '\n')
		cw.Write(text)
		text = text[:0]
		if rows = append(rows, row); len(rows) == cap(rows) || i == *bigRows-1 {
			_, err := pw.WriteRows(rows)
			require.NoError(t, err)
			rows = rows[:0]
		}
	}
	require.NoError(t, pw.Close())
	require.NoError(t, pf.Close())
	require.NoError(t, cw.Flush())
	require.NoError(t, cf.Close())
}
