package nn

import (
	"fmt"
	"math"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/opkit"
	"github.com/stretchr/testify/require"
)

// TestGraphIndependentOfAddress: the Gorgonia graph of a model (the one train differentiates
// for a loss without a direct form, or for a model nn.Pass does not cover) gives scores and
// gradients that depend on the parameters' values, not on where they are allocated. As in
// TestPassIndependentOfAddress, each parameter is moved into a fresh slice starting 1, 2 or 3
// elements in, the graph is built again on the moved tensors, and the scores and the
// gradients of the cost Σᵢ wᵢ·sᵢ (s the scores, w fixed weights) must keep their bits: for a
// linear scorer of 5 inputs and MLPs of one hidden layer of 1, 6, 16, 17 or 64 units and of
// hidden layers of 20 then 3, 6 and 6, 3 and 20, 16 and 16, and 8 and 9 units, in both dtypes.
// Under gonum's own BLAS the float32 graphs with a hidden layer of 4 or more units above
// another (6 + 6, 3 + 20, 16 + 16, 8 + 9) were not independent of the address: the gradient
// through a layer of n units is dz·Wᵀ, which gonum's Sgemm forms with its float32 dot
// product over the n columns of W, whose rounding depends on where W starts within 16 bytes
// (it sums the terms before that boundary one at a time and the rest 4 at a time). The
// default build's BLAS, sgemm.Implementation, forms every product in an order fixed by the
// shapes; with the build tag openblas, OpenBLAS passes the test too. Build's graph computes
// its products with a Pass's routines; the same models written with Gorgonia's own ops
// (gorgoniaModel: Mul, BroadcastAdd, Rectify), as a model of another package is, take
// Gorgonia's products through the installed BLAS, and are checked alike.
func TestGraphIndependentOfAddress(t *testing.T) {
	const in, rows = 5, 64
	x := make([]float64, rows*in)
	for i := range x {
		x[i] = 2 * math.Sin(0.7*float64(i))
	}
	w := make([]float64, rows)
	for i := range w {
		w[i] = 0.3 * math.Cos(float64(i))
	}
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		for _, hidden := range [][]int{nil, {1}, {6}, {16}, {17}, {64}, {20, 3}, {6, 6}, {3, 20}, {16, 16}, {8, 9}} {
			for _, ops := range []string{"build", "gorgonia"} {
				t.Run(fmt.Sprintf("%v/hidden=%v/ops=%s", dt, hidden, ops), func(t *testing.T) {
					m, err := NewMLP(MLPConfig{In: in, Hidden: hidden, Seed: 3, Dtype: dt})
					require.NoError(t, err)
					var model Model = m
					if ops == "gorgonia" {
						model = gorgoniaModel{m}
					}
					run := func() (scores []float64, grads [][]float64) {
						g := gorgonia.NewGraph()
						cost, learnables, sn := weightedScoreCost(t, g, model, x, rows, w)
						_, err := gorgonia.Grad(cost, learnables...)
						require.NoError(t, err)
						vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learnables...))
						defer vm.Close()
						require.NoError(t, vm.RunAll())
						s, err := opkit.Floats(sn.Value().(*tensor.Dense))
						require.NoError(t, err)
						scores = append(scores, s...)
						for _, l := range learnables {
							gv, err := l.Grad()
							require.NoError(t, err)
							v, err := opkit.Floats(gv.(*tensor.Dense))
							require.NoError(t, err)
							grads = append(grads, append([]float64(nil), v...))
						}
						return scores, grads
					}
					s0, g0 := run()
					for off := 1; off < 4; off++ {
						for k := range m.layers {
							for _, pp := range []**tensor.Dense{&m.layers[k].weight, &m.layers[k].bias} {
								*pp = moved(*pp, off)
							}
						}
						s, g := run()
						sameBits(t, off, s, s0, g, g0)
					}
				})
			}
		}
	}
}
