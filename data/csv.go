package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/floats"
)

// Errors about CSV input. Each is wrapped in a [*CSVError] saying where it happened. An empty
// file, a bad label and a label column of one class are the module's shared
// [rocops.ErrEmpty], [rocops.ErrLabel] and [rocops.ErrOneClass]; a finite feature beyond
// float32's range (magnitude above about 3.4e38, rounding to ±Inf in float32) in input read
// with CSVConfig.Float32 is [rocops.ErrRange]; a bad list of label columns is
// [rocops.ErrConfig].
var (
	// ErrMalformed reports text that is not CSV: broken quoting, or a row with another number
	// of fields than the header.
	ErrMalformed = errors.New("data: malformed CSV")
	ErrHeader    = errors.New("data: bad header")
	// ErrMissing reports a missing value: an empty field or a marker such as NA (see
	// [ReadCSV]), or a null in Parquet, where none is allowed (a label; a feature unless
	// CSVConfig.Missing reads it for an [Encoder] to impute).
	ErrMissing   = errors.New("data: missing value")
	ErrNotNumber = errors.New("data: not a finite number")
	// ErrTooLong reports a field or a row longer, or a row of more fields, than CSVConfig's
	// limits.
	ErrTooLong = errors.New("data: field or row too long")
)

// A CSVError reports bad CSV input: where it is and what is wrong. It wraps one of the
// package's Err values (Err), so errors.Is(err, ErrNotNumber) works on it, and errors.As
// gives the line and column. When reading itself fails, Err is the reader's error (such as
// a file system error), which errors.Is reaches.
type CSVError struct {
	File   string // the file name given to LoadCSV; "" for ReadCSV
	Line   int    // 1-based line where the offending field (or row) begins; 0 when no single line is at fault
	Column string // name of the offending column; "" when the whole row is at fault
	Reason string // what is wrong, e.g. `"abc" is not a number`
	Err    error  // one of the package's Err values, or the reader's error
}

// Error formats e as, for example,
//
//	data: train.csv: line 17, column "mean_radius": "abc" is not a number
func (e *CSVError) Error() string {
	var b strings.Builder
	b.WriteString("data: ")
	if e.File != "" {
		b.WriteString(e.File + ": ")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d", e.Line)
		if e.Column != "" {
			fmt.Fprintf(&b, ", column %q", e.Column)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// Unwrap returns the Err value e wraps.
func (e *CSVError) Unwrap() error { return e.Err }

// CSVConfig says how to read a CSV input. The zero value reads comma-separated numeric values
// with the label in the column named label, y, class or target, when exactly one is, else the
// last column.
type CSVConfig struct {
	// Label is the name of the label column; "" means the one column named label, y, class or
	// target (in any case) when exactly one is, else the last column.
	Label string
	// Positive names the positive class of a two-valued label column, such as "Yes" or "M": its
	// rows get the label 1 and the other value's 0, and Dataset.LabelValues records both. ""
	// reads a binary label column only as 0 and 1 (the numbers, or true and false in any
	// case): two other values are rocops.ErrLabel, naming both and this field. A Positive that
	// is not a value of the column, or a column of more than two values, is rocops.ErrLabel.
	Positive string
	// Text reads a feature column holding a value that is not a number as a text (categorical)
	// column, its values levels (Dataset.Levels), for an [Encoder]; a number in such a column is
	// the level of its shortest float32 spelling. false = every feature value must be a number
	// (ErrNotNumber).
	Text bool
	// Missing reads a missing feature value (an empty field, NA, N/A, NaN, null or ?, in any
	// case; a null or NaN in Parquet) as NaN, for an [Encoder] to impute. false = ErrMissing.
	// A missing label is ErrMissing either way.
	Missing bool
	// Like, when not nil, reads the validation or test part of Like's table, a raw or numeric
	// dataset read with the same settings (its training part, or the whole of it): the file must
	// have Like's feature columns in Like's order and its label column (ErrHeader naming the
	// header line and the first column that differs), each column of Like's kind (a text value
	// in a column numeric in Like is ErrNotNumber, naming its line and column), and label values
	// among Like's (its Classes or LabelValues, or 0/1; another is rocops.ErrLabel naming its line
	// and column), which are then the labels' indices; Label, Labels and Positive are then Like's.
	// The classes need not all be present, nor have MinClassRows rows.
	Like *Dataset
	// Labels, when not empty, names the 0/1 label columns of a multi-label dataset, in the
	// order of the dataset's Labels (see [ReadCSV]); Label must then be "". nil = one label
	// column (Label). [ParseLabelList] reads a comma-separated list of them.
	Labels []string
	// Comma is the field delimiter; 0 means ','.
	Comma rune
	// MaxField and MaxLine bound the bytes of one field and of one row (for a quoted field
	// spanning several lines, all of them, the header included), MaxColumns the fields of a
	// row; 0 means 64 KiB, 16 MiB and 65,536, and so does a negative value. A longer field or
	// row stops reading with ErrTooLong. With a delimiter of more than one byte only MaxLine
	// applies. A number needs a few dozen bytes, so real data stay far below the defaults;
	// they bound what a broken or hostile input (a file without newlines, an unterminated
	// quote, a row of nothing but delimiters) can make ReadCSV hold in memory: about
	// 3×MaxLine bytes of text plus 80 bytes per column.
	MaxField, MaxLine, MaxColumns int
	// Float32 stores the features in float32 (Dataset.X32, half the memory) instead of
	// float64 (Dataset.X): for a float32 model, which rounds its input to float32 anyway.
	// Each value is parsed as a float64 and rounded to the nearest float32, as a float32
	// model rounds a float64 feature, so a float32 model trains on the same numbers either
	// way; a finite value beyond float32's range is [rocops.ErrRange], naming its line and column.
	// false (the zero value) = float64. [LoadParquet] stores a Parquet file's features the
	// same way, a value beyond float32's range there being rocops.ErrRange naming its column and row.
	Float32 bool
	// Progress, when not nil, is called while loading with the rows and the bytes of input
	// read so far: every 65,536 rows of a CSV and after every row group of a Parquet file, and
	// once when the input ends; nil = silent.
	Progress func(rows int, bytes int64)
}

// LoadCSV reads the CSV file at path; see [ReadCSV]. Its CSV errors name the file. It first
// counts the file's lines, so that the numbers are parsed straight into a matrix of their
// final size: loading holds the numbers once, not twice.
func LoadCSV(path string, cfg CSVConfig) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	defer f.Close()
	lines, err := countLines(f)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	ds, err := readCSV(f, cfg, lines)
	if ce, ok := errors.AsType[*CSVError](err); ok {
		ce.File = path
	}
	return ds, err
}

// countLines returns an upper bound on the rows of the file f after its header, the number
// of its LF bytes (CR bytes for a file without any) plus one, and rewinds f.
func countLines(f *os.File) (int, error) {
	buf := make([]byte, 1<<20)
	var lf, cr int
	for {
		n, err := f.Read(buf)
		lf += bytes.Count(buf[:n], []byte{'\n'})
		cr += bytes.Count(buf[:n], []byte{'\r'})
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if lf == 0 {
		lf = cr
	}
	_, err := f.Seek(0, io.SeekStart)
	return lf + 1, err
}

// ReadCSV reads a dataset from CSV text: a header row naming the columns, then one row per
// example. The label column is cfg.Label (by default the one column named label, y, class or
// target, in any case, when exactly one is, else the last column) and every other column is a
// feature, in the order of the header. Lines are ended by LF, CRLF or CR; a
// leading UTF-8 byte-order mark is dropped; blank lines (empty or only spaces) are skipped
// and spaces around a field are ignored.
//
// Every field must hold a finite number in Go's syntax (strconv.ParseFloat). A label column of the
// numbers 0 and 1 ("1.0" is accepted) is binary; one of more than two distinct values, numbers or
// text, is multi-class: Classes holds them sorted (by value if all are numbers, else by text) and Y
// their indices, and a class of fewer than [MinClassRows] rows ([ErrClassTooSmall]) or more than
// [MaxClasses] classes ([ErrTooManyClasses]) is an error naming its line. An empty field and the
// usual missing-value markers NA, N/A, NaN, null and ? (in any case) are reported as missing
// ([ErrMissing]) unless cfg.Missing reads them as NaN, and a feature that is not a number is
// [ErrNotNumber] unless cfg.Text reads its column as text (see [CSVConfig]: a raw dataset, for
// an [Encoder]). A label column of true and false (in any case) is binary, true the positive
// class; one of two other values needs cfg.Positive (else rocops.ErrLabel naming both). Other errors are a wrong number of fields
// ([ErrMalformed]), a value that is not a finite number ([ErrNotNumber]), one or two label values
// other than 0 and 1 ([rocops.ErrLabel]), a bad header such as a duplicate column name ([ErrHeader]), no
// header or no data rows ([rocops.ErrEmpty]), a single class ([rocops.ErrOneClass]), broken quoting
// ([ErrMalformed]) and a field, row or number of columns beyond the limits of cfg ([ErrTooLong]);
// each is a [*CSVError] naming the line and column. With cfg.Labels the dataset is multi-label:
// those columns, each of the numbers 0 and 1 and holding both, are its Labels, Y holds them row
// by row in cfg.Labels' order, and the other columns are the features; a label column that is
// missing ([ErrHeader]), holds another value ([rocops.ErrLabel], naming its line and column) or one
// value only ([rocops.ErrOneClass]) is an error naming it, as is a bad list ([rocops.ErrConfig]). Messages
// quote at most the first 40 bytes of a bad value. A failure of r itself is a *CSVError
// wrapping r's error. A nil r is rocops.ErrEmpty.
//
// The input is streamed: memory holds the parsed numbers and at most one row of text, never
// more than cfg.MaxLine bytes of it. The rows are split as encoding/csv splits them (the same
// quoting rules and errors) but parsed from one reused buffer: nothing is allocated per row.
func ReadCSV(r io.Reader, cfg CSVConfig) (*Dataset, error) {
	if r == nil {
		return nil, &CSVError{Reason: "no input (nil reader)", Err: rocops.ErrEmpty}
	}
	return readCSV(r, cfg, 0)
}

// progressEvery is the number of rows between two calls of CSVConfig.Progress.
const progressEvery = 1 << 16

// readCSV is ReadCSV with the expected number of rows, an upper bound, 0 if unknown: the
// numbers then go into one matrix of that size.
func readCSV(r io.Reader, cfg CSVConfig, rows int) (*Dataset, error) {
	in := &countingReader{r: r}
	cr := newRecordReader(boundedInput(in, cfg))
	fields, err := cr.read()
	switch {
	case errors.Is(err, io.EOF):
		return nil, &CSVError{Reason: "no header row", Err: rocops.ErrEmpty}
	case err != nil:
		return nil, readError(err, nil)
	}
	header := make([]string, len(fields))
	for j, f := range fields {
		header[j] = string(f)
	}
	cfg = cfg.withLike()
	if len(cfg.Labels) > 0 {
		return readMultilabel(cr, in, cfg, header, rows)
	}
	names, label, err := parseHeader(header, cfg.Label, cr.fieldLine(0))
	if err != nil {
		return nil, err
	}
	ds := &Dataset{
		Cols:         len(names) - 1,
		FeatureNames: slices.Delete(slices.Clone(names), label, label+1),
		LabelName:    names[label],
	}
	if err := cfg.checkLike(ds.FeatureNames, cr.fieldLine(0)); err != nil {
		return nil, err
	}
	likeLabels := cfg.likeLabelMap()
	b := newCSVBody(cr, in, cfg, names, ds, rows, 1)
	var labels labelColumn
	for {
		record, ok, err := b.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		for j, field := range record {
			var v float64
			var perr *CSVError
			switch {
			case j == label && likeLabels != nil:
				v, perr = likeLabels.value(field)
			case j == label:
				v, perr = labels.parse(field, cr.fieldLine(j))
			case b.raw != nil:
				v, perr = b.raw.parse(j-btoi(j > label), field, b.recode)
			default:
				v, perr = parseBytes(field, false)
			}
			if perr != nil {
				return nil, b.fieldError(perr, j)
			}
			if j == label {
				b.y.add(v)
			} else if err := b.feature(v, field, j); err != nil {
				return nil, err
			}
		}
		b.endRow()
	}
	if err := b.finish(); err != nil {
		return nil, err
	}
	if cfg.Like != nil {
		return ds, cfg.likeLabels(ds)
	}
	if ds.Classes, ds.LabelValues, err = labels.finish(ds.Y, ds.LabelName, cfg.Positive); err != nil {
		return nil, err
	}
	return ds, nil
}

// withLike is cfg with the label columns of cfg.Like, when set: its label column or its
// label columns, and no Positive (Like's classes say which is positive).
func (cfg CSVConfig) withLike() CSVConfig {
	if like := cfg.Like; like != nil {
		cfg.Label, cfg.Labels, cfg.Positive = like.LabelName, like.Labels, ""
		if like.Labels != nil {
			cfg.Label = ""
		}
	}
	return cfg
}

// likeLabelMap is the map of cfg.Like's label values to their classes, nil without Like.
func (cfg CSVConfig) likeLabelMap() *labelMap {
	if cfg.Like == nil {
		return nil
	}
	m := &labelMap{values: cfg.Like.Classes}
	if cfg.Like.LabelValues != nil {
		m.values = cfg.Like.LabelValues
	}
	return m
}

// csvBody reads the data rows of a CSV after its header, for readCSV and readMultilabel: it
// skips blank lines, checks each row's number of fields, collects the features (read by raw
// when cfg needs raw columns) and the label values, counts the rows into ds and reports
// progress. The caller parses each field and adds it to y or by feature.
type csvBody struct {
	cr    *recordReader
	in    *countingReader
	cfg   CSVConfig
	names []string // the header's columns
	ds    *Dataset
	raw   *rawReader // nil unless cfg.needsRaw()
	x     featureBlocks
	y     blocks
}

// newCSVBody is the csvBody of ds, whose header is names, for rows expected rows (an upper
// bound, 0 if unknown) of perRow label values each.
func newCSVBody(cr *recordReader, in *countingReader, cfg CSVConfig, names []string, ds *Dataset, rows, perRow int) csvBody {
	b := csvBody{cr: cr, in: in, cfg: cfg, names: names, ds: ds, x: featureBlocks{f32: cfg.Float32}}
	if cfg.needsRaw() {
		b.raw = newRawReader(cfg, ds.Cols)
	}
	if rows > 0 {
		b.x.reserve(rows * ds.Cols)
		b.y.reserve(rows * perRow)
	}
	return b
}

// recode applies f to the values read of feature k, for raw.parse.
func (b *csvBody) recode(k int, f func(float64) float64) { b.x.recode(k, b.ds.Cols, f) }

// next returns the fields of the next data row, valid until the next call, skipping lines of
// spaces (as blank as empty ones); false at the end of the input. A row of another number of
// fields than the header is ErrMalformed.
func (b *csvBody) next() ([][]byte, bool, error) {
	for {
		record, err := b.cr.read()
		if errors.Is(err, io.EOF) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, readError(err, b.names)
		}
		if len(record) == 1 && len(bytes.TrimSpace(record[0])) == 0 {
			continue // a line of spaces, as blank as an empty one
		}
		if len(record) != len(b.names) {
			return nil, false, &CSVError{Line: b.cr.fieldLine(0), Err: ErrMalformed,
				Reason: fmt.Sprintf("%d fields, the header has %d", len(record), len(b.names))}
		}
		return record, true, nil
	}
}

// fieldError is err, the error of field j of the current row, naming its line and column.
func (b *csvBody) fieldError(err *CSVError, j int) *CSVError {
	err.Line, err.Column = b.cr.fieldLine(j), b.names[j]
	return err
}

// feature adds v, the value of field j of the current row, to the features; a value beyond
// float32's range with cfg.Float32 is rocops.ErrRange.
func (b *csvBody) feature(v float64, field []byte, j int) error {
	if !b.x.add(v) {
		return b.x.rangeError(field, b.cr.fieldLine(j), b.names[j])
	}
	return nil
}

// endRow counts a row read, calling cfg.Progress every progressEvery rows.
func (b *csvBody) endRow() {
	b.ds.Rows++
	if b.cfg.Progress != nil && b.ds.Rows%progressEvery == 0 {
		b.cfg.Progress(b.ds.Rows, b.in.n)
	}
}

// finish calls cfg.Progress a last time and stores the features and label values in ds; no
// data rows is rocops.ErrEmpty.
func (b *csvBody) finish() error {
	if b.cfg.Progress != nil {
		b.cfg.Progress(b.ds.Rows, b.in.n)
	}
	if b.ds.Rows == 0 {
		return &CSVError{Reason: "no data rows after the header", Err: rocops.ErrEmpty}
	}
	b.x.store(b.ds)
	if b.raw != nil {
		b.raw.store(b.ds)
	}
	b.ds.Y = b.y.concat()
	return nil
}

// checkLike checks that features, the feature columns of a file read with cfg.Like, are
// Like's, in order; line is the header's line.
func (cfg CSVConfig) checkLike(features []string, line int) error {
	like := cfg.Like
	if like == nil || slices.Equal(features, like.FeatureNames) {
		return nil
	}
	for j, name := range features {
		switch {
		case j >= len(like.FeatureNames):
			return &CSVError{Line: line, Column: name, Err: ErrHeader, Reason: "a column the training data does not have"}
		case name != like.FeatureNames[j]:
			reason := fmt.Sprintf("feature %d is %q where the training data has %q", j+1, name, like.FeatureNames[j])
			if !slices.Contains(like.FeatureNames, name) {
				reason = fmt.Sprintf("feature %d is %q, a column the training data does not have (it has %q there)", j+1, name, like.FeatureNames[j])
			}
			return &CSVError{Line: line, Column: name, Err: ErrHeader, Reason: reason + ": the columns must be the training data's, in its order"}
		}
	}
	return &CSVError{Line: line, Err: ErrHeader,
		Reason: fmt.Sprintf("no column %q, feature %d of the training data: the columns must be the training data's, in its order", like.FeatureNames[len(features)], len(features)+1)}
}

// likeLabels completes ds, read with cfg.Like, with Like's classes or label values; a binary
// file of one class is rocops.ErrOneClass.
func (cfg CSVConfig) likeLabels(ds *Dataset) error {
	ds.Classes, ds.LabelValues = slices.Clone(cfg.Like.Classes), slices.Clone(cfg.Like.LabelValues)
	if ds.Classes == nil && ds.Labels == nil {
		if n := ds.Positives(); n == 0 || n == ds.Rows {
			return &CSVError{Column: ds.LabelName, Err: rocops.ErrOneClass,
				Reason: fmt.Sprintf("label column %q: all %d rows have label %d; both classes are needed", ds.LabelName, ds.Rows, min(n, 1))}
		}
	}
	return nil
}

// parseHeader returns the column names of header, trimmed, and the index of the label
// column; line is the header's line, for errors.
func parseHeader(header []string, label string, line int) ([]string, int, error) {
	if len(header) < 2 {
		return nil, 0, &CSVError{Line: line, Err: ErrHeader,
			Reason: "only one column; need a label and at least one feature"}
	}
	names := make([]string, len(header))
	seen := make(map[string]bool, len(header))
	for j, name := range header {
		if j == 0 {
			name = strings.TrimPrefix(name, "\ufeff") // a byte-order mark, as spreadsheets write
		}
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, 0, &CSVError{Line: line, Err: ErrHeader, Reason: fmt.Sprintf("column %d has no name", j+1)}
		}
		if seen[name] {
			return nil, 0, &CSVError{Line: line, Column: name, Err: ErrHeader, Reason: "duplicate column name"}
		}
		seen[name] = true
		names[j] = name
	}
	if label == "" {
		return names, defaultLabel(names), nil
	}
	if j := slices.Index(names, label); j >= 0 {
		return names, j, nil
	}
	return nil, 0, &CSVError{Line: line, Err: ErrHeader, Reason: fmt.Sprintf("no label column %q", label)}
}

// defaultLabel returns the label column of names when none is named: the one column named
// label, y, class or target (in any case) when exactly one is, else the last column.
func defaultLabel(names []string) int {
	found := -1
	for j, n := range names {
		switch strings.ToLower(n) {
		case "label", "y", "class", "target":
			if found >= 0 {
				return len(names) - 1
			}
			found = j
		}
	}
	if found < 0 {
		return len(names) - 1
	}
	return found
}

// parseField parses one field as a feature or, if isLabel, as a 0/1 label. The error it
// returns lacks the line and column, which the caller knows.
func parseField(field string, isLabel bool) (float64, *CSVError) {
	s := strings.TrimSpace(field)
	if s == "" {
		return 0, &CSVError{Err: ErrMissing, Reason: "missing value (empty field)"}
	}
	if isMissing(s) {
		return 0, &CSVError{Err: ErrMissing, Reason: fmt.Sprintf("missing value %q", field)}
	}
	v, err := strconv.ParseFloat(s, 64)
	if isLabel && err != nil {
		switch strings.ToLower(s) {
		case "true":
			return 1, nil
		case "false":
			return 0, nil
		}
	}
	switch {
	case isLabel && (err != nil || (v != 0 && v != 1)):
		return 0, &CSVError{Err: rocops.ErrLabel, Reason: quote(field) + " is not a label (want 0 or 1)"}
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, &CSVError{Err: ErrNotNumber, Reason: quote(field) + " is not a number"}
	case err != nil || math.IsInf(v, 0):
		return 0, &CSVError{Err: ErrNotNumber, Reason: quote(field) + " is not a finite number"}
	}
	return v, nil
}

// parseBytes is parseField of a field's bytes. Its common case, a finite number (and a 0 or
// 1 label), allocates nothing: the conversion to a string for strconv.ParseFloat, which does
// not keep it, stays on the stack. Anything else goes to parseField for its error.
func parseBytes(field []byte, isLabel bool) (float64, *CSVError) {
	v, err := strconv.ParseFloat(string(bytes.TrimSpace(field)), 64)
	if err == nil && v-v == 0 && (!isLabel || v == 0 || v == 1) {
		return v, nil
	}
	return parseField(string(field), isLabel)
}

// maxQuoted is the most bytes of a value an error message quotes.
const maxQuoted = 40

// quote returns s quoted, cut to its first maxQuoted bytes (at a character boundary) with its
// length when it is longer.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// isMissing reports whether s (trimmed) is a common missing-value marker.
func isMissing(s string) bool {
	switch strings.ToLower(s) {
	case "na", "n/a", "nan", "null", "?":
		return true
	}
	return false
}

// boundedReader returns a csv.Reader of r with cfg's delimiter and limits (defaults filled
// in), its records reused and their field counts left to the caller to check.
func boundedReader(r io.Reader, cfg CSVConfig) *csv.Reader {
	in, comma := boundedInput(r, cfg)
	cr := csv.NewReader(in)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1 // checked by the callers, to name the line in their own words
	cr.Comma = comma
	return cr
}

// boundedInput returns r as a csvInput with cfg's delimiter and limits, defaults filled in,
// and the delimiter.
func boundedInput(r io.Reader, cfg CSVConfig) (io.Reader, rune) {
	maxField, maxLine, maxCols := cfg.MaxField, cfg.MaxLine, cfg.MaxColumns
	if maxField <= 0 {
		maxField = defaultMaxField
	}
	if maxLine <= 0 {
		maxLine = defaultMaxLine
	}
	if maxCols <= 0 {
		maxCols = defaultMaxColumns
	}
	comma := cfg.Comma
	if comma == 0 {
		comma = ','
	}
	return newCSVInput(r, comma, maxField, maxLine, maxCols), comma
}

// rowReader streams the rows of a CSV with the limits and error reporting of [ReadCSV], for
// [TableReader]. Its first row is the header.
type rowReader struct {
	cr    *csv.Reader
	names []string // the header's fields, trimmed, once read
}

// newRowReader returns a rowReader of r; of cfg it uses Comma and the limits.
func newRowReader(r io.Reader, cfg CSVConfig) *rowReader {
	return &rowReader{cr: boundedReader(r, cfg)}
}

// read returns the next row's fields, valid until the next call, and the line it starts on.
// At the end of the input it returns io.EOF; a row beyond the limits or with broken quoting
// is a [*CSVError] (ErrTooLong, ErrMalformed) naming its line, and a failure of the reader a
// *CSVError wrapping it. The caller checks the fields' number and values.
func (rr *rowReader) read() (fields []string, line int, err error) {
	rec, err := rr.cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, 0, io.EOF
	}
	if err != nil {
		return nil, 0, readError(err, rr.names)
	}
	if rr.names == nil {
		rr.names = make([]string, len(rec))
		for j, f := range rec {
			rr.names[j] = strings.TrimSpace(f)
		}
	}
	line, _ = rr.cr.FieldPos(0)
	return rec, line, nil
}

// readError turns an error of the csv reader into a *CSVError: a syntax error of
// encoding/csv (which names its line) is ErrMalformed, a field or row beyond the limits
// ErrTooLong, naming its column when names (the header, nil while reading it) says which,
// and anything else is the underlying reader's own error, kept for errors.Is.
func readError(err error, names []string) error {
	if tl, ok := errors.AsType[*tooLong](err); ok {
		ce := &CSVError{Line: tl.Line, Err: ErrTooLong}
		switch tl.What {
		case "row":
			ce.Reason = fmt.Sprintf("row longer than %d bytes (CSVConfig.MaxLine)", tl.Limit)
			return ce
		case "columns":
			ce.Reason = fmt.Sprintf("row of more than %d fields (CSVConfig.MaxColumns)", tl.Limit)
			return ce
		}
		ce.Reason = fmt.Sprintf("field longer than %d bytes (CSVConfig.MaxField)", tl.Limit)
		if tl.Field < len(names) {
			ce.Column = names[tl.Field]
		} else {
			ce.Reason = fmt.Sprintf("field %d longer than %d bytes (CSVConfig.MaxField)", tl.Field+1, tl.Limit)
		}
		return ce
	}
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		return &CSVError{Line: pe.Line, Reason: pe.Err.Error(), Err: ErrMalformed}
	}
	return &CSVError{Reason: "reading: " + err.Error(), Err: err}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// blockList collects a stream of values in blocks, doubling from 1 Ki to 32 Ki values (256
// KiB of float64), and concatenates them once at the end: the result has no spare capacity,
// and loading never holds much more than twice its size. (Appending to one slice would leave
// up to 25% spare capacity and, through the garbage of its regrowths, grow the heap to nearly
// 4× the result.)
type blockList[T floats.Float] struct {
	full [][]T
	cur  []T
	n    int // values added
}

// blocks is the blockList of float64 values: labels, and features stored in float64.
type blocks = blockList[float64]

const minBlock, maxBlock = 1 << 10, 1 << 15

func (b *blockList[T]) add(v T) {
	if len(b.cur) == cap(b.cur) {
		if b.cur != nil {
			b.full = append(b.full, b.cur)
		}
		b.cur = make([]T, 0, min(maxBlock, max(minBlock, 2*cap(b.cur))))
	}
	b.cur = append(b.cur, v)
	b.n++
}

// reserve makes the first block hold n values: when the count is known in advance (up to
// a sixteenth more), concat then returns that block without copying.
func (b *blockList[T]) reserve(n int) { b.cur = make([]T, 0, n) }

func (b *blockList[T]) concat() []T {
	if len(b.full) == 0 && cap(b.cur)-len(b.cur) <= len(b.cur)/16 {
		return b.cur[:len(b.cur):len(b.cur)]
	}
	out := make([]T, 0, b.n)
	for _, blk := range b.full {
		out = append(out, blk...)
	}
	return append(out, b.cur...)
}

// featureBlocks collects the features of a CSV in float64 or, when f32, in float32.
type featureBlocks struct {
	f32 bool
	x64 blockList[float64]
	x32 blockList[float32]
}

func (f *featureBlocks) reserve(n int) {
	if f.f32 {
		f.x32.reserve(n)
	} else {
		f.x64.reserve(n)
	}
}

// add adds the finite value v, rounded to float32 when f.f32; it reports false, adding
// nothing, for a value beyond float32's range then.
func (f *featureBlocks) add(v float64) bool {
	if !f.f32 {
		f.x64.add(v)
		return true
	}
	if !floats.Fits[float32](v) {
		return false
	}
	f.x32.add(float32(v))
	return true
}

// rangeError is the error of a field whose value add refused.
func (f *featureBlocks) rangeError(field []byte, line int, column string) *CSVError {
	return &CSVError{Line: line, Column: column, Err: rocops.ErrRange,
		Reason: quote(string(bytes.TrimSpace(field))) + " is beyond float32's range (CSVConfig.Float32)"}
}

// store sets ds.X or ds.X32 to the features collected.
func (f *featureBlocks) store(ds *Dataset) {
	if f.f32 {
		ds.X32 = f.x32.concat()
	} else {
		ds.X = f.x64.concat()
	}
}
