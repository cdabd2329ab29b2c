package data

import (
	"io"

	"github.com/rocops/rocops/internal/parquetscan"
)

// The streaming readers, for package deploy by way of internal/parquetscan.
func init() {
	parquetscan.Columns = func(r io.ReaderAt, size int64, features []string, label string) (parquetscan.Rows, error) {
		pr, err := newParquetColumnReader(r, size, features, CSVConfig{Label: label})
		if err != nil {
			return nil, err
		}
		return pr, nil
	}
	parquetscan.ClassColumn = func(r io.ReaderAt, size int64, column string) (parquetscan.Classes, error) {
		cr, err := newParquetClassReader(r, size, column)
		if err != nil || cr == nil {
			return nil, err
		}
		return cr, nil
	}
}
