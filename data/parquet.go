package data

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// ErrColumnType reports a Parquet column that is not numeric: a feature or label column
// whose physical type is not DOUBLE, FLOAT, INT32, INT64 or BOOLEAN, or a nested or
// repeated column. The error names the column.
var ErrColumnType = errors.New("data: column is not numeric")

// Load reads the dataset at path: Parquet when its name ends in ".parquet" (in any case),
// CSV otherwise. Of cfg, Parquet uses Label and Progress.
func Load(path string, cfg CSVConfig) (*Dataset, error) {
	if strings.EqualFold(filepath.Ext(path), ".parquet") {
		return LoadParquet(path, cfg)
	}
	return LoadCSV(path, cfg)
}

// LoadParquet reads a dataset from the Parquet file at path: every top-level column is a
// feature, in the schema's order, except the label column cfg.Label (the last column by
// default). Of cfg it uses Label and Progress.
//
// DOUBLE, FLOAT, INT32, INT64 and BOOLEAN columns are read (BOOLEAN as 0 and 1, integers
// and floats converted to float64 exactly, except int64 beyond ±2^53, which rounds), with
// any encoding and compression; a column of another type, or nested or repeated, is
// [ErrColumnType] naming it. A null is [ErrMissing], a NaN or infinite value [ErrNotNumber]
// and a label other than 0 or 1 [ErrLabel], each naming the column and the 0-based row; no
// rows is [ErrEmpty] and a single class [ErrOneClass].
//
// The features are read straight into the dataset's matrix, whose size the file's metadata
// gives, one row group and page at a time: memory holds the numbers plus one page of the
// file. A Dataset read from Parquet equals, bit for bit, the one read from a CSV of the same
// numbers written in full precision. Multi-class labels and multi-label columns
// (cfg.Labels, [ErrLabelList]) are read from CSV only.
func LoadParquet(path string, cfg CSVConfig) (*Dataset, error) {
	if len(cfg.Labels) > 0 {
		return nil, fmt.Errorf("%w: %s: multi-label columns %q are read from CSV only, not Parquet", ErrLabelList, path, cfg.Labels)
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
	pr, err := NewParquetReader(f, st.Size(), cfg)
	if err != nil {
		return nil, fmt.Errorf("data: %s: %w", path, err)
	}
	ds, err := pr.readAll()
	if err != nil {
		return nil, fmt.Errorf("data: %s: %w", path, err)
	}
	return ds, nil
}

// ParquetReader streams the rows of a Parquet file one row group at a time, with the
// columns and checks of [LoadParquet], for callers that score rows without loading them all.
type ParquetReader struct {
	file     *parquet.File
	names    []string // feature names
	label    string
	cols     []int // the file's column index of each feature, then of the label
	progress func(rows int, bytes int64)
	group    int   // the next row group
	row      int   // rows read so far
	bytes    int64 // compressed bytes of the row groups read so far
	values   []parquet.Value
}

// NewParquetReader opens the Parquet data in r (size bytes) and checks its schema. Of cfg
// it uses Label and Progress.
func NewParquetReader(r io.ReaderAt, size int64, cfg CSVConfig) (*ParquetReader, error) {
	file, err := parquet.OpenFile(r, size, parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	fields := file.Schema().Fields()
	if len(fields) < 2 {
		return nil, fmt.Errorf("%w: %d columns; need a label and at least one feature", ErrHeader, len(fields))
	}
	label := len(fields) - 1
	if cfg.Label != "" {
		label = slices.IndexFunc(fields, func(f parquet.Field) bool { return f.Name() == cfg.Label })
		if label < 0 {
			return nil, fmt.Errorf("%w: no label column %q", ErrHeader, cfg.Label)
		}
	}
	pr := &ParquetReader{file: file, label: fields[label].Name(), progress: cfg.Progress,
		values: make([]parquet.Value, 4096)}
	for j, fld := range fields {
		if !fld.Leaf() || fld.Repeated() {
			return nil, fmt.Errorf("%w: column %q is nested or repeated", ErrColumnType, fld.Name())
		}
		switch k := fld.Type().Kind(); k {
		case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		default:
			return nil, fmt.Errorf("%w: column %q has type %v", ErrColumnType, fld.Name(), k)
		}
		if j != label {
			pr.names = append(pr.names, fld.Name())
			pr.cols = append(pr.cols, j)
		}
	}
	pr.cols = append(pr.cols, label)
	return pr, nil
}

// NewParquetColumnReader opens the Parquet data in r (size bytes) for scoring: it reads the
// named feature columns, in the order given, and the label column when the file has one
// (HasLabel), ignoring every other column, whatever its type. A missing feature column is
// ErrHeader naming it, a feature column that is not numeric or boolean ErrColumnType naming
// it; values are checked as [LoadParquet] checks them. Of cfg it uses Label and Progress.
func NewParquetColumnReader(r io.ReaderAt, size int64, features []string, cfg CSVConfig) (*ParquetReader, error) {
	file, err := parquet.OpenFile(r, size, parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	fields := file.Schema().Fields()
	index := func(name string) int {
		return slices.IndexFunc(fields, func(f parquet.Field) bool { return f.Name() == name })
	}
	pr := &ParquetReader{file: file, progress: cfg.Progress, values: make([]parquet.Value, 4096)}
	wanted := slices.Clone(features)
	if j := index(cfg.Label); cfg.Label != "" && j >= 0 {
		wanted, pr.label = append(wanted, cfg.Label), cfg.Label
	}
	for k, name := range wanted {
		j := index(name)
		if j < 0 {
			return nil, fmt.Errorf("%w: no column %q, a feature of the model", ErrHeader, name)
		}
		fld := fields[j]
		if !fld.Leaf() || fld.Repeated() {
			return nil, fmt.Errorf("%w: column %q is nested or repeated", ErrColumnType, name)
		}
		switch kind := fld.Type().Kind(); kind {
		case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		default:
			return nil, fmt.Errorf("%w: column %q has type %v", ErrColumnType, name, kind)
		}
		if k < len(features) {
			pr.names = append(pr.names, name)
		}
		pr.cols = append(pr.cols, j)
	}
	return pr, nil
}

// HasLabel reports whether the reader reads a label column: always for [NewParquetReader],
// when the file has one for [NewParquetColumnReader].
func (pr *ParquetReader) HasLabel() bool { return pr.label != "" }

// FeatureNames returns the names of the features, in order; LabelName that of the label.
func (pr *ParquetReader) FeatureNames() []string { return slices.Clone(pr.names) }

// LabelName returns the name of the label column ("" when it reads none).
func (pr *ParquetReader) LabelName() string { return pr.label }

// NumRows returns the number of rows of the file.
func (pr *ParquetReader) NumRows() int { return int(pr.file.NumRows()) }

// Next reads the next row group into x (row-major, len(FeatureNames()) features per row)
// and y, reusing their memory when large enough, and returns them with the group's rows (y
// is left as zeros when the reader reads no label). At the end of the file it returns io.EOF.
func (pr *ParquetReader) Next(x, y []float64) ([]float64, []float64, error) {
	groups := pr.file.RowGroups()
	if pr.group >= len(groups) {
		return x[:0], y[:0], io.EOF
	}
	n := int(groups[pr.group].NumRows())
	x, y = grow(x, n*len(pr.names)), grow(y, n)
	if pr.label == "" {
		clear(y)
	}
	if err := pr.readGroup(x, y); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// grow returns s with length n, reallocated only when its capacity is too small.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// readAll reads every row group into one Dataset.
func (pr *ParquetReader) readAll() (*Dataset, error) {
	rows, cols := pr.NumRows(), len(pr.names)
	if rows == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrEmpty)
	}
	ds := &Dataset{X: make([]float64, rows*cols), Y: make([]float64, rows), Rows: rows, Cols: cols,
		FeatureNames: slices.Clone(pr.names), LabelName: pr.label}
	for pr.group < len(pr.file.RowGroups()) {
		lo := pr.row
		if err := pr.readGroup(ds.X[lo*cols:], ds.Y[lo:]); err != nil {
			return nil, err
		}
	}
	if p := ds.Positives(); p == 0 || p == ds.Rows {
		return nil, fmt.Errorf("%w: all %d rows have label %v; both classes are needed", ErrOneClass, ds.Rows, ds.Y[0])
	}
	return ds, nil
}

// readGroup reads the next row group into x and y (at least its rows long), column by
// column, page by page, and reports progress.
func (pr *ParquetReader) readGroup(x, y []float64) error {
	rg := pr.file.RowGroups()[pr.group]
	n, cols := int(rg.NumRows()), len(pr.names)
	chunks := rg.ColumnChunks()
	for k, c := range pr.cols {
		isLabel := k == cols
		name := pr.label
		if !isLabel {
			name = pr.names[k]
		}
		store := func(i int, v float64) { x[i*cols+k] = v }
		if isLabel {
			store = func(i int, v float64) { y[i] = v }
		}
		if err := pr.readColumn(chunks[c], n, name, isLabel, store); err != nil {
			return err
		}
	}
	pr.bytes += pr.file.Metadata().RowGroups[pr.group].TotalCompressedSize
	pr.group++
	pr.row += n
	if pr.progress != nil {
		pr.progress(pr.row, pr.bytes)
	}
	return nil
}

// readColumn reads the n values of one column chunk, checking each, into store(row, value).
func (pr *ParquetReader) readColumn(chunk parquet.ColumnChunk, n int, name string, isLabel bool, store func(int, float64)) error {
	pages := chunk.Pages()
	defer pages.Close()
	i := 0
	for i < n {
		page, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("%w: column %q: %w", ErrMalformed, name, err)
		}
		err = pr.readPage(page, &i, n, name, isLabel, store)
		parquet.Release(page)
		if err != nil {
			return err
		}
	}
	if i != n {
		return fmt.Errorf("%w: column %q holds %d values for %d rows", ErrMalformed, name, i, n)
	}
	return nil
}

// readPage reads one page's values into store, from row *i on.
func (pr *ParquetReader) readPage(page parquet.Page, i *int, n int, name string, isLabel bool, store func(int, float64)) error {
	vr := page.Values()
	for {
		m, err := vr.ReadValues(pr.values)
		for _, v := range pr.values[:m] {
			if *i >= n {
				return fmt.Errorf("%w: column %q holds more values than the %d rows of its row group", ErrMalformed, name, n)
			}
			row := pr.row + *i
			if v.IsNull() {
				return fmt.Errorf("%w: column %q, row %d: null", ErrMissing, name, row)
			}
			f := number(v)
			switch {
			case isLabel && f != 0 && f != 1:
				return fmt.Errorf("%w: column %q, row %d: %v is not a label (want 0 or 1)", ErrLabel, name, row, f)
			case math.IsNaN(f) || math.IsInf(f, 0):
				return fmt.Errorf("%w: column %q, row %d: %v", ErrNotNumber, name, row, f)
			}
			store(*i, f)
			*i++
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: column %q: %w", ErrMalformed, name, err)
		}
	}
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
