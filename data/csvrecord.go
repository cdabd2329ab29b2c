package data

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"unicode/utf8"
)

// recordReader splits CSV text into records exactly as encoding/csv's Reader does with
// ReuseRecord, FieldsPerRecord = −1 and no LazyQuotes, TrimLeadingSpace or Comment (its
// readRecord, ported), but hands out each field as bytes of one reused buffer instead of
// allocating a string per record: ReadCSV parses the numbers from those bytes, so loading
// allocates nothing per row. Its errors are encoding/csv's: a *csv.ParseError wrapping
// csv.ErrBareQuote or csv.ErrQuote, or the reader's own error.
type recordReader struct {
	r      *bufio.Reader
	comma  rune
	line   int    // lines read
	raw    []byte // a line longer than the bufio buffer
	buf    []byte // the record's unquoted fields, concatenated
	ends   []int  // the end of each field in buf
	lines  []int  // the line each field begins on
	fields [][]byte
}

// errInvalidDelim is encoding/csv's error for a delimiter it cannot use.
var errInvalidDelim = errors.New("csv: invalid field or comment delimiter")

func newRecordReader(r io.Reader, comma rune) *recordReader {
	return &recordReader{r: bufio.NewReader(r), comma: comma}
}

// readLine returns the next line, its CRLF normalised to LF, as encoding/csv reads it.
func (rr *recordReader) readLine() ([]byte, error) {
	line, err := rr.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		rr.raw = append(rr.raw[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = rr.r.ReadSlice('\n')
			rr.raw = append(rr.raw, line...)
		}
		line = rr.raw
	}
	if n := len(line); n > 0 && err == io.EOF {
		err = nil
		if line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	rr.line++
	if n := len(line); n >= 2 && line[n-2] == '\r' && line[n-1] == '\n' {
		line[n-2] = '\n'
		line = line[:n-1]
	}
	return line, err
}

// lengthNL is 1 if b ends in a newline, else 0.
func lengthNL(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return 1
	}
	return 0
}

// nextRune returns the first rune of b, or utf8.RuneError.
func nextRune(b []byte) rune {
	r, _ := utf8.DecodeRune(b)
	return r
}

// read returns the next record's fields, valid until the next call. At the end of the input
// it returns io.EOF.
func (rr *recordReader) read() ([][]byte, error) {
	if c := rr.comma; c == 0 || c == '"' || c == '\r' || c == '\n' || !utf8.ValidRune(c) || c == utf8.RuneError {
		return nil, errInvalidDelim
	}
	var line []byte
	var errRead error
	for errRead == nil {
		line, errRead = rr.readLine()
		if errRead == nil && len(line) == lengthNL(line) {
			line = nil
			continue // an empty line
		}
		break
	}
	if errRead == io.EOF {
		return nil, errRead
	}
	var err error
	commaLen := utf8.RuneLen(rr.comma)
	recLine, col, posLine := rr.line, 1, rr.line // posLine is encoding/csv's pos.line
	rr.buf, rr.ends, rr.lines = rr.buf[:0], rr.ends[:0], rr.lines[:0]
	end := func(at int) {
		rr.ends = append(rr.ends, len(rr.buf))
		rr.lines = append(rr.lines, at)
	}
parseField:
	for {
		if len(line) == 0 || line[0] != '"' {
			i := bytes.IndexRune(line, rr.comma)
			field := line
			if i >= 0 {
				field = field[:i]
			} else {
				field = field[:len(field)-lengthNL(field)]
			}
			if j := bytes.IndexByte(field, '"'); j >= 0 {
				err = &csv.ParseError{StartLine: recLine, Line: rr.line, Column: col + j, Err: csv.ErrBareQuote}
				break parseField
			}
			rr.buf = append(rr.buf, field...)
			end(posLine)
			if i >= 0 {
				line = line[i+commaLen:]
				col += i + commaLen
				continue parseField
			}
			break parseField
		}
		startLine := posLine
		line = line[1:]
		col++
		for {
			i := bytes.IndexByte(line, '"')
			switch {
			case i >= 0:
				rr.buf = append(rr.buf, line[:i]...)
				line = line[i+1:]
				col += i + 1
				switch rn := nextRune(line); {
				case rn == '"': // "" is a quote
					rr.buf = append(rr.buf, '"')
					line = line[1:]
					col++
				case rn == rr.comma: // ", ends the field
					line = line[commaLen:]
					col += commaLen
					end(startLine)
					continue parseField
				case lengthNL(line) == len(line): // "\n ends the record
					end(startLine)
					break parseField
				default:
					err = &csv.ParseError{StartLine: recLine, Line: rr.line, Column: col - 1, Err: csv.ErrQuote}
					break parseField
				}
			case len(line) > 0: // the quoted field goes on on the next line
				rr.buf = append(rr.buf, line...)
				if errRead != nil {
					break parseField
				}
				col += len(line)
				line, errRead = rr.readLine()
				if len(line) > 0 {
					posLine++
					col = 1
				}
				if errRead == io.EOF {
					errRead = nil
				}
			default: // the input ends inside quotes
				if errRead == nil {
					err = &csv.ParseError{StartLine: recLine, Line: posLine, Column: col, Err: csv.ErrQuote}
					break parseField
				}
				end(startLine)
				break parseField
			}
		}
	}
	if err == nil {
		err = errRead
	}
	rr.fields = rr.fields[:0]
	prev := 0
	for _, e := range rr.ends {
		rr.fields = append(rr.fields, rr.buf[prev:e:e])
		prev = e
	}
	return rr.fields, err
}

// fieldLine returns the line field j of the last record begins on.
func (rr *recordReader) fieldLine(j int) int { return rr.lines[j] }
