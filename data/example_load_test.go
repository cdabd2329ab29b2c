package data_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
)

// A dataset over numbers already in memory: three rows of two features, not copied.
func ExampleNew() {
	x := []float64{
		1, 10,
		2, 20,
		3, 30,
	}
	ds, err := data.New(x, []float64{0, 1, 1}, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Rows, ds.Cols, ds.FeatureNames, ds.LabelName, ds.Positives(), ds.Row(2))
	_, err = data.New(x, []float64{0, 1}, 2) // two labels for three rows
	fmt.Println(errors.Is(err, data.ErrShape), err)
	// Output:
	// 3 2 [x1 x2] y 2 [3 30]
	// true data: inconsistent shape: 6 feature values for 2 rows of 2
}

// A CSV file on disk, read by name.
func ExampleLoadCSV() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rows.csv")
	const text = "radius,texture,label\n14.2,20.1,0\n20.6,17.8,1\n11.0,15.5,0\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	ds, err := data.LoadCSV(path, data.CSVConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Rows, "rows of", ds.FeatureNames, "labelled", ds.LabelName, ds.Y)
	// Output: 3 rows of [radius texture] labelled label [0 1 0]
}

// A Parquet file whose label is text of three values: a multi-class dataset, its classes
// sorted by name and Y holding their indices.
func ExampleLoadParquet() {
	type row struct {
		Width   float64 `parquet:"width"`
		Species string  `parquet:"species"`
	}
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rows.parquet")
	var rows []row // MinClassRows = 3 rows of each class
	for i, species := range []string{"setosa", "virginica", "versicolor"} {
		for j := range 3 {
			rows = append(rows, row{float64(i) + 0.1*float64(j), species})
		}
	}
	if err := parquet.WriteFile(path, rows); err != nil {
		fmt.Println(err)
		return
	}
	ds, err := data.LoadParquet(path, data.CSVConfig{Label: "species"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Task(), ds.Classes, ds.Y)
	// Output: 3 classes [setosa versicolor virginica] [0 0 0 2 2 2 1 1 1]
}

// The embedded Breast Cancer Wisconsin (Diagnostic) data, as its documentation counts it.
func ExampleWDBC() {
	ds, err := data.WDBC()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Rows, "rows,", ds.Cols, "features,", ds.Positives(), "malignant; first feature", ds.FeatureNames[0])
	// Output: 569 rows, 30 features, 212 malignant; first feature mean_radius
}

// A synthetic task: 200 rows, 10% positives by the teacher network's score, and a fifth of the
// positives swapped with as many negatives, which keeps 20 positives.
func ExampleTeacher() {
	ds, err := data.Teacher(data.TeacherConfig{Rows: 200, Cols: 5, Positive: 0.1, Noise: 0.2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	again, _ := data.Teacher(data.TeacherConfig{Rows: 200, Cols: 5, Positive: 0.1, Noise: 0.2, Seed: 1})
	fmt.Println(ds.Rows, ds.Cols, ds.Positives(), ds.Row(0)[0] == again.Row(0)[0])
	_, err = data.Teacher(data.TeacherConfig{Positive: 1})
	fmt.Println(errors.Is(err, rocops.ErrConfig))
	// Output:
	// 200 5 20 true
	// true
}

// A class name is the field trimmed; a missing-value marker is no class.
func ExampleClassName() {
	name, err := data.ClassName("  virginica ")
	fmt.Printf("%q %v\n", name, err)
	_, err = data.ClassName("NA")
	fmt.Println(errors.Is(err, data.ErrMissing))
	// Output:
	// "virginica" <nil>
	// true
}

func ExampleParseLabelList() {
	labels, err := data.ParseLabelList(" fraud, chargeback ,refund")
	fmt.Printf("%q %v\n", labels, err)
	_, err = data.ParseLabelList("a,,b")
	fmt.Println(errors.Is(err, rocops.ErrConfig))
	// Output:
	// ["fraud" "chargeback" "refund"] <nil>
	// true
}

// Stream a CSV row by row, reading only the fields wanted, with ReadCSV's rules and errors.
func ExampleNewTableReader() {
	const text = "id,radius,label\na,14.2,0\n\nb,20.6,1\nc,x,1\n"
	tr, err := data.NewTableReader(strings.NewReader(text), data.CSVConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Names())
	for {
		line, err := tr.Next()
		if err == io.EOF {
			break
		}
		radius, err := tr.Feature(1)
		if err != nil {
			fmt.Println(err)
			continue
		}
		label, _ := tr.Label(2)
		fmt.Println("line", line, radius, label)
	}
	// Output:
	// [id radius label]
	// line 2 14.2 0
	// line 4 20.6 1
	// data: line 5, column "radius": "x" is not a number
}

// One feature 1, 2, 3: mean 2 and population standard deviation √(2/3) ≈ 0.8165, so the rows
// become −1.2247, 0, 1.2247; a new value 4 becomes 2/√(2/3) ≈ 2.4495.
func ExampleFitStandardizer() {
	ds, _ := data.New([]float64{1, 2, 3}, []float64{0, 1, 0}, 1)
	st, err := data.FitStandardizer(ds)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean %.4f, std %.4f\n", st.Mean, st.Std)
	out, _ := st.Apply(ds)
	fmt.Printf("%.4f\n", out.X)
	row, _ := st.Transform([]float64{4})
	fmt.Printf("%.4f\n", row)
	// Output:
	// mean [2.0000], std [0.8165]
	// [-1.2247 0.0000 1.2247]
	// [2.4495]
}

// The preparation of every comparison: split, then standardise with the training part's
// statistics, so the training part has mean 0 and standard deviation 1 and the others do not
// exactly. The dataset itself is unchanged.
func ExampleSplitStandardized() {
	ds, _ := data.WDBC()
	first := ds.X[0]
	train, val, test, st, err := data.SplitStandardized(ds, data.SplitConfig{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(train.Rows, val.Rows, test.Rows, ds.X[0] == first)
	mean := func(d *data.Dataset) float64 { // of the first feature
		s := 0.0
		for i := range d.Rows {
			s += d.X[i*d.Cols]
		}
		return s / float64(d.Rows)
	}
	fmt.Printf("mean radius: fitted %.3f; standardised: train %v, test %.3f\n",
		st.Mean[0], math.Abs(mean(train)) < 1e-12, mean(test))
	// Output:
	// 341 115 113 true
	// mean radius: fitted 14.005; standardised: train true, test 0.057
}

// SplitStandardizedInPlace gives SplitStandardized's parts and Standardizer in ds's own
// memory, consuming it.
func ExampleSplitStandardizedInPlace() {
	a, _ := data.WDBC()
	b, _ := data.WDBC()
	cfg := data.SplitConfig{Seed: 1}
	train, _, test, st, err := data.SplitStandardized(a, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	trainIn, _, testIn, stIn, err := data.SplitStandardizedInPlace(b, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	same := st.Mean[3] == stIn.Mean[3] && train.X[5] == trainIn.X[5] && test.X[7] == testIn.X[7]
	fmt.Println(same, &trainIn.X[0] == &b.X[0])
	// Output: true true
}

// The encoding of each raw column after FitEncoder (the table of ExampleFitEncoder): age keeps
// its training median (30 + 25 + 41 sorted, the middle one) and a "was missing" feature, plan
// its two levels.
func ExampleEncodedColumn() {
	const train = "age,plan,churned\n30,basic,No\n,basic,Yes\n41,pro,No\nNA,basic,Yes\n25,pro,No\n"
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
	for _, c := range enc.Columns {
		fmt.Printf("%+v\n", c)
	}
	// Output:
	// {Name:age Text:false Levels:[] Other:false Median:30 Missing:true Empty:false}
	// {Name:plan Text:true Levels:[basic pro] Other:false Median:0 Missing:false Empty:false}
}

// The strata of binary data are its negatives (stratum 0) and positives (stratum 1); PerRow
// gives each row's stratum, as metrics.BootstrapRows takes them.
func ExampleStrata_PerRow() {
	ds, _ := data.New([]float64{5, 6, 7, 8}, []float64{0, 1, 1, 0}, 1)
	strata, err := ds.Strata()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strata, strata.PerRow())
	// Output: [[0 3] [1 2]] [0 1 1 0]
}
