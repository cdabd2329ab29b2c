package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
)

// ErrColumnType reports a Parquet column that is not numeric: a feature column whose physical
// type is not DOUBLE, FLOAT, INT32, INT64 or BOOLEAN, a label column of none of these types
// nor text, or a nested or repeated column. The error names the column.
var ErrColumnType = errors.New("data: column is not numeric")

// parquetError is an error of Parquet input, worded as a [CSVError] is:
//
//	data: train.parquet: column "amount", row 17: null
//
// with the row counted from 1, as the scored rows of package deploy are numbered. It wraps
// one of the package's Err values and, for a reader's failure, that error too.
type parquetError struct {
	File   string // the file name given to LoadParquet; "" for a reader of an io.ReaderAt
	Column string // the column at fault; "" when none is
	Row    int    // 1-based row of the value at fault; 0 when no single row is
	Reason string
	Err    error // one of the package's Err values
	cause  error // the Parquet reader's error, or nil
}

func (e *parquetError) Error() string {
	var b strings.Builder
	b.WriteString("data: ")
	if e.File != "" {
		b.WriteString(e.File + ": ")
	}
	if e.Column != "" {
		fmt.Fprintf(&b, "column %q", e.Column)
		if e.Row > 0 {
			fmt.Fprintf(&b, ", row %d", e.Row)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// Unwrap returns the Err value e wraps, and the reader's error.
func (e *parquetError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.cause}
}

// malformed is the error of data that the Parquet reader refuses: it is not Parquet, or its
// structure is damaged.
func malformed(column string, cause error) error {
	return &parquetError{Column: column, Reason: "not a valid Parquet file: " + cause.Error(), Err: ErrMalformed, cause: cause}
}

// rowError is the error of the value of column in (1-based) row.
func rowError(sentinel error, column string, row int, format string, args ...any) error {
	return &parquetError{Column: column, Row: row, Reason: fmt.Sprintf(format, args...), Err: sentinel}
}

// Load reads the dataset at path: Parquet when its name ends in ".parquet" (in any case),
// CSV otherwise. Of cfg, Parquet uses Label, Float32 and Progress.
func Load(path string, cfg CSVConfig) (*Dataset, error) {
	if strings.EqualFold(filepath.Ext(path), ".parquet") {
		return LoadParquet(path, cfg)
	}
	return LoadCSV(path, cfg)
}

// LoadParquet reads a dataset from the Parquet file at path: every top-level column is a
// feature, in the schema's order, except the label column cfg.Label (by default, as for
// [ReadCSV], the one column named label, y, class or target, else the last). Of cfg it uses
// Label, Positive, Text, Missing, Like, Float32 and Progress; with Text, Missing or Like the
// features are read raw as ReadCSV reads them (a null or a NaN is missing, a BYTE_ARRAY
// column text: each value parsed as the CSV field that spells it), and a raw dataset read
// from Parquet equals the one read from a CSV of the same rows and columns.
//
// DOUBLE, FLOAT, INT32, INT64 and BOOLEAN feature columns are read (BOOLEAN as 0 and 1,
// integers and floats converted to float64 exactly, except int64 beyond ±2^53, which rounds),
// with any encoding and compression; a column of another type, or nested or repeated, is
// [ErrColumnType] naming it, and two columns of one name are [ErrHeader], as in a CSV. A null
// is [ErrMissing] and a NaN or infinite feature
// [ErrNotNumber], each naming the column and the row, counted from 1 as deploy numbers the
// rows it scores; a file without rows is [rocops.ErrEmpty]. With cfg.Float32 the features are
// stored in float32 (Dataset.X32), each rounded to nearest as ReadCSV rounds them, and a value
// beyond float32's range is [rocops.ErrRange]. The errors read "data: <file>: column "c", row r: …".
//
// The label column may hold those types or text (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY), and is
// read as [ReadCSV] reads a label column, each value as the CSV field that spells it: text as
// written, a boolean as 0 or 1, an integer in decimal, a float in Go's shortest formatting of
// its own precision (a FLOAT 0.1 is "0.1"). The numbers 0 and 1 alone are a binary label; more
// than two distinct values, numbers or text, are classes, sorted and named as ReadCSV sorts and
// names them (Dataset.Classes, Y their indices), at most [MaxClasses] of at least
// [MinClassRows] rows each. A null, a NaN, empty text or a missing-value marker (NA, N/A, NaN,
// null, ?) is ErrMissing; one class is [rocops.ErrOneClass]; two values other than 0 and 1 are
// [rocops.ErrLabel]; a class too small is [ErrClassTooSmall] and too many classes
// [ErrTooManyClasses]: each names the label column and the row of the value at fault
// (for a small class, its first row).
//
// The label column is read first, and then the features straight into the dataset's matrix,
// sized by the rows the label column holds, one row group and page at a time: memory holds
// the numbers plus one page of the file. The footer's row counts are checked, never trusted
// for memory. Data that is not Parquet, or is damaged — a footer longer than the file, a row
// count that is not the sum of the row groups' or that a column chunk does not hold, a page
// the reader cannot decode (even one it panics on) — is [ErrMalformed]; the page index and
// the bloom filters, which nothing here needs, are not read. A Dataset read from Parquet equals, bit for bit, the one read from a CSV of the same
// values written in full precision, multi-class ones included. Multi-label columns
// (cfg.Labels; here [rocops.ErrConfig]) are read from CSV only.
func LoadParquet(path string, cfg CSVConfig) (*Dataset, error) {
	if len(cfg.Labels) > 0 {
		return nil, check.Errorf("data", rocops.ErrConfig, "%s: multi-label columns %q are read from CSV only, not Parquet", path, cfg.Labels)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	ds, err := loadParquet(f, st.Size(), cfg)
	if err != nil {
		return nil, inFile(path, err)
	}
	return ds, nil
}

// loadParquet is LoadParquet of the Parquet data in r (size bytes).
func loadParquet(r io.ReaderAt, size int64, cfg CSVConfig) (_ *Dataset, err error) {
	defer recoverMalformed(&err)
	pr, err := newParquetReader(r, size, cfg, true)
	if err != nil {
		return nil, err
	}
	pr.f32, pr.positive = cfg.Float32, cfg.Positive
	if cfg.needsRaw() {
		pr.raw = newRawReader(cfg, len(pr.names))
	}
	if err := cfg.checkLike(pr.names, 0); err != nil {
		ce := err.(*CSVError)
		return nil, &parquetError{Column: ce.Column, Reason: ce.Reason, Err: ce.Err}
	}
	if cfg.Like != nil {
		pr.like = &labelMap{values: cfg.Like.Classes}
		if cfg.Like.LabelValues != nil {
			pr.like.values = cfg.Like.LabelValues
		}
	}
	ds, err := pr.readAll()
	if err != nil || cfg.Like == nil {
		return ds, err
	}
	if err := cfg.likeLabels(ds); err != nil {
		return nil, &parquetError{Column: ds.LabelName, Reason: err.(*CSVError).Reason, Err: rocops.ErrOneClass}
	}
	return ds, nil
}

// openParquet opens the Parquet data in r (size bytes) for rocops's readers, which read the
// pages of column chunks and nothing else: the page index and the bloom filters are skipped,
// and the footer's length is checked against the file's before the footer is read. It checks
// the row counts of the footer: the file's is the sum of its row groups', none negative. (A
// count that the column chunks do not hold is found when they are read.) Two columns of one
// name are ErrHeader, as in a CSV header. Its callers turn a
// panic of the reader on damaged data into ErrMalformed ([recoverMalformed]).
func openParquet(r io.ReaderAt, size int64) (*parquet.File, error) {
	// A Parquet file is "PAR1", the data, the footer, its length (uint32) and "PAR1".
	var tail [8]byte
	if size < 12 {
		return nil, &parquetError{Reason: fmt.Sprintf("not a valid Parquet file: %d bytes, fewer than the 12 of an empty one", size), Err: ErrMalformed}
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, malformed("", err)
	}
	if n := binary.LittleEndian.Uint32(tail[:4]); string(tail[4:]) == "PAR1" && int64(n) > size-12 {
		return nil, &parquetError{Reason: fmt.Sprintf("not a valid Parquet file: a footer of %d bytes in a file of %d", n, size), Err: ErrMalformed}
	}
	file, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, malformed("", err)
	}
	var sum int64
	for g, rg := range file.RowGroups() {
		n := rg.NumRows()
		if n < 0 || n > math.MaxInt64-sum {
			return nil, &parquetError{Reason: fmt.Sprintf("row group %d has %d rows", g, n), Err: ErrMalformed}
		}
		sum += n
	}
	if file.NumRows() != sum {
		return nil, &parquetError{Reason: fmt.Sprintf("the footer gives %d rows, its row groups %d", file.NumRows(), sum), Err: ErrMalformed}
	}
	fields := file.Schema().Fields()
	seen := make(map[string]bool, len(fields))
	for _, fld := range fields {
		if seen[fld.Name()] {
			return nil, &parquetError{Column: fld.Name(), Reason: "duplicate column name", Err: ErrHeader}
		}
		seen[fld.Name()] = true
	}
	return file, nil
}

// recoverMalformed, deferred, turns a panic of the Parquet reader (on data damaged in a way
// it does not check) into an ErrMalformed *err.
func recoverMalformed(err *error) {
	if r := recover(); r != nil {
		*err = &parquetError{Reason: fmt.Sprintf("not a valid Parquet file: the reader failed: %v", r), Err: ErrMalformed}
	}
}

// inFile returns err of the Parquet file at path, naming it.
func inFile(path string, err error) error {
	if pe, ok := errors.AsType[*parquetError](err); ok {
		pe.File = path
		return pe
	}
	return fmt.Errorf("data: %s: %w", path, err)
}

// parquetReader streams the rows of a Parquet file one row group at a time, with the
// columns and checks of [LoadParquet], for callers that score rows without loading them all.
type parquetReader struct {
	file     *parquet.File
	names    []string // feature names
	label    string
	cols     []int // the file's column index of each feature, then of the label
	progress func(rows int, bytes int64)
	group    int   // the next row group
	row      int   // rows read so far
	bytes    int64 // compressed bytes of the row groups read so far
	values   []parquet.Value
	first    []float64 // Next's first feature, read before the others without a label column
	// classes, when not nil, reads the label column as ReadCSV does (LoadParquet), each row's
	// y its id until readAll finishes it; nil = 0/1 labels only (Next).
	classes *labelColumn
	spelled []byte // a label value's spelling, reused
	// f32 stores the features in float32 (readAll into Dataset.X32, CSVConfig.Float32),
	// checking that each fits.
	f32 bool
	// positive is CSVConfig.Positive, for readAll's label column.
	positive string
	// raw, when not nil, reads the features as raw columns (CSVConfig.Text, Missing, Like)
	// into ds, which readAll sets; like, when not nil, reads the label by Like's values.
	raw    *rawReader
	ds     *Dataset
	like   *labelMap
	rawCol int // the feature readColumn reads
}

// newParquetRowReader opens the Parquet data in r (size bytes) and checks its schema. Of cfg
// it uses Label and Progress. Its label column must hold the numbers 0 and 1: the classes of
// a multi-class label column are known only once every row is read, which [LoadParquet] does.
// Damaged data is ErrMalformed, here and from Next, as for LoadParquet.
func newParquetRowReader(r io.ReaderAt, size int64, cfg CSVConfig) (_ *parquetReader, err error) {
	defer recoverMalformed(&err)
	return newParquetReader(r, size, cfg, false)
}

// newParquetReader is newParquetRowReader; with classes, its label column is read as a class
// column (LoadParquet) and may hold text.
func newParquetReader(r io.ReaderAt, size int64, cfg CSVConfig, classes bool) (*parquetReader, error) {
	file, err := openParquet(r, size)
	if err != nil {
		return nil, err
	}
	fields := file.Schema().Fields()
	if len(fields) < 2 {
		return nil, &parquetError{Reason: fmt.Sprintf("%d columns; need a label and at least one feature", len(fields)), Err: ErrHeader}
	}
	if cfg.Like != nil {
		cfg.Label = cfg.Like.LabelName
	}
	names := make([]string, len(fields))
	for j, f := range fields {
		names[j] = f.Name()
	}
	label := defaultLabel(names)
	if cfg.Label != "" {
		label = slices.IndexFunc(fields, func(f parquet.Field) bool { return f.Name() == cfg.Label })
		if label < 0 {
			return nil, &parquetError{Reason: fmt.Sprintf("no label column %q", cfg.Label), Err: ErrHeader}
		}
	}
	pr := &parquetReader{file: file, label: fields[label].Name(), progress: cfg.Progress,
		values: make([]parquet.Value, 4096)}
	if classes {
		pr.classes = &labelColumn{}
	}
	for j, fld := range fields {
		if !fld.Leaf() || fld.Repeated() {
			return nil, columnType(fld.Name(), "is nested or repeated")
		}
		switch k := fld.Type().Kind(); {
		case k == parquet.Boolean, k == parquet.Int32, k == parquet.Int64, k == parquet.Float, k == parquet.Double:
		case classes && (j == label || cfg.Text || cfg.Like != nil) && (k == parquet.ByteArray || k == parquet.FixedLenByteArray):
		default:
			return nil, columnType(fld.Name(), "has type %v", k)
		}
		if j != label {
			pr.names = append(pr.names, fld.Name())
			pr.cols = append(pr.cols, j)
		}
	}
	pr.cols = append(pr.cols, label)
	return pr, nil
}

// newParquetColumnReader opens the Parquet data in r (size bytes) for scoring: it reads the
// named feature columns, in the order given, and the label column when the file has one
// (HasLabel), ignoring every other column, whatever its type. A missing feature column, or two
// columns of one name, is ErrHeader naming it, a feature column that is not numeric or boolean ErrColumnType naming
// it; values are checked as [LoadParquet] checks them. Of cfg it uses Label and Progress.
func newParquetColumnReader(r io.ReaderAt, size int64, features []string, cfg CSVConfig) (_ *parquetReader, err error) {
	defer recoverMalformed(&err)
	file, err := openParquet(r, size)
	if err != nil {
		return nil, err
	}
	fields := file.Schema().Fields()
	index := func(name string) int {
		return slices.IndexFunc(fields, func(f parquet.Field) bool { return f.Name() == name })
	}
	pr := &parquetReader{file: file, progress: cfg.Progress, values: make([]parquet.Value, 4096)}
	wanted := slices.Clone(features)
	if j := index(cfg.Label); cfg.Label != "" && j >= 0 {
		wanted, pr.label = append(wanted, cfg.Label), cfg.Label
	}
	for k, name := range wanted {
		j := index(name)
		if j < 0 {
			return nil, &parquetError{Reason: fmt.Sprintf("no column %q, a feature of the model", name), Err: ErrHeader}
		}
		fld := fields[j]
		if !fld.Leaf() || fld.Repeated() {
			return nil, columnType(name, "is nested or repeated")
		}
		switch kind := fld.Type().Kind(); kind {
		case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		default:
			return nil, columnType(name, "has type %v", kind)
		}
		if k < len(features) {
			pr.names = append(pr.names, name)
		}
		pr.cols = append(pr.cols, j)
	}
	return pr, nil
}

// HasLabel reports whether the reader reads a label column: always for newParquetRowReader,
// when the file has one for newParquetColumnReader.
func (pr *parquetReader) HasLabel() bool { return pr.label != "" }

// FeatureNames returns the names of the features, in order; LabelName that of the label.
func (pr *parquetReader) FeatureNames() []string { return slices.Clone(pr.names) }

// LabelName returns the name of the label column ("" when it reads none).
func (pr *parquetReader) LabelName() string { return pr.label }

// NumRows returns the number of rows of the file.
func (pr *parquetReader) NumRows() int { return int(pr.file.NumRows()) }

// Next reads the next row group into x (row-major, len(FeatureNames()) features per row)
// and y, reusing their memory when large enough, and returns them with the group's rows (y
// is left as zeros when the reader reads no label). At the end of the file it returns io.EOF.
// A bad value (a null, a NaN, a label other than 0 and 1…) is an error naming its column and
// row, returned with the rows of the group before that row, as ReadCSV reads rows up to a bad
// one: the first bad value in the order of a CSV of the same rows, row by row and, within a
// row, in the file's column order. A damaged group is ErrMalformed, returned with no rows.
//
// The label column (without one, the first feature) is read first, into memory that grows
// with its values, so that x is sized by the rows the row group holds, not by the count its
// footer claims: a count that no column chunk backs is ErrMalformed before x is allocated.
func (pr *parquetReader) Next(x, y []float64) (_, _ []float64, err error) {
	defer recoverMalformed(&err)
	groups := pr.file.RowGroups()
	if pr.group >= len(groups) {
		return x[:0], y[:0], io.EOF
	}
	rg := groups[pr.group]
	n, cols := int(rg.NumRows()), len(pr.names)
	chunks := rg.ColumnChunks()
	// bad is the first bad value found, at row badRow of the group (n when none) of the file's
	// column badCol; the columns read after it are read only as far as it.
	var bad error
	badRow, badCol := n, math.MaxInt
	found := func(err error, col int) error { // err when it is no bad value, else nil
		pe, ok := errors.AsType[*parquetError](err)
		if !ok || pe.Row == 0 {
			return err
		}
		if r := pe.Row - 1 - pr.row; r < badRow || r == badRow && col < badCol {
			bad, badRow, badCol = err, r, col
		}
		return nil
	}
	first, from := cols, 0 // the label, or without one the first feature
	if pr.label == "" {
		first, from = 0, 1
	}
	dst := y[:0]
	if first == 0 {
		dst = pr.first[:0]
	}
	dst, err = pr.appendColumn(first, dst)
	if err = found(err, pr.cols[first]); err != nil {
		return nil, nil, err
	}
	rows := min(len(dst)+btoi(bad != nil), n) // with a bad value, its row is read too
	x = grow(x, rows*cols)
	if first == 0 {
		pr.first = dst
		y = grow(y, len(dst))
		clear(y)
		for i, v := range dst {
			x[i*cols] = v
		}
	} else {
		y = dst
	}
	for k := from; k < cols; k++ {
		c := pr.cols[k]
		stop := min(badRow+btoi(c < badCol && bad != nil), n)
		store := func(i int, v float64) { x[i*cols+k] = v }
		err := pr.readColumn(chunks[c], n, stop, pr.names[k], false, store)
		if err = found(err, c); err != nil {
			return nil, nil, err
		}
	}
	if bad != nil {
		return x[:badRow*cols], y[:badRow], bad
	}
	pr.endGroup()
	return x, y, nil
}

// grow returns s with length n, reallocated only when its capacity is too small.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// readAll reads every row group into one Dataset: first the label column of every row group,
// into Y as its values come, so that the features' matrix is sized by the rows the file holds
// (a row count of the footer that the column chunks do not back is ErrMalformed before it is
// allocated), then the features, row group by row group.
func (pr *parquetReader) readAll() (*Dataset, error) {
	rows, cols := pr.NumRows(), len(pr.names)
	if rows == 0 {
		return nil, &parquetError{Reason: "the Parquet file has no rows", Err: rocops.ErrEmpty}
	}
	// The footer's count is a capacity hint only, within the file's size: a real row takes
	// more than a byte, and a file of fewer bytes than rows grows Y as it is read.
	y := make([]float64, 0, min(int64(rows), pr.file.Size()))
	groups := len(pr.file.RowGroups())
	for pr.group < groups {
		var err error
		if y, err = pr.appendColumn(cols, y); err != nil {
			return nil, err
		}
		pr.row, pr.group = len(y), pr.group+1
	}
	pr.row, pr.group = 0, 0
	rows = len(y)
	ds := &Dataset{Y: y, Rows: rows, Cols: cols, FeatureNames: slices.Clone(pr.names), LabelName: pr.label}
	if pr.f32 {
		ds.X32 = make([]float32, rows*cols)
	} else {
		ds.X = make([]float64, rows*cols)
	}
	pr.ds = ds
	for pr.group < groups {
		lo := pr.row
		var err error
		if pr.f32 {
			err = pr.readFeatures(0, nil, ds.X32[lo*cols:])
		} else {
			err = pr.readFeatures(0, ds.X[lo*cols:], nil)
		}
		if err != nil {
			return nil, err
		}
		pr.endGroup()
	}
	if pr.raw != nil {
		pr.raw.store(ds)
	}
	if pr.like != nil {
		return ds, nil
	}
	classes, values, err := pr.classes.finish(ds.Y, pr.label, pr.positive)
	if err != nil {
		return nil, pr.labelError(err)
	}
	ds.Classes, ds.LabelValues = classes, values
	return ds, nil
}

// labelError rewrites an error of the label column's labelColumn, a *CSVError whose Line is
// the 1-based row, in the words of the Parquet errors: the column and the row.
func (pr *parquetReader) labelError(err error) error {
	var ce *CSVError
	if !errors.As(err, &ce) {
		return err
	}
	reason := strings.ReplaceAll(ce.Reason, "the first on this line", "the first in this row")
	return rowError(ce.Err, pr.label, ce.Line, "%s", reason)
}

// columnType is the ErrColumnType error of column.
func columnType(column, format string, args ...any) error {
	return &parquetError{Column: column, Reason: fmt.Sprintf(format, args...) + ", not a numeric or boolean type", Err: ErrColumnType}
}

// appendColumn appends to dst the values of the current row group's column k (the label when
// k is len(pr.names), else feature k), checked, as many as the chunk holds up to the group's
// row count, which it must hold exactly.
func (pr *parquetReader) appendColumn(k int, dst []float64) ([]float64, error) {
	rg := pr.file.RowGroups()[pr.group]
	isLabel := k == len(pr.names)
	name := pr.label
	if !isLabel {
		name = pr.names[k]
	}
	store := func(_ int, v float64) { dst = append(dst, v) } // the values come in order
	n := int(rg.NumRows())
	err := pr.readColumn(rg.ColumnChunks()[pr.cols[k]], n, n, name, isLabel, store)
	return dst, err
}

// readFeatures reads the feature columns from, from+1, … of the current row group into x (or
// x32, when pr.f32), row-major, at least the group's rows long, column by column, page by
// page.
func (pr *parquetReader) readFeatures(from int, x []float64, x32 []float32) error {
	rg := pr.file.RowGroups()[pr.group]
	n, cols := int(rg.NumRows()), len(pr.names)
	chunks := rg.ColumnChunks()
	for k := from; k < cols; k++ {
		store := func(i int, v float64) { x[i*cols+k] = v }
		if pr.f32 {
			store = func(i int, v float64) { x32[i*cols+k] = float32(v) }
		}
		pr.rawCol = k
		if err := pr.readColumn(chunks[pr.cols[k]], n, n, pr.names[k], false, store); err != nil {
			return err
		}
	}
	return nil
}

// endGroup moves past the current row group and reports progress.
func (pr *parquetReader) endGroup() {
	pr.bytes += pr.file.Metadata().RowGroups[pr.group].TotalCompressedSize
	pr.row += int(pr.file.RowGroups()[pr.group].NumRows())
	pr.group++
	if pr.progress != nil {
		pr.progress(pr.row, pr.bytes)
	}
}

// readColumn reads the n values of one column chunk of the current row group, checking each,
// into store(row in the group, value), or its first stop ≤ n values only.
func (pr *parquetReader) readColumn(chunk parquet.ColumnChunk, n, stop int, name string, isLabel bool, store func(int, float64)) error {
	if stop == 0 && n > 0 {
		return nil
	}
	err := readChunk(chunk, n, name, pr.values, func(start int, vs []parquet.Value) error {
		for k := range vs {
			i := start + k
			if i == stop {
				return errStop
			}
			v := &vs[k]
			if !isLabel && pr.raw != nil {
				if err := pr.rawValue(i, *v, name, store); err != nil {
					return err
				}
				continue
			}
			if v.IsNull() {
				return rowError(ErrMissing, name, pr.row+i+1, "null")
			}
			if isLabel && pr.like != nil {
				if err := pr.likeValue(i, *v, name, store); err != nil {
					return err
				}
				continue
			}
			if isLabel && pr.classes != nil {
				if err := pr.classValue(i, *v, name, store); err != nil {
					return err
				}
				continue
			}
			f := number(*v)
			switch {
			case isLabel && f != 0 && f != 1:
				return rowError(rocops.ErrLabel, name, pr.row+i+1, "%v is not a label (want 0 or 1)", f)
			case math.IsNaN(f) || math.IsInf(f, 0):
				return rowError(ErrNotNumber, name, pr.row+i+1, "%v is not a finite number", f)
			case !isLabel && pr.f32 && !floats.Fits[float32](f):
				return rowError(rocops.ErrRange, name, pr.row+i+1, "%v is beyond float32's range (CSVConfig.Float32)", f)
			}
			store(i, f)
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// rawValue reads the feature value v of row group row i of the column name (feature k of
// pr.rawCol) as a raw column: a null or a NaN is missing, text is a level or a number as in a
// CSV field.
func (pr *parquetReader) rawValue(i int, v parquet.Value, name string, store func(int, float64)) error {
	row := pr.row + i
	k := pr.rawCol
	var f float64
	switch kind := v.Kind(); {
	case v.IsNull() || (kind == parquet.Float || kind == parquet.Double) && math.IsNaN(number(v)):
		if !pr.raw.missing {
			what := "null"
			if !v.IsNull() {
				what = "NaN"
			}
			return rowError(ErrMissing, name, row+1, "%s", what)
		}
		f = math.NaN()
	case kind == parquet.ByteArray || kind == parquet.FixedLenByteArray:
		cols := pr.ds.Cols
		recode := func(k int, fn func(float64) float64) {
			for r := range row {
				if pr.f32 {
					pr.ds.X32[r*cols+k] = float32(fn(float64(pr.ds.X32[r*cols+k])))
				} else {
					pr.ds.X[r*cols+k] = fn(pr.ds.X[r*cols+k])
				}
			}
		}
		var ce *CSVError
		if f, ce = pr.raw.parse(k, v.ByteArray(), recode); ce != nil {
			return rowError(ce.Err, name, row+1, "%s", ce.Reason)
		}
	default:
		f = number(v)
		switch {
		case math.IsInf(f, 0):
			return rowError(ErrNotNumber, name, row+1, "%v is not a finite number", f)
		case pr.raw.cols[k].text:
			f = pr.raw.cols[k].code(spellNumber(f))
		}
	}
	if pr.f32 && !floats.Fits[float32](f) {
		return rowError(rocops.ErrRange, name, row+1, "%v is beyond float32's range (CSVConfig.Float32)", f)
	}
	store(i, f)
	return nil
}

// likeValue reads the label value v of row group row i by Like's label values.
func (pr *parquetReader) likeValue(i int, v parquet.Value, name string, store func(int, float64)) error {
	var missing string
	if pr.spelled, missing = appendParquetLabel(pr.spelled[:0], v); missing != "" {
		return rowError(ErrMissing, name, pr.row+i+1, "%s", missing)
	}
	f, ce := pr.like.value(pr.spelled)
	if ce != nil {
		return rowError(ce.Err, name, pr.row+i+1, "%s", ce.Reason)
	}
	store(i, f)
	return nil
}

// errStop stops readColumn's visit of a chunk at its stop.
var errStop = errors.New("data: stop")

// classValue reads the label value v of row group row i, not null, into the class
// accumulator and stores its id.
func (pr *parquetReader) classValue(i int, v parquet.Value, name string, store func(int, float64)) error {
	row := pr.row + i
	if k := v.Kind(); k != parquet.ByteArray && k != parquet.FixedLenByteArray {
		// A 0 or 1 seen before spelled "0" or "1", as it is spelled again (a DOUBLE −0 is
		// "-0"): what labelColumn.parse does with it, without spelling it.
		if f := number(v); (f == 1 || f == 0 && !math.Signbit(f)) && pr.classes.counts != nil &&
			pr.classes.counts[int(f)] > 0 && pr.classes.names[int(f)] == "01"[int(f):int(f)+1] {
			pr.classes.counts[int(f)]++
			store(i, f)
			return nil
		}
	}
	var missing string
	if pr.spelled, missing = appendParquetLabel(pr.spelled[:0], v); missing != "" {
		return rowError(ErrMissing, name, row+1, "%s", missing)
	}
	id, ce := pr.classes.parse(pr.spelled, row+1)
	if ce != nil {
		ce.Line = row + 1
		return pr.labelError(ce)
	}
	store(i, id)
	return nil
}

// readChunk passes the n values of a column chunk in order to visit, a batch at a time
// (values is the buffer), with the index in the chunk of the batch's first value; the first
// error of visit stops it. A chunk of more or fewer than n values is ErrMalformed naming the
// column.
func readChunk(chunk parquet.ColumnChunk, n int, name string, values []parquet.Value, visit func(start int, vs []parquet.Value) error) error {
	pages := chunk.Pages()
	defer pages.Close()
	i := 0
	for i < n {
		page, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return malformed(name, err)
		}
		err = readPage(page, &i, n, name, values, visit)
		parquet.Release(page)
		if err != nil {
			return err
		}
	}
	if i != n {
		return &parquetError{Column: name, Reason: fmt.Sprintf("the column chunk holds %d values for the %d rows of its row group", i, n), Err: ErrMalformed}
	}
	return nil
}

// readPage passes one page's values to visit, from value *i of the chunk on.
func readPage(page parquet.Page, i *int, n int, name string, values []parquet.Value, visit func(int, []parquet.Value) error) error {
	vr := page.Values()
	for {
		m, err := vr.ReadValues(values)
		if *i+m > n {
			return &parquetError{Column: name, Reason: fmt.Sprintf("the column chunk holds more values than the %d rows of its row group", n), Err: ErrMalformed}
		}
		if m > 0 {
			if err := visit(*i, values[:m]); err != nil {
				return err
			}
			*i += m
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return malformed(name, err)
		}
	}
}

// parquetClassReader reads one column of a Parquet file as class names, one row group at a
// time: the label column of rows that a multi-class model scores, whose classes are named as
// [LoadParquet] names those it trains on (appendParquetLabel, then [ClassName]).
type parquetClassReader struct {
	file    *parquet.File
	col     int // the column's index in the file
	name    string
	group   int // the next row group
	row     int // rows read so far
	values  []parquet.Value
	spelled []byte
}

// newParquetClassReader opens the column named column of the Parquet data in r (size bytes)
// as class names. It returns nil and no error when the file has no such column, ErrMalformed
// for data that is not Parquet or is damaged (as for LoadParquet, here and from Next), and [ErrColumnType] naming the column when it is nested,
// repeated, or of a type that holds no class name (INT96).
func newParquetClassReader(r io.ReaderAt, size int64, column string) (_ *parquetClassReader, err error) {
	defer recoverMalformed(&err)
	file, err := openParquet(r, size)
	if err != nil {
		return nil, err
	}
	fields := file.Schema().Fields()
	j := slices.IndexFunc(fields, func(f parquet.Field) bool { return f.Name() == column })
	if j < 0 {
		return nil, nil
	}
	fld := fields[j]
	if !fld.Leaf() || fld.Repeated() {
		return nil, &parquetError{Column: column, Reason: "the label column is nested or repeated", Err: ErrColumnType}
	}
	switch kind := fld.Type().Kind(); kind {
	case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double, parquet.ByteArray, parquet.FixedLenByteArray:
	default:
		return nil, &parquetError{Column: column, Reason: fmt.Sprintf("the label column has type %v, which holds no class name", kind), Err: ErrColumnType}
	}
	return &parquetClassReader{file: file, col: j, name: column, values: make([]parquet.Value, 1024)}, nil
}

// Next appends the class names of the next row group's rows to dst and returns it; at the
// end of the file it returns dst and io.EOF. A null, a NaN, or text that ClassName refuses
// (empty, or a missing-value marker) is [ErrMissing] naming the column and the row, counted
// from 1 as LoadParquet's errors and a scorer's output count them.
func (c *parquetClassReader) Next(dst []string) (_ []string, err error) {
	err = c.nextGroup(func(first int, vs []parquet.Value) error {
		for k, v := range vs {
			row := first + k
			var missing string
			if c.spelled, missing = appendParquetLabel(c.spelled[:0], v); missing != "" {
				return rowError(ErrMissing, c.name, row, "%s", missing)
			}
			name, err := ClassName(string(c.spelled))
			if err != nil {
				return rowError(ErrMissing, c.name, row, "missing value %q", c.spelled)
			}
			dst = append(dst, name)
		}
		return nil
	})
	return dst, err
}

// Fields appends the values of the next row group's rows to dst as the CSV fields that spell
// them (appendParquetLabel), a null or a NaN as "" (a missing value), and returns it: the
// raw values of a feature column, for an [Encoder]. At the end of the file it returns dst and
// io.EOF.
func (c *parquetClassReader) Fields(dst []string) (_ []string, err error) {
	err = c.nextGroup(func(_ int, vs []parquet.Value) error {
		for _, v := range vs {
			var missing string
			if c.spelled, missing = appendParquetLabel(c.spelled[:0], v); missing != "" {
				dst = append(dst, "")
				continue
			}
			dst = append(dst, string(c.spelled))
		}
		return nil
	})
	return dst, err
}

// nextGroup passes the values of the next row group's rows to fn in chunks, each with the row
// number of its first value counted from 1, and moves past the group when fn accepted them
// all; at the end of the file it returns io.EOF. A panic of the Parquet reader is
// ErrMalformed.
func (c *parquetClassReader) nextGroup(fn func(row int, vs []parquet.Value) error) (err error) {
	defer recoverMalformed(&err)
	groups := c.file.RowGroups()
	if c.group >= len(groups) {
		return io.EOF
	}
	rg := groups[c.group]
	n := int(rg.NumRows())
	err = readChunk(rg.ColumnChunks()[c.col], n, c.name, c.values, func(start int, vs []parquet.Value) error {
		return fn(c.row+start+1, vs)
	})
	if err != nil {
		return err
	}
	c.group++
	c.row += n
	return nil
}

// appendParquetLabel appends to dst the label value v of a Parquet column as a CSV field that
// holds the same value spells it, which is how [LoadParquet] reads a label column and how a
// multi-class model's scorer names a row's class: text as written (BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY), a boolean as 0 or 1, an integer in decimal, a FLOAT or DOUBLE in Go's
// shortest formatting of its own precision (strconv.FormatFloat with 'g', −1 and 32 or 64).
// For a null or a NaN it returns dst unchanged and what was found ("null", "NaN"); text that
// is a missing-value marker is left to [ClassName] (or the label reader) to refuse.
func appendParquetLabel(dst []byte, v parquet.Value) (_ []byte, missing string) {
	if v.IsNull() {
		return dst, "null"
	}
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return append(dst, v.ByteArray()...), ""
	case parquet.Boolean:
		if v.Boolean() {
			return append(dst, '1'), ""
		}
		return append(dst, '0'), ""
	case parquet.Int32:
		return strconv.AppendInt(dst, int64(v.Int32()), 10), ""
	case parquet.Int64:
		return strconv.AppendInt(dst, v.Int64(), 10), ""
	case parquet.Float:
		if f := v.Float(); f == f {
			return strconv.AppendFloat(dst, float64(f), 'g', -1, 32), ""
		}
	case parquet.Double:
		if f := v.Double(); f == f {
			return strconv.AppendFloat(dst, f, 'g', -1, 64), ""
		}
	default:
		return dst, fmt.Sprintf("a value of type %v", v.Kind())
	}
	return dst, "NaN"
}

// number returns a numeric or boolean value as a float64.
func number(v parquet.Value) float64 {
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return 1
		}
		return 0
	case parquet.Int32:
		return float64(v.Int32())
	case parquet.Int64:
		return float64(v.Int64())
	case parquet.Float:
		return float64(v.Float())
	}
	return v.Double()
}
