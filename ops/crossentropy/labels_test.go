package crossentropy_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/ops/crossentropy"
)

// labelBatch returns n rows of k logits in [−4, 4] and their n×k 0/1 labels.
func labelBatch(seed uint64, n, k int) (z, y []float64) {
	r := rand.New(rand.NewPCG(seed, 7))
	z, y = make([]float64, n*k), make([]float64, n*k)
	for i := range z {
		z[i] = 8*r.Float64() - 4
		y[i] = float64(r.IntN(2))
	}
	return z, y
}

// TestLabelsIsFlatBinary: the loss of a Labels(k) task is the binary loss of the n·k cells,
// value and gradient bit for bit, also on a batch where a label column has one class.
func TestLabelsIsFlatBinary(t *testing.T) {
	for _, k := range []int{2, 3, 7} {
		z, y := labelBatch(uint64(k), 11, k)
		for i := 0; i < len(y); i += k {
			y[i] = 1 // column 0 all positive
		}
		cfg := crossentropy.Config{Task: rocops.Labels(k)}
		g, l, err := crossentropy.Gradient(z, y, cfg)
		require.NoError(t, err)
		wg, wl, err := crossentropy.Gradient(z, y, crossentropy.Config{})
		require.NoError(t, err)
		require.Equal(t, wl, l, "k = %d", k)
		require.Equal(t, wg, g, "k = %d", k)
		v, err := crossentropy.Evaluate(z, y, cfg)
		require.NoError(t, err)
		require.Equal(t, wl, v)
		into := make([]float64, len(z))
		v, err = crossentropy.GradientInto(into, z, y, cfg)
		require.NoError(t, err)
		require.Equal(t, wl, v)
		require.Equal(t, wg, into)
	}
	_, err := crossentropy.Evaluate([]float64{1, 2, 3}, []float64{0, 1, 0}, crossentropy.Config{Task: rocops.Labels(2)})
	require.ErrorIs(t, err, rocops.ErrLength)
	_, err = crossentropy.Evaluate([]float64{1, 2, 3, 4}, []float64{0, 1, 0.5, 1}, crossentropy.Config{Task: rocops.Labels(2)})
	require.ErrorIs(t, err, rocops.ErrLabel)
	// One label column is the binary loss in the multi-label layout.
	one, err := crossentropy.Evaluate([]float64{1, 2}, []float64{0, 1}, crossentropy.Config{Task: rocops.Labels(1)})
	require.NoError(t, err)
	bin, err := crossentropy.Evaluate([]float64{1, 2}, []float64{0, 1}, crossentropy.Config{})
	require.NoError(t, err)
	require.Equal(t, bin, one)
	_, err = crossentropy.Evaluate([]float64{1, 2}, []float64{0, 1}, crossentropy.Config{Task: rocops.Labels(0)})
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.ErrorContains(t, err, "crossentropy: invalid setting: Task = 0 labels")
}

// TestLabelsLossIsFlattenedOp: Loss on an (n, k) logit matrix with (n, k) labels gives the value
// and gradient, bit for bit, of the binary Loss on the flattened (n·k) vectors — the graph of
// the per-label cross-entropy before the task was a setting — in float64 and float32, on a
// TapeMachine; its gradient has the logits' shape.
func TestLabelsLossIsFlattenedOp(t *testing.T) {
	const n, k = 9, 4
	z, y := labelBatch(3, n, k)
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		run := func(flatten bool) (value any, grad any, shape tensor.Shape) {
			g := gorgonia.NewGraph()
			f := matrix(t, g, dt, "z", z, n, k)
			l := matrix(t, g, dt, "y", y, n, k)
			var cost *gorgonia.Node
			var err error
			if flatten {
				fs, err := gorgonia.Reshape(f, tensor.Shape{n * k})
				require.NoError(t, err)
				ls, err := gorgonia.Reshape(l, tensor.Shape{n * k})
				require.NoError(t, err)
				cost, err = crossentropy.Loss(fs, ls, crossentropy.Config{})
				require.NoError(t, err)
			} else {
				cost, err = crossentropy.Loss(f, l, crossentropy.Config{Task: rocops.Labels(k)})
				require.NoError(t, err)
			}
			_, err = gorgonia.Grad(cost, f)
			require.NoError(t, err)
			vm := gorgonia.NewTapeMachine(g)
			defer vm.Close()
			require.NoError(t, graph.RunAll(vm))
			gv, err := f.Grad()
			require.NoError(t, err)
			return cost.Value().Data(), gv.Data(), gv.Shape()
		}
		v, g, shape := run(false)
		wv, wg, _ := run(true)
		require.Equal(t, wv, v, "%v value", dt)
		require.Equal(t, wg, g, "%v gradient", dt)
		require.Equal(t, tensor.Shape{n, k}, shape)
	}
}

// TestLabelsGradcheck: Loss on a Labels task against finite differences, both machines, both
// dtypes.
func TestLabelsGradcheck(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, nk := range [][2]int{{1, 2}, {6, 3}} {
			n, k := nk[0], nk[1]
			t.Run(fmt.Sprintf("%v/n=%d/k=%d", dt, n, k), func(t *testing.T) {
				z, y := labelBatch(uint64(n), n, k)
				g := gorgonia.NewGraph()
				f := matrix(t, g, dt, "z", z, n, k)
				cost, err := crossentropy.Loss(f, matrix(t, g, dt, "y", y, n, k), crossentropy.Config{Task: rocops.Labels(k)})
				require.NoError(t, err)
				r := gradcheck.Assert(t, cost, gorgonia.Nodes{f}, gradcheck.Config{Lisp: gradcheck.LispRequire})
				require.Equal(t, []gradcheck.Machine{gradcheck.Tape, gradcheck.Lisp}, r.Machines)
			})
		}
	}
}
