package check_test

import (
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
	"github.com/stretchr/testify/require"
)

// TestNodeErrors builds every graph entry point on nodes that cannot feed it.
func TestNodeErrors(t *testing.T) {
	builders := []struct {
		name string
		op   func(f, l *gorgonia.Node) (*gorgonia.Node, error)
	}{
		{"kdequantile.Loss", func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Loss(f, l, kdeCfg) }},
		{"kdequantile.Threshold", func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Threshold(f, l, kdeCfg) }},
		{"pairwise.Loss", func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return pairwise.Loss(f, l, pairwise.Config{}) }},
		{"crossentropy.Loss", ceLoss},
		{"train.CrossEntropy", func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
			return train.CrossEntropy{}.Build(f, l, rocops.Task{})
		}},
	}
	g, other := gorgonia.NewGraph(), gorgonia.NewGraph()
	vec := func(g *gorgonia.ExprGraph, dt tensor.Dtype, name string, n int) *gorgonia.Node {
		return gorgonia.NewVector(g, dt, gorgonia.WithShape(n), gorgonia.WithName(name))
	}
	f64 := vec(g, tensor.Float64, "f64", 4)
	cases := []struct {
		name           string
		scores, labels *gorgonia.Node
		want           error
	}{
		{"nil scores", nil, f64, rocops.ErrNode},
		{"nil labels", f64, nil, rocops.ErrNode},
		{"two graphs", f64, vec(other, tensor.Float64, "far", 4), rocops.ErrNode},
		{"int dtype", vec(g, tensor.Int, "ints", 4), vec(g, tensor.Int, "ints2", 4), rocops.ErrNode},
		{"mixed dtypes", f64, vec(g, tensor.Float32, "f32", 4), rocops.ErrNode},
		{"matrix", gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(4, 2), gorgonia.WithName("m")), f64, rocops.ErrNode},
		{"no shape", gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("noshape")), f64, rocops.ErrNode},
		{"zero length", vec(g, tensor.Float64, "zero", 0), vec(g, tensor.Float64, "zero2", 0), rocops.ErrNode},
		{"lengths", f64, vec(g, tensor.Float64, "short", 3), rocops.ErrLength},
	}
	for _, b := range builders {
		for _, c := range cases {
			_, err := b.op(c.scores, c.labels)
			require.ErrorIs(t, err, c.want, "%s, %s: %v; want %v", b.name, c.name, err, c.want)
		}
	}
}

// TestReusedLispMachine: every loss op fails with its package's ErrMachineReused (the one value
// of internal/opkit) when a LispMachine runs it again after Reset, which would add its
// gradient a second time; a new machine per run works.
func TestReusedLispMachine(t *testing.T) {
	ops := []struct {
		name   string
		build  func(f, l *gorgonia.Node) (*gorgonia.Node, error)
		reused error
	}{
		{"kdequantile.Loss", func(f, l *gorgonia.Node) (*gorgonia.Node, error) { return kdequantile.Loss(f, l, kdeCfg) }, graph.ErrMachineReused},
		{"pairwise.Loss", func(f, l *gorgonia.Node) (*gorgonia.Node, error) {
			return pairwise.Loss(f, l, pairwise.Config{Surrogate: pairwise.SquaredHinge})
		}, graph.ErrMachineReused},
		{"crossentropy.Loss", ceLoss, graph.ErrMachineReused},
	}
	for _, o := range ops {
		g := gorgonia.NewGraph()
		_, err := o.build(vectorNode(g, "f", []float64{0.2, -1, 2, 0.5}), vectorNode(g, "l", []float64{1, 0, 0, 1}))
		require.NoError(t, err)
		vm := gorgonia.NewLispMachine(g)
		require.NoError(t, graph.RunAll(vm), "%s: first run", o.name)
		vm.Reset()
		err = graph.RunAll(vm)
		require.ErrorIs(t, err, o.reused, "%s: second run of one LispMachine: %v, want ErrMachineReused", o.name, err)
		vm.Close()
		fresh := gorgonia.NewLispMachine(g)
		require.NoError(t, graph.RunAll(fresh), "%s: a new LispMachine", o.name)
		fresh.Close()
	}
}
