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

// The strata of a dataset group its rows by their labels, for every stratified draw: here the
// rows of each set of labels of a multi-label dataset, the sets in lexicographic order. PerRow
// gives each row's stratum, as metrics.BootstrapRows takes them.
func ExampleDataset_Strata() {
	const text = `x,spam,urgent
1,0,1
2,1,0
3,0,1
4,1,1
5,0,1
`
	ds, err := data.ReadCSV(strings.NewReader(text), data.CSVConfig{Labels: []string{"spam", "urgent"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	strata, err := ds.Strata()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Task(), "in", len(strata), "strata:", strata)
	fmt.Println("per row:", strata.PerRow())
	// Output:
	// 2 labels in 3 strata: [[0 2 4] [1] [3]]
	// per row: [0 1 0 2 0]
}

// Split deals every stratum to every part: multi-label rows by their set of labels, so each
// part holds each common set in proportion.
func ExampleSplit_multilabel() {
	ds := &data.Dataset{Cols: 1, FeatureNames: []string{"x"}, Labels: []string{"a", "b"}}
	for i := range 40 { // sets 00, 01, 10 and 11 on 10 rows each
		ds.X = append(ds.X, float64(i))
		ds.Y = append(ds.Y, float64(i%4/2), float64(i%2))
		ds.Rows++
	}
	train, val, test, err := data.Split(ds, data.SplitConfig{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, part := range []*data.Dataset{train, val, test} {
		strata, err := part.Strata()
		if err != nil {
			fmt.Println(err)
			return
		}
		sizes := []int{}
		for _, rows := range strata {
			sizes = append(sizes, len(rows))
		}
		fmt.Println(part.Rows, "rows, per set of labels", sizes)
	}
	// Output:
	// 24 rows, per set of labels [6 6 6 6]
	// 8 rows, per set of labels [2 2 2 2]
	// 8 rows, per set of labels [2 2 2 2]
}

// A raw table: a text column, blank and NA cells, a Yes/No label. The encoder, fitted on the
// training rows, imputes the median with a "was missing" feature and one-hot encodes the
// levels; a level it has not seen goes to "(other)" when the column has one, else nowhere.
func ExampleFitEncoder() {
	const train = `age,plan,churned
30,basic,No
,basic,Yes
41,pro,No
NA,basic,Yes
25,pro,No
`
	ds, err := data.ReadCSV(strings.NewReader(train), data.CSVConfig{Text: true, Missing: true, Positive: "Yes"})
	if err != nil {
		fmt.Println(err)
		return
	}
	enc, err := data.FitEncoder(ds, data.EncoderConfig{MinRows: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	x, err := enc.Apply(ds)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.LabelValues, ds.Y)
	fmt.Println(x.FeatureNames)
	fmt.Println(x.Row(1))
	row, err := enc.Encode(nil, []string{"", "enterprise"}) // new rows: a blank, a new level
	fmt.Println(row, err)
	// Output:
	// [No Yes] [0 1 0 1 0]
	// [age age (missing) plan=basic plan=pro]
	// [30 1 1 0]
	// [30 1 0 0] <nil>
}
