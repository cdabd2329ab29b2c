package data_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rocops/rocops/data"
)

func ExampleReadCSV() {
	const text = `radius,texture,malignant
14.2,20.1,0
20.6,17.8,1
`
	ds, err := data.ReadCSV(strings.NewReader(text), data.CSVConfig{Label: "malignant"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Rows, "rows of", ds.FeatureNames, "labelled", ds.LabelName)
	fmt.Println(ds.Row(1), ds.Y[1])
	// Output:
	// 2 rows of [radius texture] labelled malignant
	// [20.6 17.8] 1
}

func ExampleReadCSV_errors() {
	const text = `radius,texture,malignant
14.2,20.1,0
12.4,abc,1
`
	_, err := data.ReadCSV(strings.NewReader(text), data.CSVConfig{})
	fmt.Println(err)
	var ce *data.CSVError
	if errors.As(err, &ce) {
		fmt.Println(ce.Line, ce.Column, errors.Is(err, data.ErrNotNumber))
	}
	// Output:
	// data: line 3, column "texture": "abc" is not a number
	// 3 texture true
}

func ExampleSplit() {
	ds, err := data.WDBC()
	if err != nil {
		fmt.Println(err)
		return
	}
	train, val, test, err := data.Split(ds, data.SplitConfig{Seed: 1}) // 60/20/20
	if err != nil {
		fmt.Println(err)
		return
	}
	std, err := data.FitStandardizer(train)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, part := range []*data.Dataset{train, val, test} {
		scaled, err := std.Apply(part)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d rows, %d positive\n", scaled.Rows, scaled.Positives())
	}
	// Output:
	// 341 rows, 127 positive
	// 115 rows, 43 positive
	// 113 rows, 42 positive
}
