package optim

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/opkit"
)

// Every optimiser's name round-trips through ParseRule, text marshalling and a flag.
func TestOptimizerNames(t *testing.T) {
	for o, name := range map[Rule]string{Adam: "adam", SGD: "sgd", Momentum: "momentum", RMSProp: "rmsprop"} {
		require.Equal(t, name, o.String())
		got, err := ParseRule(name)
		require.NoError(t, err)
		require.Equal(t, o, got)
		text, err := o.MarshalText()
		require.NoError(t, err)
		require.Equal(t, name, string(text))

		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		var v Rule
		fs.TextVar(&v, "opt", Adam, "optimiser")
		require.NoError(t, fs.Parse([]string{"-opt", name}))
		require.Equal(t, o, v)
	}
	_, err := ParseRule("adamw")
	require.ErrorIs(t, err, rocops.ErrConfig)
	_, err = Rule(9).MarshalText()
	require.ErrorIs(t, err, rocops.ErrConfig)
}

// TestOptimizerMatchesGorgonia: the optimiser gives, to the bit, the parameters Gorgonia's
// own solver gives (the trainer used them before), over three steps, for every rule and both
// dtypes.
func TestOptimizerMatchesGorgonia(t *testing.T) {
	const lr = 0.01
	solvers := map[Rule]func() gorgonia.Solver{
		Adam: func() gorgonia.Solver { return gorgonia.NewAdamSolver(gorgonia.WithLearnRate(lr)) },
		SGD:  func() gorgonia.Solver { return gorgonia.NewVanillaSolver(gorgonia.WithLearnRate(lr)) },
		Momentum: func() gorgonia.Solver {
			return gorgonia.NewMomentum(gorgonia.WithLearnRate(lr), gorgonia.WithMomentum(0.9))
		},
		RMSProp: func() gorgonia.Solver { return gorgonia.NewRMSPropSolver(gorgonia.WithLearnRate(lr)) },
	}
	grads := [][]float64{{0.3, -1.2, 1e-9, 0}, {-0.25, 2, -3e-5, 0.75}, {0.1, 0.1, -0.1, 4}}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for o, newSolver := range solvers {
			t.Run(fmt.Sprintf("%v/%v", dt, o), func(t *testing.T) {
				start := []float64{0.5, -0.75, 2, 1e-3}
				mine, err := opkit.NewVector(dt, append([]float64(nil), start...))
				require.NoError(t, err)
				theirs, err := opkit.NewVector(dt, append([]float64(nil), start...))
				require.NoError(t, err)
				opt, err := NewStepper(o, lr)
				require.NoError(t, err)
				solver := newSolver()
				g := gorgonia.NewGraph()
				node := gorgonia.NewVector(g, dt, gorgonia.WithShape(4), gorgonia.WithName("w"), gorgonia.WithValue(theirs))
				for _, gr := range grads {
					gv, err := opkit.NewVector(dt, append([]float64(nil), gr...))
					require.NoError(t, err)
					require.NoError(t, opt.Step([]*tensor.Dense{mine}, []*tensor.Dense{gv}))
					gv2, err := opkit.NewVector(dt, append([]float64(nil), gr...))
					require.NoError(t, err)
					require.NoError(t, solver.Step([]gorgonia.ValueGrad{valueGrad{node, gv2}}))
				}
				require.Equal(t, theirs.Data(), mine.Data())
			})
		}
	}
}

// Decoupled decay scales weight matrices by 1 − η·λ and leaves biases alone.
func TestDecay(t *testing.T) {
	w := tensor.New(tensor.WithShape(2, 2), tensor.WithBacking([]float64{1, -2, 4, 8}))
	b := tensor.New(tensor.WithShape(2), tensor.WithBacking([]float32{1, -2}))
	w32 := tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float32{2, -4}))
	Decay([]*tensor.Dense{w, b, w32}, 0.1, 2.5) // keep 1 − 0.25 = 0.75
	require.Equal(t, []float64{0.75, -1.5, 3, 6}, w.Data())
	require.Equal(t, []float32{1, -2}, b.Data())
	require.Equal(t, []float32{1.5, -3}, w32.Data())
}

// valueGrad pairs a node's value with a given gradient, as Gorgonia's solvers take them.
type valueGrad struct {
	n *gorgonia.Node
	g *tensor.Dense
}

func (v valueGrad) Value() gorgonia.Value         { return v.n.Value() }
func (v valueGrad) Grad() (gorgonia.Value, error) { return v.g, nil }
