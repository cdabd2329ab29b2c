package data

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/rocops/rocops/internal/check"
)

// Errors about datasets built or indexed by hand.
var (
	ErrShape = errors.New("data: inconsistent shape")
	ErrIndex = errors.New("data: row index out of range")
)

// A Dataset is a table of Rows labelled rows with Cols features each.
//
// The fields are exported so that the numbers can be handed to tensors without copying; a
// Dataset built by hand must keep them consistent (see [Dataset.Validate]).
type Dataset struct {
	// X holds the features row-major: feature j of row i is X[i*Cols+j]; len(X) = Rows·Cols.
	X []float64
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
}

// LabelWidth returns the number of labels each row holds in Y: k for a multi-label dataset,
// 1 otherwise.
func (ds *Dataset) LabelWidth() int {
	if ds.Labels != nil {
		return len(ds.Labels)
	}
	return 1
}

// Outputs returns the number of scores per row a model of ds gives: k for a multi-class or
// multi-label dataset of k classes or labels, 1 for a binary one.
func (ds *Dataset) Outputs() int {
	if ds.Classes != nil {
		return len(ds.Classes)
	}
	return ds.LabelWidth()
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
	for k, v := range ds.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: row %d, feature %q is %v", ErrNotNumber, k/ds.Cols, ds.FeatureNames[k%ds.Cols], v)
		}
	}
	if k := len(ds.Classes); k > 0 {
		for i, y := range ds.Y {
			if !(y >= 0 && y < float64(k)) || y != math.Trunc(y) {
				return check.Errorf("data", ErrLabel, "row %d has label %v, want a class index in 0…%d", i, y, k-1)
			}
		}
		return nil
	}
	w := ds.LabelWidth()
	for i, y := range ds.Y {
		if y != 0 && y != 1 {
			if w > 1 {
				return check.Errorf("data", ErrLabel, "row %d, label %q is %v", i/w, ds.Labels[i%w], y)
			}
			return check.Errorf("data", ErrLabel, "row %d has label %v", i, y)
		}
	}
	return nil
}

// checkShape is the O(1) part of Validate, run by every function taking a Dataset.
func (ds *Dataset) checkShape() error {
	switch {
	case ds == nil:
		return fmt.Errorf("%w: nil dataset", ErrShape)
	case ds.Rows < 0 || ds.Cols < 1:
		return fmt.Errorf("%w: %d rows, %d features", ErrShape, ds.Rows, ds.Cols)
	case len(ds.X) != ds.Rows*ds.Cols:
		return fmt.Errorf("%w: %d feature values for %d rows of %d", ErrShape, len(ds.X), ds.Rows, ds.Cols)
	case ds.Classes != nil && ds.Labels != nil:
		return fmt.Errorf("%w: both Classes and Labels are set", ErrShape)
	case ds.Classes != nil && len(ds.Classes) < 2:
		return fmt.Errorf("%w: %d classes, a multi-class dataset needs at least 2", ErrShape, len(ds.Classes))
	case ds.Labels != nil && len(ds.Labels) < 1:
		return fmt.Errorf("%w: a multi-label dataset needs at least one label column", ErrShape)
	case len(ds.Y)%ds.LabelWidth() != 0 || len(ds.Y)/ds.LabelWidth() != ds.Rows:
		return fmt.Errorf("%w: %d labels for %d rows of %d", ErrShape, len(ds.Y), ds.Rows, ds.LabelWidth())
	case len(ds.FeatureNames) != ds.Cols:
		return fmt.Errorf("%w: %d feature names for %d features", ErrShape, len(ds.FeatureNames), ds.Cols)
	}
	return nil
}

// Row returns the features of row i, sharing memory with ds.X (capped, so appending to it
// cannot overwrite the next row). Like a slice index, it panics if i is out of range.
func (ds *Dataset) Row(i int) []float64 {
	return ds.X[i*ds.Cols : (i+1)*ds.Cols : (i+1)*ds.Cols]
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

// Subset returns a new dataset holding copies of the rows idx of ds, in that order;
// indices may repeat.
func (ds *Dataset) Subset(idx []int) (*Dataset, error) {
	if err := ds.checkShape(); err != nil {
		return nil, err
	}
	for _, i := range idx {
		if i < 0 || i >= ds.Rows {
			return nil, fmt.Errorf("%w: %d, dataset has %d rows", ErrIndex, i, ds.Rows)
		}
	}
	return ds.subset(idx), nil
}

// subset is Subset after validation.
func (ds *Dataset) subset(idx []int) *Dataset {
	w := ds.LabelWidth()
	out := &Dataset{
		X:            make([]float64, 0, len(idx)*ds.Cols),
		Y:            make([]float64, 0, len(idx)*w),
		Rows:         len(idx),
		Cols:         ds.Cols,
		FeatureNames: slices.Clone(ds.FeatureNames),
		LabelName:    ds.LabelName,
		Classes:      slices.Clone(ds.Classes),
		Labels:       slices.Clone(ds.Labels),
	}
	for _, i := range idx {
		out.X = append(out.X, ds.Row(i)...)
		out.Y = append(out.Y, ds.Y[i*w:(i+1)*w]...)
	}
	return out
}
