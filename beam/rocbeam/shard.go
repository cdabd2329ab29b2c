package rocbeam

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
)

// Errors of bad input. A pipeline fails with a message that starts with one of them and says
// where: the file, and for a bad row its line and column. (Runners pass a failure on as text,
// so it is the message, not the value, that reaches the caller of beam.Run.)
var (
	ErrEmpty   = errors.New("rocbeam: no rows")
	ErrHeader  = errors.New("rocbeam: bad header")
	ErrColumns = errors.New("rocbeam: shards have different columns")
	ErrRow     = errors.New("rocbeam: bad row")
)

// A RowError says which file and line hold a bad row and what is wrong with it, as
//
//	rocbeam: bad row: scored-3.csv: line 17, column "score": "abc" is not a finite number
type RowError struct {
	File   string
	Line   int    // 1-based; the header is line 1
	Column string // "" when the whole row is at fault
	Reason string
}

func (e *RowError) Error() string {
	where := fmt.Sprintf("%s: line %d", e.File, e.Line)
	if e.Column != "" {
		where += fmt.Sprintf(", column %q", e.Column)
	}
	return fmt.Sprintf("%v: %s: %s", ErrRow, where, e.Reason)
}

// Unwrap returns ErrRow.
func (e *RowError) Unwrap() error { return ErrRow }

// shard reads one CSV file row by row: a header naming the columns, then one row per example,
// every row with as many fields as the header. Blank lines are skipped, spaces around a field
// ignored.
type shard struct {
	path   string
	rc     io.ReadCloser
	r      *csv.Reader
	header []string
	row    []string
}

// openRead opens file for reading on the file system its scheme names, decompressing it
// when its name ends in .gz.
func openRead(ctx context.Context, file fileio.FileMetadata) (io.ReadCloser, error) {
	rc, err := fileio.ReadableFile{Metadata: file}.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("rocbeam: %s: %w", file.Path, err)
	}
	return rc, nil
}

// cleanHeader trims the column names of a header row in place, and a byte-order mark before
// the first, and returns them.
func cleanHeader(names []string) []string {
	for i, h := range names {
		names[i] = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
	}
	return names
}

// openShard opens file and reads its header.
func openShard(ctx context.Context, file fileio.FileMetadata) (*shard, error) {
	path := file.Path
	rc, err := openRead(ctx, file)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(rc)
	r.ReuseRecord = true
	r.TrimLeadingSpace = true
	s := &shard{path: path, rc: rc, r: r}
	header, err := r.Read()
	if err != nil {
		rc.Close()
		if err == io.EOF {
			return nil, fmt.Errorf("%w: %s has no header row", ErrEmpty, path)
		}
		return nil, s.readError(err)
	}
	s.header = cleanHeader(slices.Clone(header))
	seen := map[string]bool{}
	for _, h := range s.header {
		if seen[h] {
			rc.Close()
			return nil, fmt.Errorf("%w: %s: column %q appears twice", ErrHeader, path, h)
		}
		seen[h] = true
	}
	return s, nil
}

// Close closes the file.
func (s *shard) Close() error { return s.rc.Close() }

// column returns the index of the column called name, or an ErrHeader error naming the file
// and the columns it has.
func (s *shard) column(name string) (int, error) {
	for i, h := range s.header {
		if h == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%w: %s has no column %q (its columns: %s)", ErrHeader, s.path, name, strings.Join(s.header, ","))
}

// next reads the next row into s.row; it returns false at the end of the file, with a nil
// error, or on a malformed row, with a RowError.
func (s *shard) next() (bool, error) {
	row, err := s.r.Read()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, s.readError(err)
	}
	s.row = row
	return true, nil
}

// line returns the line where field i of the current row starts.
func (s *shard) line(i int) int {
	line, _ := s.r.FieldPos(i)
	return line
}

// readError turns a CSV reading error into a RowError naming its line.
func (s *shard) readError(err error) error {
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		reason := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			reason = fmt.Sprintf("%v (the header has %d)", reason, len(s.header))
		}
		return &RowError{File: s.path, Line: pe.Line, Reason: reason}
	}
	return fmt.Errorf("rocbeam: %s: %w", s.path, err)
}

// number parses field i of the current row as a finite float64.
func (s *shard) number(i int) (float64, error) {
	f := strings.TrimSpace(s.row[i])
	x, err := strconv.ParseFloat(f, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, &RowError{File: s.path, Line: s.line(i), Column: s.header[i], Reason: fmt.Sprintf("%q is not a finite number", clip(f))}
	}
	return x, nil
}

// label parses field i of the current row as a label, 0 or 1 ("1.0" is accepted).
func (s *shard) label(i int) (int, error) {
	f := strings.TrimSpace(s.row[i])
	x, err := strconv.ParseFloat(f, 64)
	if err != nil || (x != 0 && x != 1) {
		return 0, &RowError{File: s.path, Line: s.line(i), Column: s.header[i], Reason: fmt.Sprintf("label %q is not 0 or 1", clip(f))}
	}
	return int(x), nil
}

// clip shortens a bad value quoted in a message to 40 bytes.
func clip(f string) string {
	if len(f) > 40 {
		return f[:40] + "…"
	}
	return f
}
