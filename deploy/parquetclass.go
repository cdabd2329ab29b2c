package deploy

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/rocops/rocops/data"
)

// hasColumns reports whether the Parquet file r of size bytes has every one of names as a
// column.
func hasColumns(r io.ReaderAt, size int64, names []string) (bool, error) {
	file, err := parquet.OpenFile(r, size, parquet.SkipBloomFilters(true))
	if err != nil {
		return false, fmt.Errorf("%w: %w", data.ErrMalformed, err)
	}
	fields := file.Schema().Fields()
	for _, name := range names {
		if !slices.ContainsFunc(fields, func(f parquet.Field) bool { return f.Name() == name }) {
			return false, nil
		}
	}
	return true, nil
}

// classColumn reads the label column of a multi-class model from a Parquet file, one row
// group at a time, as class names (see [Scorer.ScoreParquet]).
type classColumn struct {
	file   *parquet.File
	col    int // the column's index in the file
	name   string
	group  int // the next row group
	row    int // rows read so far
	values []parquet.Value
}

// openClassColumn opens the column name of the Parquet file r (size bytes) as class names; it
// returns nil when the file has no such column, and an error wrapping data.ErrColumnType for a
// column that is nested, repeated, or of a type that holds no class name.
func openClassColumn(r io.ReaderAt, size int64, name string) (*classColumn, error) {
	file, err := parquet.OpenFile(r, size, parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", data.ErrMalformed, err)
	}
	fields := file.Schema().Fields()
	j := slices.IndexFunc(fields, func(f parquet.Field) bool { return f.Name() == name })
	if j < 0 {
		return nil, nil
	}
	fld := fields[j]
	if !fld.Leaf() || fld.Repeated() {
		return nil, fmt.Errorf("%w: label column %q is nested or repeated", data.ErrColumnType, name)
	}
	switch kind := fld.Type().Kind(); kind {
	case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double, parquet.ByteArray, parquet.FixedLenByteArray:
	default:
		return nil, fmt.Errorf("%w: label column %q has type %v", data.ErrColumnType, name, kind)
	}
	return &classColumn{file: file, col: j, name: name, values: make([]parquet.Value, 1024)}, nil
}

// next appends the class names of the next row group to dst; at the end of the file it
// returns io.EOF.
func (c *classColumn) next(dst []string) ([]string, error) {
	groups := c.file.RowGroups()
	if c.group >= len(groups) {
		return dst, io.EOF
	}
	rg := groups[c.group]
	n := int(rg.NumRows())
	pages := rg.ColumnChunks()[c.col].Pages()
	defer pages.Close()
	start := len(dst)
	for len(dst)-start < n {
		page, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return dst, fmt.Errorf("%w: column %q: %w", data.ErrMalformed, c.name, err)
		}
		dst, err = c.readPage(page, dst, start, n)
		parquet.Release(page)
		if err != nil {
			return dst, err
		}
	}
	if len(dst)-start != n {
		return dst, fmt.Errorf("%w: column %q holds %d values for %d rows", data.ErrMalformed, c.name, len(dst)-start, n)
	}
	c.group++
	c.row += n
	return dst, nil
}

// readPage appends the class names of one page to dst, which holds the row group's first
// len(dst)−start of its n rows.
func (c *classColumn) readPage(page parquet.Page, dst []string, start, n int) ([]string, error) {
	vr := page.Values()
	for {
		m, err := vr.ReadValues(c.values)
		for _, v := range c.values[:m] {
			i := len(dst) - start
			if i >= n {
				return dst, fmt.Errorf("%w: column %q holds more values than the %d rows of its row group", data.ErrMalformed, c.name, n)
			}
			name, missing := className(v)
			if missing != "" {
				return dst, fmt.Errorf("%w: column %q, row %d: %s", data.ErrMissing, c.name, c.row+i+1, missing)
			}
			dst = append(dst, name)
		}
		if errors.Is(err, io.EOF) {
			return dst, nil
		}
		if err != nil {
			return dst, fmt.Errorf("%w: column %q: %w", data.ErrMalformed, c.name, err)
		}
	}
}

// className returns a Parquet value as a class name: text by data.ClassName, a boolean as 0
// or 1, an integer in decimal, a floating-point number in Go's shortest formatting. For a
// missing value — a null, a NaN, text that data.ClassName refuses — it returns "" and what
// was found.
func className(v parquet.Value) (name, missing string) {
	if v.IsNull() {
		return "", "null"
	}
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		text := string(v.ByteArray())
		name, err := data.ClassName(text)
		if err != nil {
			return "", fmt.Sprintf("missing value %q", text)
		}
		return name, ""
	case parquet.Boolean:
		if v.Boolean() {
			return "1", ""
		}
		return "0", ""
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10), ""
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10), ""
	}
	f, bits := v.Double(), 64
	if v.Kind() == parquet.Float {
		f, bits = float64(v.Float()), 32
	}
	if math.IsNaN(f) {
		return "", "NaN"
	}
	return strconv.FormatFloat(f, 'g', -1, bits), ""
}
