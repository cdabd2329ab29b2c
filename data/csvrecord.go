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
	line, errRead := rr.firstLine()
	if errRead == io.EOF {
		return nil, errRead
	}
	s := recordScan{line: line, errRead: errRead, commaLen: utf8.RuneLen(rr.comma),
		recLine: rr.line, col: 1, posLine: rr.line}
	rr.buf, rr.ends, rr.lines = rr.buf[:0], rr.ends[:0], rr.lines[:0]
	var err error
	for more := true; more && err == nil; {
		if len(s.line) == 0 || s.line[0] != '"' {
			more, err = rr.plainField(&s)
		} else {
			more, err = rr.quotedField(&s)
		}
	}
	if err == nil {
		err = s.errRead
	}
	rr.fields = rr.fields[:0]
	prev := 0
	for _, e := range rr.ends {
		rr.fields = append(rr.fields, rr.buf[prev:e:e])
		prev = e
	}
	return rr.fields, err
}

// firstLine returns the first line of the next record, skipping empty lines, and the error
// of reading it.
func (rr *recordReader) firstLine() ([]byte, error) {
	for {
		line, err := rr.readLine()
		if err == nil && len(line) == lengthNL(line) {
			continue // an empty line
		}
		return line, err
	}
}

// recordScan is the state of splitting one record: the rest of its current line, the error
// of reading the lines, the delimiter's length, and the positions encoding/csv reports: the
// record's first line, the column, and posLine (encoding/csv's pos.line).
type recordScan struct {
	line                  []byte
	errRead               error
	commaLen              int
	recLine, col, posLine int
}

// endField ends the record's current field, begun on line at.
func (rr *recordReader) endField(at int) {
	rr.ends = append(rr.ends, len(rr.buf))
	rr.lines = append(rr.lines, at)
}

// plainField reads an unquoted field at the start of s.line; more reports that a delimiter
// ended it, so another field follows. A quote inside it is csv.ErrBareQuote.
func (rr *recordReader) plainField(s *recordScan) (more bool, err error) {
	i := bytes.IndexRune(s.line, rr.comma)
	field := s.line
	if i >= 0 {
		field = field[:i]
	} else {
		field = field[:len(field)-lengthNL(field)]
	}
	if j := bytes.IndexByte(field, '"'); j >= 0 {
		return false, &csv.ParseError{StartLine: s.recLine, Line: rr.line, Column: s.col + j, Err: csv.ErrBareQuote}
	}
	rr.buf = append(rr.buf, field...)
	rr.endField(s.posLine)
	if i < 0 {
		return false, nil
	}
	s.line = s.line[i+s.commaLen:]
	s.col += i + s.commaLen
	return true, nil
}

// quotedField reads a quoted field, whose opening quote s.line begins with, over as many lines
// as it spans; more reports that a delimiter ended it, so another field follows. Text after
// its closing quote, or the input ending inside it, is csv.ErrQuote.
func (rr *recordReader) quotedField(s *recordScan) (more bool, err error) {
	startLine := s.posLine
	s.line = s.line[1:]
	s.col++
	for {
		i := bytes.IndexByte(s.line, '"')
		switch {
		case i >= 0:
			rr.buf = append(rr.buf, s.line[:i]...)
			s.line = s.line[i+1:]
			s.col += i + 1
			switch rn := nextRune(s.line); {
			case rn == '"': // "" is a quote
				rr.buf = append(rr.buf, '"')
				s.line = s.line[1:]
				s.col++
			case rn == rr.comma: // ", ends the field
				s.line = s.line[s.commaLen:]
				s.col += s.commaLen
				rr.endField(startLine)
				return true, nil
			case lengthNL(s.line) == len(s.line): // "\n ends the record
				rr.endField(startLine)
				return false, nil
			default:
				return false, &csv.ParseError{StartLine: s.recLine, Line: rr.line, Column: s.col - 1, Err: csv.ErrQuote}
			}
		case len(s.line) > 0: // the quoted field goes on on the next line
			rr.buf = append(rr.buf, s.line...)
			if s.errRead != nil {
				return false, nil
			}
			s.col += len(s.line)
			s.line, s.errRead = rr.readLine()
			if len(s.line) > 0 {
				s.posLine++
				s.col = 1
			}
			if s.errRead == io.EOF {
				s.errRead = nil
			}
		default: // the input ends inside quotes
			if s.errRead == nil {
				return false, &csv.ParseError{StartLine: s.recLine, Line: s.posLine, Column: s.col, Err: csv.ErrQuote}
			}
			rr.endField(startLine)
			return false, nil
		}
	}
}

// fieldLine returns the line field j of the last record begins on.
func (rr *recordReader) fieldLine(j int) int { return rr.lines[j] }
