package nn

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/ops/crossentropy"
)

// outputModels are k-output networks: a linear one and MLPs of one and two hidden layers.
func outputModels(t *testing.T, dt tensor.Dtype, k int) map[string]*MLP {
	t.Helper()
	return map[string]*MLP{
		"linear":   newMLP(t, MLPConfig{In: 5, Outputs: k, Seed: 3, Dtype: dt}),
		"relu":     newMLP(t, MLPConfig{In: 5, Hidden: []int{7}, Outputs: k, Seed: 4, Dtype: dt}),
		"tanh 2":   newMLP(t, MLPConfig{In: 5, Hidden: []int{6, 4}, Activation: Tanh, Outputs: k, Seed: 5, Dtype: dt}),
		"identity": newMLP(t, MLPConfig{In: 5, Hidden: []int{3}, Activation: Identity, Outputs: k, Seed: 6, Dtype: dt}),
	}
}

// TestOutputsGraphPassAndScores: a k-output model's graph gives a (B, k) score matrix equal to
// the plain-Go reference; the Pass gives the same scores and, for the cost c = Σ_ic w_ic·s_ic
// (∂c/∂s = w), the graph's parameter gradients; Scores gives B·k row-major scores.
func TestOutputsGraphPassAndScores(t *testing.T) {
	tol := map[tensor.Dtype]float64{tensor.Float64: 1e-12, tensor.Float32: 1e-5}
	const rows, k = 9, 3
	x := randomRows(21, rows, 5)
	w := randomRows(22, rows, k)
	for _, dt := range dtypes {
		for name, m := range outputModels(t, dt, k) {
			t.Run(fmt.Sprintf("%v/%s", dt, name), func(t *testing.T) {
				require.Equal(t, k, m.Outputs())
				require.Equal(t, k, Outputs(m))
				g := gorgonia.NewGraph()
				xv, err := newMatrix(dt, rows, 5, x)
				require.NoError(t, err)
				wv, err := newMatrix(dt, rows, k, w)
				require.NoError(t, err)
				xn := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, 5), gorgonia.WithValue(xv), gorgonia.WithName("x"))
				wn := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, k), gorgonia.WithValue(wv), gorgonia.WithName("w"))
				scores, learnables, err := m.Build(g, xn)
				require.NoError(t, err)
				require.Equal(t, tensor.Shape{rows, k}, scores.Shape())
				prod, err := gorgonia.HadamardProd(scores, wn)
				require.NoError(t, err)
				cost, err := gorgonia.Sum(prod)
				require.NoError(t, err)
				_, err = gorgonia.Grad(cost, learnables...)
				require.NoError(t, err)
				vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learnables...))
				defer vm.Close()
				require.NoError(t, vm.RunAll())
				graphScores, err := opkit.Floats(scores.Value())
				require.NoError(t, err)
				ref := referenceScores(t, m.Params(), m.act, x, rows)
				assertClose(t, "graph scores", graphScores, ref, tol[dt])

				p, err := NewPass(m, rows)
				require.NoError(t, err)
				require.NoError(t, p.setInput(x))
				assertClose(t, "pass scores", p.Forward(), ref, tol[dt])
				require.NoError(t, p.Backward(w))
				for i, l := range learnables {
					gv, err := l.Grad()
					require.NoError(t, err)
					want, err := opkit.Floats(gv)
					require.NoError(t, err)
					got, err := opkit.Floats(p.Grads()[i])
					require.NoError(t, err)
					assertClose(t, l.Name(), got, want, tol[dt])
				}
				require.ErrorIs(t, p.Backward(w[:rows]), ErrInput, "B values for B·k scores")

				got, err := Scores(m, x, rows)
				require.NoError(t, err)
				assertClose(t, "Scores", got, ref, tol[dt])
			})
		}
	}
}

// TestOutputsGradcheck: the softmax cross-entropy of a k-output MLP's scores, differentiated
// through the model by both machines, against finite differences.
func TestOutputsGradcheck(t *testing.T) {
	const rows, k = 6, 4
	for _, dt := range dtypes {
		t.Run(dt.String(), func(t *testing.T) {
			m := newMLP(t, MLPConfig{In: 3, Hidden: []int{5}, Activation: Tanh, Outputs: k, Seed: 9, Dtype: dt})
			g := gorgonia.NewGraph()
			xv, err := newMatrix(dt, rows, 3, randomRows(31, rows, 3))
			require.NoError(t, err)
			xn := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(rows, 3), gorgonia.WithValue(xv), gorgonia.WithName("x"))
			scores, learnables, err := m.Build(g, xn)
			require.NoError(t, err)
			yv, err := opkit.NewVector(dt, []float64{0, 1, 2, 3, 1, 0})
			require.NoError(t, err)
			y := gorgonia.NewVector(g, dt, gorgonia.WithShape(rows), gorgonia.WithValue(yv), gorgonia.WithName("y"))
			cost, err := crossentropy.Loss(scores, y, crossentropy.Config{Task: rocops.Classes(k)})
			require.NoError(t, err)
			r := gradcheck.Assert(t, cost, learnables, gradcheck.Config{Lisp: gradcheck.LispRequire})
			if r != nil {
				require.Len(t, r.Machines, 2)
			}
		})
	}
}

// TestOutputsCheckpoint: a k-output model round-trips through a checkpoint, its description
// names k, and its checkpoint does not load into a model of another k; Outputs 0 and 1 are the
// one-score model, bit for bit and by description (so its older checkpoints load, as the
// legacy tests show).
func TestOutputsCheckpoint(t *testing.T) {
	m := newMLP(t, MLPConfig{In: 5, Hidden: []int{7}, Outputs: 3, Seed: 4})
	require.Equal(t, "MLP(in=5, hidden=[7], activation=relu, outputs=3)", m.Architecture())
	require.Equal(t, "Linear(in=5, outputs=3)", newMLP(t, MLPConfig{In: 5, Outputs: 3}).Architecture())
	data := encoded(t, m)
	back := newMLP(t, MLPConfig{In: 5, Hidden: []int{7}, Outputs: 3, Seed: 99})
	require.NoError(t, Read(bytes.NewReader(data), back))
	require.True(t, sameParams(t, m, back))

	for _, k := range []int{1, 4} { // the output layer's shape differs
		target := func() Model { return newMLP(t, MLPConfig{In: 5, Hidden: []int{7}, Outputs: k, Seed: 4}) }
		readFails(t, data, target, ErrArchitecture)
		require.ErrorContains(t, Read(bytes.NewReader(data), target()), `"layer1.weight" has shape (7, 3)`)
	}

	one := newMLP(t, MLPConfig{In: 5, Hidden: []int{7}, Seed: 4})
	for _, k := range []int{0, 1} {
		mk := newMLP(t, MLPConfig{In: 5, Hidden: []int{7}, Outputs: k, Seed: 4})
		require.True(t, sameParams(t, one, mk), "Outputs %d", k)
		require.Equal(t, one.Architecture(), mk.Architecture())
		require.Equal(t, 1, mk.Outputs())
		require.Equal(t, encoded(t, one), encoded(t, mk))
	}
	_, err := NewMLP(MLPConfig{In: 5, Outputs: -1})
	require.True(t, errors.Is(err, rocops.ErrConfig), "%v", err)
}
