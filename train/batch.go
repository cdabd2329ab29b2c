package train

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/train/data"
)

// fillBatch copies the rows idx of ds into x (len(idx) × ds.Cols) and their labels into y,
// converting to the tensors' dtype.
func fillBatch(x, y *tensor.Dense, ds *data.Dataset, idx []int) error {
	switch xd := x.Data().(type) {
	case []float64:
		gather(xd, y.Data().([]float64), ds, idx)
	case []float32:
		gather(xd, y.Data().([]float32), ds, idx)
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
		y[k] = T(ds.Y[r])
	}
}

// scalarOf reads a scalar graph value.
func scalarOf(v gorgonia.Value) (float64, error) {
	x, err := opkit.Scalar(v)
	if err != nil {
		return 0, fmt.Errorf("train: reading the loss: %w", err)
	}
	return x, nil
}
