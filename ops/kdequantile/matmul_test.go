package kdequantile_test

import (
	"math/rand/v2"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/stretchr/testify/require"
)

// TestLossOfMul: the scores of a linear model gorgonia.Mul(x, W) with a (d, 1) W are an (n, 1)
// matrix, which both ops take as the vector of n scores. Their gradients with respect to W,
// through the matrix product, match numerical derivatives on both machines.
func TestLossOfMul(t *testing.T) {
	const n, d = 24, 3
	rng := rand.New(rand.NewPCG(5, 9))
	xs := make([]float64, n*d)
	for i := range xs {
		xs[i] = rng.NormFloat64()
	}
	ys := make([]float64, n)
	for i := range ys {
		if i%3 == 0 {
			ys[i] = 1
		}
	}
	ops := []struct {
		name string
		op   func(f, y *gorgonia.Node, cfg kdequantile.Config) (*gorgonia.Node, error)
	}{{"Loss", kdequantile.Loss}, {"Threshold", kdequantile.Threshold}}
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			g := gorgonia.NewGraph()
			x := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(n, d), gorgonia.WithName("x"),
				gorgonia.WithValue(tensor.New(tensor.WithShape(n, d), tensor.WithBacking(append([]float64(nil), xs...)))))
			w := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(d, 1), gorgonia.WithName("W"),
				gorgonia.WithValue(tensor.New(tensor.WithShape(d, 1), tensor.WithBacking([]float64{0.8, -0.3, 0.5}))))
			y := vector(g, "y", ys)
			scores, err := gorgonia.Mul(x, w)
			require.NoError(t, err)
			cost, err := o.op(scores, y, kdequantile.Config{Alpha: 0.2, V0: 2, V1: 2})
			require.NoError(t, err, "an (n, 1) score node")
			gradcheck.Assert(t, cost, gorgonia.Nodes{w}, gradcheck.Config{Lisp: gradcheck.LispRequire})
		})
	}
}
