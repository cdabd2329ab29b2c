package data_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"github.com/rocops/rocops/data"
)

// A Parquet file with a float, an integer and a boolean column and the label by name; Load
// picks the reader by the extension.
func ExampleLoad_parquet() {
	type row struct {
		Malignant bool    `parquet:"malignant"`
		Radius    float32 `parquet:"radius"`
		Visits    int64   `parquet:"visits"`
	}
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rows.parquet")
	rows := []row{{false, 14.25, 3}, {true, 20.5, 7}}
	if err := parquet.WriteFile(path, rows); err != nil {
		fmt.Println(err)
		return
	}
	ds, err := data.Load(path, data.CSVConfig{Label: "malignant"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Rows, "rows of", ds.FeatureNames, "labelled", ds.LabelName)
	fmt.Println(ds.Row(1), ds.Y[1])
	// Output:
	// 2 rows of [radius visits] labelled malignant
	// [20.5 7] 1
}
