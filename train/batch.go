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
// their labels into y, converting to the tensors' dtype.
func fillBatch(x, y *tensor.Dense, ds *data.Dataset, idx []int) error {
	switch x.Dtype() {
	case tensor.Float64:
		gather(x.Float64s(), labelData(y, (*tensor.Dense).Float64s), ds, idx)
	case tensor.Float32:
		gather(x.Float32s(), labelData(y, (*tensor.Dense).Float32s), ds, idx)
	default:
		return fmt.Errorf("train: unsupported batch dtype %v", x.Dtype())
	}
	return nil
}

func gather[T floats.Float](x, y []T, ds *data.Dataset, idx []int) {
	c := ds.Cols
	for k, r := range idx {
		row := ds.X[r*c : (r+1)*c]
		dst := x[k*c : (k+1)*c]
		for j, v := range row {
			dst[j] = T(v)
		}
		if y != nil {
			y[k] = T(ds.Y[r])
		}
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
