package crossentropy_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/stretchr/testify/require"
)

// TestGradcheck compares the op's gradient on both machines with numerical derivatives, in
// float64 and float32 at the checker's default tolerances.
func TestGradcheck(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, n := range []int{1, 7, 40} {
			t.Run(fmt.Sprintf("%v/n=%d", dt, n), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(n), 3))
				z, y := make([]float64, n), make([]float64, n)
				for i := range z {
					z[i] = 6*r.Float64() - 3
					y[i] = float64(r.IntN(2))
				}
				g := gorgonia.NewGraph()
				f := input(t, g, dt, "z", z)
				cost, err := crossentropy.Loss(f, input(t, g, dt, "y", y), crossentropy.Config{})
				require.NoError(t, err)
				gradcheck.Assert(t, cost, gorgonia.Nodes{f}, gradcheck.Config{Lisp: gradcheck.LispRequire})
			})
		}
	}
}

func input(t *testing.T, g *gorgonia.ExprGraph, dt tensor.Dtype, name string, xs []float64) *gorgonia.Node {
	t.Helper()
	n, err := graph.Input(g, dt, name, xs)
	require.NoError(t, err)
	return n
}
