package train

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// Every training loss, alone and in a weighted sum, has the gradient its finite differences
// say, in float64 and float32 graphs, on both machines.
func TestLossGradients(t *testing.T) {
	scores := []float64{0.3, -1.2, 2.1, 0.4, -0.7, 1.5, 0.05, -2.2, 0.9, 1.1}
	labels := []float64{1, 0, 1, 0, 0, 1, 0, 0, 1, 0}
	losses := []Loss{
		CrossEntropy{},
		// Fixed bandwidths: the batch rule's bandwidths are held constant in the backward pass
		// by definition, which finite differences of the whole loss would not do.
		KDE{Config: kdequantile.Config{Alpha: 0.2, V0: 2, V1: 3}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic}},
		Weighted{{1, CrossEntropy{}}, {0.5, Pairwise{Config: pairwise.Config{Surrogate: pairwise.Square}}}},
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, l := range losses {
			t.Run(fmt.Sprintf("%v/%v", dt, l), func(t *testing.T) {
				g := gorgonia.NewGraph()
				f, err := graph.Input(g, dt, "f", scores)
				require.NoError(t, err)
				y, err := graph.Input(g, dt, "y", labels)
				require.NoError(t, err)
				cost, err := l.Build(f, y, rocops.Task{})
				require.NoError(t, err)
				gradcheck.Assert(t, cost, gorgonia.Nodes{f}, gradcheck.Config{Lisp: gradcheck.LispRequire})
			})
		}
	}
}

// A weighted sum's value is the weighted sum of its terms' values.
func TestWeightedValue(t *testing.T) {
	scores := []float64{0.3, -1.2, 2.1, 0.4}
	labels := []float64{1, 0, 1, 0}
	ce, err := crossentropy.Evaluate(scores, labels, crossentropy.Config{})
	require.NoError(t, err)
	sq, err := pairwise.Evaluate(scores, labels, pairwise.Config{Surrogate: pairwise.Square})
	require.NoError(t, err)

	g := gorgonia.NewGraph()
	f, err := graph.Input(g, tensor.Float64, "f", scores)
	require.NoError(t, err)
	y, err := graph.Input(g, tensor.Float64, "y", labels)
	require.NoError(t, err)
	cost, err := Weighted{{2, CrossEntropy{}}, {-0.25, Pairwise{Config: pairwise.Config{Surrogate: pairwise.Square}}}}.Build(f, y, rocops.Task{})
	require.NoError(t, err)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	require.NoError(t, vm.RunAll())
	got, err := scalarOf(cost.Value())
	require.NoError(t, err)
	require.InDelta(t, 2*ce-0.25*sq, got, 1e-14)

	_, err = Weighted{}.Build(f, y, rocops.Task{})
	require.Error(t, err)
	_, err = Weighted{{math.Inf(1), CrossEntropy{}}}.Build(f, y, rocops.Task{})
	require.Error(t, err)
}

// Every loss's String names all of its settings.
func TestLossStrings(t *testing.T) {
	for _, c := range []struct {
		loss Loss
		want string
	}{
		{CrossEntropy{}, "ce"},
		{KDE{Config: kdequantile.Config{Alpha: 0.1}}, "kde(alpha=0.1, v0=0, v1=0)"},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic}}, "logistic(pairs=all)"},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.Exponential}}, "exp(pairs=all)"},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.Square}}, "square(margin=1, pairs=all)"},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}, "sqhinge(margin=1, pairs=all)"},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge, Margin: 0.5, Pairs: 64, Seed: 3}}, "hinge(margin=0.5, pairs=64, seed=3)"},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, OvO: true}}, "sqhinge(margin=1, pairs=all, ovo)"},
	} {
		require.Equal(t, c.want, c.loss.String())
	}
}
