package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameAsEncodingCSV reads text with recordReader and with encoding/csv (configured as
// ReadCSV once configured it) and reports the first difference in records, field lines or
// errors.
func sameAsEncodingCSV(t *testing.T, text string, comma rune) {
	t.Helper()
	ref := csv.NewReader(strings.NewReader(text))
	ref.Comma, ref.FieldsPerRecord, ref.ReuseRecord = comma, -1, true
	rr := newRecordReader(strings.NewReader(text), comma)
	for rec := 0; ; rec++ {
		want, wantErr := ref.Read()
		got, gotErr := rr.read()
		require.False(t, (wantErr == nil) != (gotErr == nil) || errors.Is(wantErr, io.EOF) != errors.Is(gotErr, io.EOF), "%q record %d: error %v, encoding/csv %v", text, rec, gotErr, wantErr)
		if wantErr != nil {
			var pw, pg *csv.ParseError
			require.False(t, errors.As(wantErr, &pw) != errors.As(gotErr, &pg) || pw != nil && (pw.Line != pg.Line || pw.StartLine != pg.StartLine || pw.Err != pg.Err), "%q record %d: error %#v, encoding/csv %#v", text, rec, gotErr, wantErr)
			return
		}
		require.Len(t, got, len(want), "%q record %d: %d fields, encoding/csv %d", text, rec, len(got), len(want))
		for j := range want {
			line, _ := ref.FieldPos(j)
			if string(got[j]) != want[j] || rr.fieldLine(j) != line {
				require.Fail(t, fmt.Sprintf("%q record %d field %d: %q on line %d, encoding/csv %q on line %d",
					text, rec, j, got[j], rr.fieldLine(j), want[j], line))
			}
		}
	}
}

var recordCases = []string{
	"", "\n", "a,b\n1,2\n", "a,b\r\n1,2\r\n", "a,b\n1,2", "a,b\n\n\n1,2\n", `"a","b"` + "\n" + `"1","2"`,
	"\"x\ny\",2\n3,4\n", `"a""b",c` + "\n", `a"b,c`, `"a"b,c`, "\"abc", "\"abc\n", "a,\"b\nc\nd\",e\n\"\"\n",
	",,\n", "\"\"\n", "a,b\r", "a;b\n1;\"2;3\"\n", " a , b \n", "a,\"b\"\r\n", "é€,ü\n",
}

func TestRecordReaderMatchesEncodingCSV(t *testing.T) {
	for _, text := range recordCases {
		sameAsEncodingCSV(t, text, ',')
		sameAsEncodingCSV(t, text, ';')
		sameAsEncodingCSV(t, text, '€')
	}
	// Random texts from the characters that matter.
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "1", ",", ";", "\"", "\n", "\r", " ", "€", "\"\""}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		sameAsEncodingCSV(t, b.String(), ',')
		sameAsEncodingCSV(t, b.String(), '€')
	}
}

func FuzzRecordReader(f *testing.F) {
	for _, text := range recordCases {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) { sameAsEncodingCSV(t, text, ',') })
}

// TestReadCSVAllocations: the rows are parsed without an allocation per row.
func TestReadCSVAllocations(t *testing.T) {
	var text strings.Builder
	require.NoError(t, writeLargeCSV(&text, 2000))
	s := text.String()
	perRow := testing.AllocsPerRun(3, func() {
		if _, err := ReadCSV(strings.NewReader(s), CSVConfig{}); err != nil {
			require.Fail(t, fmt.Sprint(err))
		}
	}) / 2000
	// The blocks of the matrix (values doubling from 1 Ki to 32 Ki) and the header's names
	// are the only allocations: far below one per row.
	assert.False(t, perRow > 0.05, "%.3f allocations per row", perRow)
}
