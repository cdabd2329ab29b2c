package data

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/floats"
)

// ErrShape reports a dataset built by hand whose fields do not fit each other (see
// [Dataset.Validate]), a row index beyond its rows, or a Standardizer of other features.
var ErrShape = errors.New("data: inconsistent shape")

// A Dataset is a table of Rows labelled rows with Cols features each.
//
// The fields are exported so that the numbers can be handed to tensors without copying; a
// Dataset built by hand must keep them consistent (see [Dataset.Validate]).
//
// The features are stored once, in float64 (X) or in float32 (X32, half the memory, for a
// float32 model, which computes in float32 anyway): exactly one of X and X32 holds them, the
// other is nil. [Dataset.Float32] says which. Every function of the package takes either;
// code reading the features itself must look at both (or call [Dataset.Float64] on a small
// dataset).
type Dataset struct {
	// X holds the features row-major: feature j of row i is X[i*Cols+j]; len(X) = Rows·Cols.
	// It is nil when X32 holds them.
	X []float64
	// X32 holds the features instead of X, in X's layout, for a dataset stored in float32
	// (CSVConfig.Float32); nil for a dataset stored in float64.
	X32 []float32
	// Y holds the labels. Binary (Classes and Labels nil): 0 or 1 (1 = positive), len(Y) =
	// Rows. Multi-class (Classes set): the class index of each row, 0…k−1 held as a float64,
	// len(Y) = Rows. Multi-label (Labels set): a Rows×k row-major 0/1 indicator, label c of
	// row i at Y[i*k+c], len(Y) = Rows·k.
	Y []float64
	// Rows and Cols are the numbers of rows and of features.
	Rows, Cols int
	// FeatureNames names the Cols features, in order.
	FeatureNames []string
	// LabelName names the label column.
	LabelName string
	// Classes names the k ≥ 2 classes of a multi-class dataset, class c being Classes[c];
	// nil for a binary or multi-label dataset.
	Classes []string
	// Labels names the k ≥ 1 label columns of a multi-label dataset, column c being
	// Labels[c]; nil for a binary or multi-class dataset. At most one of Classes and Labels
	// is set.
	Labels []string
	// LabelValues are the label column's negative and positive values as the file writes them,
	// for a binary dataset read from text labels with CSVConfig.Positive (such as "No" and
	// "Yes"); nil for labels read as 0/1 (the numbers, or true and false).
	LabelValues []string
	// Levels, for a raw dataset read with CSVConfig.Text, names the levels of its text
	// (categorical) feature columns: Levels[j] lists column j's distinct values in order of first
	// appearance, and X (or X32) holds the index in it of each row's value, −1 for a value beyond
	// the column's first 65,536 distinct ones; nil for a numeric column, and nil when no column
	// is text. A raw dataset ([Dataset.Raw]), which may also hold NaN for missing values
	// (CSVConfig.Missing), is split as any other, and encoded by an [Encoder] before a
	// standardizer or a model takes it.
	Levels [][]string
}

// Task returns the task of ds's labels: [rocops.Classes](k) for a multi-class dataset of k
// classes (Classes set), [rocops.Labels](k) for a multi-label one of k label columns (Labels
// set), the binary task otherwise. Its K() is the number of scores per row a model of ds gives,
// its LabelsPerRow() the number of labels each row holds in Y.
func (ds *Dataset) Task() rocops.Task {
	switch {
	case ds.Classes != nil:
		return rocops.Classes(len(ds.Classes))
	case ds.Labels != nil:
		return rocops.Labels(len(ds.Labels))
	}
	return rocops.Task{}
}

// New returns a dataset over x (row-major, cols features per row) and labels y, after
// checking them with [Dataset.Validate]. It does not copy x or y. The features are named
// "x1" … "x<cols>" and the label "y"; set FeatureNames and LabelName to rename them.
func New(x, y []float64, cols int) (*Dataset, error) {
	names := make([]string, max(cols, 0))
	for j := range names {
		names[j] = "x" + strconv.Itoa(j+1)
	}
	ds := &Dataset{X: x, Y: y, Rows: len(y), Cols: cols, FeatureNames: names, LabelName: "y"}
	if err := ds.Validate(); err != nil {
		return nil, err
	}
	return ds, nil
}

// Validate checks that the fields are consistent, that every feature is finite and that
// every label is 0 or 1, or for a multi-class dataset a class index in 0…k−1.
func (ds *Dataset) Validate() error {
	if err := ds.checkShape(); err != nil {
		return err
	}
	if ds.Levels != nil {
		return fmt.Errorf("%w: raw text columns: encode them first (FitEncoder)", ErrShape)
	}
	k, v := firstNonFinite(ds.X)
	if ds.X32 != nil {
		k, v = firstNonFinite(ds.X32)
	}
	if k >= 0 {
		return fmt.Errorf("%w: row %d, feature %q is %v", ErrNotNumber, k/ds.Cols, ds.FeatureNames[k%ds.Cols], v)
	}
	if k := len(ds.Classes); k > 0 {
		for i, y := range ds.Y {
			if !(y >= 0 && y < float64(k)) || y != math.Trunc(y) {
				return check.Errorf("data", rocops.ErrLabel, "row %d has label %v, want a class index in 0…%d", i, y, k-1)
			}
		}
		return nil
	}
	w := ds.Task().LabelsPerRow()
	for i, y := range ds.Y {
		if y != 0 && y != 1 {
			if w > 1 {
				return check.Errorf("data", rocops.ErrLabel, "row %d, label %q is %v", i/w, ds.Labels[i%w], y)
			}
			return check.Errorf("data", rocops.ErrLabel, "row %d has label %v", i, y)
		}
	}
	return nil
}

// checkShape is the O(1) part of Validate, run by every function taking a Dataset.
func (ds *Dataset) checkShape() error {
	if err := ds.checkLabelShape(); err != nil {
		return err
	}
	switch {
	case ds.Cols < 1:
		return fmt.Errorf("%w: %d rows, %d features", ErrShape, ds.Rows, ds.Cols)
	case ds.X != nil && ds.X32 != nil:
		return fmt.Errorf("%w: both X and X32 are set", ErrShape)
	case ds.features()%ds.Cols != 0 || ds.features()/ds.Cols != ds.Rows: // not Rows·Cols, which could overflow
		return fmt.Errorf("%w: %d feature values for %d rows of %d", ErrShape, ds.features(), ds.Rows, ds.Cols)
	case len(ds.FeatureNames) != ds.Cols:
		return fmt.Errorf("%w: %d feature names for %d features", ErrShape, len(ds.FeatureNames), ds.Cols)
	}
	return nil
}

// checkLabelShape is the part of checkShape about the labels: Rows, Y, Classes and Labels.
func (ds *Dataset) checkLabelShape() error {
	switch {
	case ds == nil:
		return fmt.Errorf("%w: nil dataset", ErrShape)
	case ds.Rows < 0:
		return fmt.Errorf("%w: %d rows, %d features", ErrShape, ds.Rows, ds.Cols)
	case ds.Classes != nil && ds.Labels != nil:
		return fmt.Errorf("%w: both Classes and Labels are set", ErrShape)
	case ds.Classes != nil && len(ds.Classes) < 2:
		return fmt.Errorf("%w: %d classes, a multi-class dataset needs at least 2", ErrShape, len(ds.Classes))
	case ds.Labels != nil && len(ds.Labels) < 1:
		return fmt.Errorf("%w: a multi-label dataset needs at least one label column", ErrShape)
	}
	if w := ds.Task().LabelsPerRow(); len(ds.Y)%w != 0 || len(ds.Y)/w != ds.Rows {
		return fmt.Errorf("%w: %d labels for %d rows of %d", ErrShape, len(ds.Y), ds.Rows, w)
	}
	return nil
}

// firstNonFinite returns the index and value of the first NaN or ±Inf of x, or −1.
func firstNonFinite[T floats.Float](x []T) (int, float64) {
	for k, v := range x {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return k, f
		}
	}
	return -1, 0
}

// features returns the number of feature values ds holds, in X or X32.
func (ds *Dataset) features() int { return len(ds.X) + len(ds.X32) }

// Float32 reports whether ds stores its features in float32 (X32) rather than float64 (X).
func (ds *Dataset) Float32() bool { return ds.X32 != nil }

// Row returns the features of row i in float64, whatever the storage: for a dataset stored in
// float64, row i of ds.X, sharing its memory (capped, so appending to it cannot overwrite the
// next row); for one stored in float32, a new slice holding row i of ds.X32 widened (exactly).
// Like a slice index, it panics if i is out of range.
func (ds *Dataset) Row(i int) []float64 {
	if ds.X32 != nil {
		return floats.To64(rowOf(ds.X32, i, ds.Cols))
	}
	return rowOf(ds.X, i, ds.Cols)
}

// rowOf returns row i of the row-major matrix x of c columns, capped.
func rowOf[T floats.Float](x []T, i, c int) []T { return x[i*c : (i+1)*c : (i+1)*c] }

// Float64 returns ds with its features in float64: ds itself when it is stored in float64,
// else a new dataset holding a widened copy of X32 (exact) and sharing Y and the names with
// ds. It is meant for small datasets, such as the diagnostic sets drawn from a training set
// stored in float32: on a large one it holds the features three times over.
func (ds *Dataset) Float64() *Dataset {
	if ds.X32 == nil {
		return ds
	}
	out := *ds
	out.X, out.X32 = make([]float64, len(ds.X32)), nil
	for k, v := range ds.X32 {
		out.X[k] = float64(v)
	}
	return &out
}

// Positives returns the number of labels equal to 1: the positive rows of a binary dataset.
func (ds *Dataset) Positives() int {
	n := 0
	for _, y := range ds.Y {
		if y == 1 {
			n++
		}
	}
	return n
}

// Subset returns a new dataset holding copies of the rows idx of ds, in that order, stored as
// ds is (X or X32); indices may repeat.
func (ds *Dataset) Subset(idx []int) (*Dataset, error) {
	if err := ds.checkShape(); err != nil {
		return nil, err
	}
	for _, i := range idx {
		if i < 0 || i >= ds.Rows {
			return nil, fmt.Errorf("%w: row index %d, dataset has %d rows", ErrShape, i, ds.Rows)
		}
	}
	return ds.subset(idx), nil
}

// subset is Subset after validation.
func (ds *Dataset) subset(idx []int) *Dataset {
	w := ds.Task().LabelsPerRow()
	out := &Dataset{
		Y:            make([]float64, 0, len(idx)*w),
		Rows:         len(idx),
		Cols:         ds.Cols,
		FeatureNames: slices.Clone(ds.FeatureNames),
		LabelName:    ds.LabelName,
		Classes:      slices.Clone(ds.Classes),
		Labels:       slices.Clone(ds.Labels),
		LabelValues:  slices.Clone(ds.LabelValues),
		Levels:       ds.Levels,
	}
	if ds.X32 != nil {
		out.X32 = gatherRows(ds.X32, idx, ds.Cols)
	} else {
		out.X = gatherRows(ds.X, idx, ds.Cols)
	}
	for _, i := range idx {
		out.Y = append(out.Y, ds.Y[i*w:(i+1)*w]...)
	}
	return out
}

// gatherRows returns a new matrix of the rows idx of x (row-major, c columns).
func gatherRows[T floats.Float](x []T, idx []int, c int) []T {
	out := make([]T, 0, len(idx)*c)
	for _, i := range idx {
		out = append(out, rowOf(x, i, c)...)
	}
	return out
}
