package train

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// roundedPair returns ds with its features rounded to float32, stored in float64 (X, exact
// float32 values) and in float32 (X32).
func roundedPair(ds *data.Dataset) (r64, r32 *data.Dataset) {
	a, b := *ds, *ds
	a.X, b.X, b.X32 = make([]float64, len(ds.X)), nil, make([]float32, len(ds.X))
	for k, v := range ds.X {
		b.X32[k] = float32(v)
		a.X[k] = float64(b.X32[k])
	}
	return &a, &b
}

// paramBits returns the bits of m's parameters, float32 or float64.
func paramBits(t *testing.T, m nn.Model) [][]uint64 {
	t.Helper()
	var out [][]uint64
	for _, p := range m.Params() {
		var bits []uint64
		switch v := p.Value.Data().(type) {
		case []float32:
			for _, x := range v {
				bits = append(bits, uint64(math.Float32bits(x)))
			}
		case []float64:
			for _, x := range v {
				bits = append(bits, math.Float64bits(x))
			}
		default:
			require.Fail(t, fmt.Sprintf("parameter %s holds %T", p.Name, v))
		}
		out = append(out, bits)
	}
	return out
}

// TestFitFloat32Storage trains the same model on a dataset stored in float32 and on the
// float64 dataset of the same values (the features rounded to float32 first): the weights,
// the losses, the validation metrics and the diagnoses are identical bit for bit, for float32
// and float64 models, through the direct step (cross-entropy, KDE) and the graph step
// (pairwise). The batch gather reads X32 where it reads X, and the values are the same
// numbers, so nothing may differ; the validation data are scored through nn.Scores of X32 and the
// diagnostic sets widened. The hidden layer is 16 wide: a float32 MLP with a hidden layer
// narrower than 16 (the float32 kernels' tile width) does not give the same weights twice on
// the same float64 data, a matter apart from the storage.
func TestFitFloat32Storage(t *testing.T) {
	tr64, tr32 := roundedPair(blobs(t, 400, 5, 0.25, 1.5, 3))
	va64, va32 := roundedPair(blobs(t, 200, 5, 0.25, 1.5, 4))
	losses := []Loss{
		CrossEntropy{},
		KDE{Config: kdequantile.Config{Alpha: 0.1}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
	}
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		for _, loss := range losses {
			for _, diag := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v/%s/diagnose=%v", dt, loss, diag), func(t *testing.T) {
					cfg := Config{Loss: loss, Epochs: 3, BatchSize: 64, Seed: 7}
					if diag {
						cfg.Diagnose = &Diagnose{Every: 2, Selection: 64, Pool: 128}
					}
					run := func(tr, va *data.Dataset) (*History, [][]uint64) {
						m, err := nn.NewMLP(nn.MLPConfig{In: 5, Hidden: []int{16}, Dtype: dt, Seed: 2})
						require.NoError(t, err)
						h, err := fitWarm(t, m, cfg, 1, tr, va)
						require.NoError(t, err)
						return h, paramBits(t, m)
					}
					h64, p64 := run(tr64, va64)
					h32, p32 := run(tr32, va32)
					require.Equal(t, p64, p32, "weights")
					require.Equal(t, fmt.Sprintf("%v", h64), fmt.Sprintf("%v", h32), "history")
					require.Equal(t, diag, len(h32.Diagnoses) > 0)
					require.Len(t, h32.Epochs, 4)
				})
			}
		}
	}
}
