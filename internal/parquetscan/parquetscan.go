// Package parquetscan is the seam through which package deploy streams the rows of a Parquet
// file with package data's readers, without those readers being part of data's public
// surface. Package data implements the interfaces and sets the openers when it is initialised,
// so any package that imports data (deploy does) finds them set; before that they are nil.
//
// The readers check every value as data.LoadParquet does and report bad or damaged data with
// data's errors (data.ErrHeader, data.ErrColumnType, data.ErrMalformed, …).
package parquetscan

import "io"

// Rows streams the numeric columns of a Parquet file one row group at a time.
type Rows interface {
	// HasLabel reports whether the reader reads a label column (one the file has).
	HasLabel() bool
	// FeatureNames returns the names of the features, in order.
	FeatureNames() []string
	// LabelName returns the name of the label column ("" when it reads none).
	LabelName() string
	// NumRows returns the number of rows of the file.
	NumRows() int
	// Next reads the next row group into x (row-major, len(FeatureNames()) features per row)
	// and y (0/1 labels; zeros without a label column), reusing their memory when large
	// enough, and returns them with the group's rows; io.EOF at the end of the file. A bad
	// value is an error naming its column and row, returned with the rows of the group before
	// that row; a damaged group is data.ErrMalformed, with no rows.
	Next(x, y []float64) (_, _ []float64, err error)
}

// Classes reads one column of a Parquet file as class names, one row group at a time.
type Classes interface {
	// Next appends the class name of each row of the next row group to dst[:0] (as
	// data.ClassName of the value's CSV spelling) and returns it; io.EOF at the end.
	Next(dst []string) ([]string, error)
	// Fields is Next with the CSV field that spells each value, a null or a NaN as "".
	Fields(dst []string) ([]string, error)
}

var (
	// Columns opens the Parquet data in r (size bytes) for scoring: the named feature columns,
	// in the order given, and the label column label when it is not "" and the file has one.
	Columns func(r io.ReaderAt, size int64, features []string, label string) (Rows, error)
	// ClassColumn opens the column named column of the Parquet data in r (size bytes) as
	// class names; nil and no error when the file has no such column.
	ClassColumn func(r io.ReaderAt, size int64, column string) (Classes, error)
)
