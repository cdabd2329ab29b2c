//go:build openblas

package train

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/internal/sgemm"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/optim"
)

// TestOpenBLASMatchesGonum: the openblas build gives the losses and gradients of the pure-Go
// BLAS of the default build (gonum's, with the module's kernels: sgemm.Implementation) to
// 1e-12 (relative to max(1, |x|)): one step of optim.SGD with learning rate 1, whose update
// is the gradient, through the direct step and the graph step, per loss, float64.
func TestOpenBLASMatchesGonum(t *testing.T) {
	const tol = 1e-12
	require.Equal(t, "openblas", nn.BLAS())
	openblas := gorgonia.WhichBLAS()
	defer gorgonia.Use(openblas)
	const batch, in = 256, 30
	ds := blobs(t, batch, in, 0.1, 1, 5)
	idx := make([]int, batch)
	for i := range idx {
		idx[i] = i
	}
	type result struct {
		loss   float64
		params [][]float64
	}
	stepWith := func(t *testing.T, b gorgonia.BLAS, loss Loss, graphed bool) result {
		gorgonia.Use(b)
		m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{64}, Seed: 1})
		require.NoError(t, err)
		opt, err := optim.NewStepper(optim.SGD, 1)
		require.NoError(t, err)
		var st step
		if graphed {
			st, err = newGraphStep(m, loss, rocops.Task{}, batch, in, opt)
		} else {
			st, err = newStep(m, loss, rocops.Task{}, batch, in, Config{Optimizer: optim.SGD, LearningRate: 1})
		}
		require.NoError(t, err)
		defer st.close()
		l, err := st.run(ds, idx)
		require.NoError(t, err)
		r := result{loss: l}
		for _, p := range m.Params() {
			v, err := opkit.Floats(p.Value)
			require.NoError(t, err)
			r.params = append(r.params, append([]float64(nil), v...))
		}
		return r
	}
	for _, loss := range []Loss{
		CrossEntropy{},
		KDE{Config: kdequantile.Config{Alpha: 0.1}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic}},
	} {
		for _, graphed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/graph=%v", loss, graphed), func(t *testing.T) {
				want := stepWith(t, sgemm.Implementation{}, loss, graphed)
				got := stepWith(t, openblas, loss, graphed)
				require.InDelta(t, want.loss, got.loss, tol*max(1, math.Abs(want.loss)), "loss")
				for i := range want.params {
					for k := range want.params[i] {
						require.InDelta(t, want.params[i][k], got.params[i][k], tol*max(1, math.Abs(want.params[i][k])), "param %d[%d]", i, k)
					}
				}
			})
		}
	}
}
