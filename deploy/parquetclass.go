package deploy

import (
	"io"

	"github.com/rocops/rocops/internal/parquetscan"
)

// classColumn reads the label column of a multi-class model from a Parquet file, one row
// group at a time, as class names (see [Scorer.ScoreParquet]): data's reader, which names the
// classes as data.LoadParquet names those a model trains on.
type classColumn struct{ r parquetscan.Classes }

// openClassColumn opens the column name of the Parquet file r (size bytes) as class names; it
// returns nil when the file has no such column, and an error wrapping data.ErrColumnType for a
// column that is nested, repeated, or of a type that holds no class name
// (parquetscan.ClassColumn).
func openClassColumn(r io.ReaderAt, size int64, name string) (*classColumn, error) {
	cr, err := parquetscan.ClassColumn(r, size, name)
	if cr == nil || err != nil {
		return nil, err
	}
	return &classColumn{cr}, nil
}

// next appends the class names of the next row group to dst; at the end of the file it
// returns io.EOF.
func (c *classColumn) next(dst []string) ([]string, error) { return c.r.Next(dst) }
