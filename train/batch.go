package train

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/opkit"
)

// fillBatch copies the rows idx of ds into x (len(idx) × ds.Cols) and, when y is not nil,
// their labels into y (len(idx) × w, w = ds.Task().LabelsPerRow()), converting to the tensors'
// dtype: from ds.X or, for a dataset stored in float32, ds.X32.
func fillBatch(x, y *tensor.Dense, ds *data.Dataset, idx []int) error {
	if ds.Float32() {
		return fillFrom(x, y, ds.X32, ds, idx)
	}
	return fillFrom(x, y, ds.X, ds, idx)
}

// fillFrom is fillBatch from the features src of ds.
func fillFrom[S floats.Float](x, y *tensor.Dense, src []S, ds *data.Dataset, idx []int) error {
	switch x.Dtype() {
	case tensor.Float64:
		gather(x.Float64s(), labelData(y, (*tensor.Dense).Float64s), src, ds, idx)
	case tensor.Float32:
		gather(x.Float32s(), labelData(y, (*tensor.Dense).Float32s), src, ds, idx)
	default:
		return fmt.Errorf("train: unsupported batch dtype %v", x.Dtype())
	}
	return nil
}

// gather copies the rows idx of src (ds's features) into x and their labels into y, each
// value converted to T (rounded to nearest from float64 to float32).
func gather[T, S floats.Float](x, y []T, src []S, ds *data.Dataset, idx []int) {
	c, w := ds.Cols, ds.Task().LabelsPerRow()
	for k, r := range idx {
		row := src[r*c : (r+1)*c]
		dst := x[k*c : (k+1)*c]
		for j, v := range row {
			dst[j] = T(v)
		}
		if y != nil {
			for j, v := range ds.Y[r*w : (r+1)*w] {
				y[k*w+j] = T(v)
			}
		}
	}
}

// gatherLabels copies the labels of the rows idx of ds into y (len(idx) × the labels per row).
func gatherLabels(y []float64, ds *data.Dataset, idx []int) {
	w := ds.Task().LabelsPerRow()
	for k, r := range idx {
		copy(y[k*w:(k+1)*w], ds.Y[r*w:(r+1)*w])
	}
}

// labelData returns y's elements, or nil for a nil y.
func labelData[T floats.Float](y *tensor.Dense, data func(*tensor.Dense) []T) []T {
	if y == nil {
		return nil
	}
	return data(y)
}

// scalarOf reads a scalar graph value.
func scalarOf(v gorgonia.Value) (float64, error) {
	x, err := opkit.Scalar(v)
	if err != nil {
		return 0, fmt.Errorf("train: reading the loss: %w", err)
	}
	return x, nil
}
