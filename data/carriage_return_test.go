package data

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// A carriage return inside a quoted field is text, not a line ending: a class name "a\rb"
// reads as "a\rb" from CSV, as from Parquet (it read "a\nb", another class), while lone CRs
// outside quotes still end lines.
func TestQuotedCarriageReturn(t *testing.T) {
	names := []string{"a\rb", "c", "d"}
	rows, text := classRows(9, func(i int) parquet.Value { return parquet.ByteArrayValue([]byte(names[i%3])) })
	require.Contains(t, text, "\"a\rb\"", "the CSV writer quotes it")
	fromCSV, err := ReadCSV(strings.NewReader(text), CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Equal(t, []string{"a\rb", "c", "d"}, fromCSV.Classes)
	path := writeSchema(t, parquet.Group{"a": parquet.Leaf(parquet.DoubleType), "b": parquet.Leaf(parquet.Int32Type), "y": parquet.String()}, rows)
	fromParquet, err := LoadParquet(path, CSVConfig{Label: "y"})
	require.NoError(t, err)
	require.Equal(t, []string{"a\rb", "c", "d"}, fromParquet.Classes, "Parquet keeps the CR")
	require.Equal(t, fromCSV, fromParquet)

	tr, err := NewTableReader(strings.NewReader("y,x\r\"p\rq\",1\r\"r\r\ns\",2\r"), CSVConfig{})
	require.NoError(t, err)
	var got []string
	for {
		if _, err := tr.Next(); err != nil {
			break
		}
		c, err := tr.Class(0)
		require.NoError(t, err)
		got = append(got, c)
	}
	require.Equal(t, []string{"p\rq", "r\ns"}, got, "lone CRs end the lines; a quoted CRLF is LF, as for encoding/csv")

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	cr, err := newParquetClassReader(bytes.NewReader(raw), int64(len(raw)), "y")
	require.NoError(t, err)
	classes, err := cr.Next(nil)
	require.NoError(t, err)
	require.Equal(t, "a\rb", classes[0], "deploy's Parquet class reader names it alike")
}
