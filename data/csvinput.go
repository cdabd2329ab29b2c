package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rocops/rocops"
)

// Limits of one CSV row that ReadCSV applies unless CSVConfig sets others (see its MaxField,
// MaxLine and MaxColumns).
const (
	defaultMaxField   = 64 << 10 // bytes per field: 64 KiB
	defaultMaxLine    = 16 << 20 // bytes per row, the header included: 16 MiB
	defaultMaxColumns = 1 << 16  // fields per row: 65,536
)

// csvInput is the reader ReadCSV hands to encoding/csv. It drops a leading UTF-8 byte-order
// mark, turns lone CR line endings into LF (encoding/csv only knows LF and CRLF; a CR inside
// quotes is no line ending and stays), and follows
// the CSV structure well enough (quotes, delimiters, row ends) to stop with a *tooLong error
// as soon as a field or a row exceeds its limit, so that encoding/csv, which buffers a whole
// row, never holds more than the limit.
type csvInput struct {
	r        *bufio.Reader
	comma    byte // the delimiter when it is one byte; 0 otherwise (fields are then not told apart)
	maxField int
	maxLine  int
	maxCols  int

	started bool // the byte-order mark has been checked
	lastCR  bool // the previous byte was a CR, passed on as LF
	err     error

	inQuote            bool
	line               int // 1-based line of the next byte
	field              int // 0-based field of the current row
	fieldLen, rowLen   int // bytes of the current field and row so far
	fieldLine, rowLine int // the lines where they began
}

// tooLong reports a field, a row or a number of columns beyond its limit.
type tooLong struct {
	What  string // "field", "row" or "columns"
	Line  int    // where the field or row begins
	Field int    // the 0-based field, for a field
	Limit int
}

func (e *tooLong) Error() string { return "data: " + e.What + " beyond its limit" }

func newCSVInput(r io.Reader, comma rune, maxField, maxLine, maxCols int) *csvInput {
	in := &csvInput{r: bufio.NewReaderSize(r, 64<<10), maxField: maxField, maxLine: maxLine, maxCols: maxCols,
		line: 1, fieldLine: 1, rowLine: 1}
	if comma < utf8.RuneSelf {
		in.comma = byte(comma)
	}
	return in
}

func (in *csvInput) Read(p []byte) (int, error) {
	if in.err != nil {
		return 0, in.err
	}
	if !in.started {
		in.started = true
		if b, err := in.r.Peek(3); err == nil && string(b) == "\ufeff" {
			in.r.Discard(3)
		}
	}
	n, err := in.r.Read(p)
	out := 0
	for _, c := range p[:n] {
		if c == '\n' && in.lastCR { // the LF of a CRLF, already passed on as the CR's LF
			in.lastCR = false
			continue
		}
		// A CR ends a line outside quotes; inside them it is text, as for encoding/csv (which
		// turns a quoted CRLF into LF), so that a field holds the bytes the file spells.
		in.lastCR = c == '\r' && !in.inQuote
		if in.lastCR {
			c = '\n'
		}
		if e := in.step(c); e != nil {
			in.err = e
			return out, e
		}
		p[out] = c
		out++
	}
	if err != nil {
		in.err = err
	}
	return out, err
}

// step follows one byte of the (LF-normalised) text and checks the limits.
func (in *csvInput) step(c byte) error {
	switch {
	case c == '"':
		in.inQuote = !in.inQuote // "" inside quotes toggles twice: still quoted
	case c == '\n':
		in.line++
		if !in.inQuote {
			in.field, in.fieldLen, in.rowLen = 0, 0, 0
			in.fieldLine, in.rowLine = in.line, in.line
			return nil
		}
	case c == in.comma && !in.inQuote:
		in.field++
		in.fieldLen = -1 // the delimiter belongs to no field
		in.fieldLine = in.line
		if in.field >= in.maxCols {
			return &tooLong{What: "columns", Line: in.rowLine, Limit: in.maxCols}
		}
	}
	in.fieldLen++
	in.rowLen++
	switch {
	case in.rowLen > in.maxLine:
		return &tooLong{What: "row", Line: in.rowLine, Limit: in.maxLine}
	case in.comma != 0 && in.fieldLen > in.maxField:
		return &tooLong{What: "field", Line: in.fieldLine, Field: in.field, Limit: in.maxField}
	}
	return nil
}

// TableReader streams the data rows of a CSV under its header by the rules of [ReadCSV], for
// callers that handle each row themselves (deploy.Scorer.ScoreCSV, roctrain -predict) rather
// than load a Dataset: the same limits, the same header checks (no empty or duplicate column
// name), blank lines skipped, every row with exactly the header's number of fields, and the
// same rules for numbers, labels and missing values, reported with the same *CSVError values.
// Unlike ReadCSV it needs no label column and reads only the fields it is asked for.
type TableReader struct {
	rr         *rowReader
	names      []string
	headerLine int
	rec        []string // the current row's fields
	line       int      // the current row's first line
	fields     []string // Encode's fields, reused
}

// NewTableReader reads the header of r; of cfg it uses Comma and the limits. No header is
// rocops.ErrEmpty, an empty or duplicate column name ErrHeader, each a *CSVError.
func NewTableReader(r io.Reader, cfg CSVConfig) (*TableReader, error) {
	if r == nil {
		return nil, &CSVError{Reason: "no input (nil reader)", Err: rocops.ErrEmpty}
	}
	rr := newRowReader(r, cfg)
	header, line, err := rr.read()
	if errors.Is(err, io.EOF) {
		return nil, &CSVError{Reason: "no header row", Err: rocops.ErrEmpty}
	}
	if err != nil {
		return nil, err
	}
	var names []string
	if len(header) == 1 { // parseHeader wants a label besides: the one name alone
		if names = []string{strings.TrimSpace(strings.TrimPrefix(header[0], "\ufeff"))}; names[0] == "" {
			return nil, &CSVError{Line: line, Err: ErrHeader, Reason: "column 1 has no name"}
		}
	} else if names, _, err = parseHeader(header, "", line); err != nil {
		return nil, err
	}
	return &TableReader{rr: rr, names: names, headerLine: line}, nil
}

// HeaderLine returns the line the header starts on.
func (t *TableReader) HeaderLine() int { return t.headerLine }

// Names returns the header's column names, trimmed; the slice must not be changed.
func (t *TableReader) Names() []string { return t.names }

// Next advances to the next data row and returns the line it starts on, or io.EOF after the
// last. A row with another number of fields than the header is ErrMalformed, as is a row beyond
// the limits or with broken quoting ErrTooLong or ErrMalformed; each a *CSVError naming the
// line.
func (t *TableReader) Next() (line int, err error) {
	for {
		rec, line, err := t.rr.read()
		if err != nil {
			t.rec = nil
			return 0, err
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a line of spaces, as blank as an empty one
		}
		if len(rec) != len(t.names) {
			t.rec = nil
			return 0, &CSVError{Line: line, Err: ErrMalformed,
				Reason: fmt.Sprintf("%d fields, the header has %d", len(rec), len(t.names))}
		}
		t.rec, t.line = rec, line
		return line, nil
	}
}

// Feature parses field j of the current row as a feature, and Label as a 0/1 label, by
// ReadCSV's rules: a missing value is ErrMissing, anything but a finite number ErrNotNumber,
// a label other than 0 or 1 rocops.ErrLabel, each a *CSVError naming the line and the column.
func (t *TableReader) Feature(j int) (float64, error) { return t.parse(j, false) }

// Label parses field j of the current row as a 0/1 label; see Feature.
func (t *TableReader) Label(j int) (float64, error) { return t.parse(j, true) }

// Class returns field j of the current row as a class name of a multi-class label column,
// by [ClassName]; its error is a *CSVError naming the line and the column.
func (t *TableReader) Class(j int) (string, error) {
	if t.rec == nil || j < 0 || j >= len(t.rec) {
		return "", &CSVError{Line: t.line, Err: ErrMalformed, Reason: fmt.Sprintf("no field %d in the row", j+1)}
	}
	name, err := ClassName(t.rec[j])
	if err != nil {
		ce := err.(*CSVError)
		ce.Line, _ = t.rr.cr.FieldPos(j)
		ce.Column = t.names[j]
		return "", ce
	}
	return name, nil
}

// Encode appends to dst the features enc gives the current row, whose fields cols are the raw
// columns of enc.Columns, in order ([Encoder.Encode]), and returns it. A field of a numeric
// column that is not a finite number is ErrNotNumber, a *CSVError naming the line and the
// column.
func (t *TableReader) Encode(enc *Encoder, cols []int, dst []float64) ([]float64, error) {
	if t.rec == nil || len(cols) != len(enc.Columns) {
		return dst, &CSVError{Line: t.line, Err: ErrMalformed, Reason: "no row, or not the encoder's columns"}
	}
	t.fields = t.fields[:0]
	for _, j := range cols {
		if j < 0 || j >= len(t.rec) {
			return dst, &CSVError{Line: t.line, Err: ErrMalformed, Reason: fmt.Sprintf("no field %d in the row", j+1)}
		}
		t.fields = append(t.fields, t.rec[j])
	}
	out, err := enc.Encode(dst, t.fields)
	if ce, ok := err.(*CSVError); ok {
		k := slices.IndexFunc(enc.Columns, func(c EncodedColumn) bool { return c.Name == ce.Column })
		ce.Line, ce.Column = t.line, t.names[cols[max(k, 0)]]
		if k >= 0 {
			ce.Line, _ = t.rr.cr.FieldPos(cols[k])
		}
	}
	return out, err
}

// ClassName returns a field of a multi-class label column as ReadCSV reads its class name:
// trimmed of spaces, as written otherwise. An empty field or a missing-value marker (NA, N/A,
// NaN, null or ?, in any case) is ErrMissing, a *CSVError without a line or column.
func ClassName(field string) (string, error) {
	s := strings.TrimSpace(field)
	if s == "" || isMissing(s) {
		_, ce := parseField(field, true)
		return "", ce
	}
	return s, nil
}

func (t *TableReader) parse(j int, isLabel bool) (float64, error) {
	if t.rec == nil || j < 0 || j >= len(t.rec) {
		return 0, &CSVError{Line: t.line, Err: ErrMalformed, Reason: fmt.Sprintf("no field %d in the row", j+1)}
	}
	v, ce := parseField(t.rec[j], isLabel)
	if ce != nil {
		ce.Line, _ = t.rr.cr.FieldPos(j)
		ce.Column = t.names[j]
		return 0, ce
	}
	return v, nil
}
