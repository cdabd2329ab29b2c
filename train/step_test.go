package train

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// TestDirectStepMatchesGraph: for every loss with a direct form, both dtypes, a linear model
// and an MLP, one direct step (nn.Pass and the loss on slices) gives the loss and the
// gradient of the Gorgonia graph step. SGD with learning rate 1 makes the update the
// gradient itself, so the updated parameters compare the gradients.
func TestDirectStepMatchesGraph(t *testing.T) {
	tol := map[tensor.Dtype]float64{tensor.Float64: 1e-12, tensor.Float32: 1e-5} // relative to max(1, |w|)
	const batch, in = 64, 4
	ds := blobs(t, batch, in, 0.25, 1, 3)
	idx := make([]int, batch)
	for i := range idx {
		idx[i] = i
	}
	losses := []Loss{
		CrossEntropy{},
		KDE{Config: kdequantile.Config{Alpha: 0.1}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic}},
		Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 0.5, Loss: Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge}}}},
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, model := range []string{"linear", "mlp"} {
			for _, loss := range losses {
				t.Run(fmt.Sprintf("%v/%s/%v", dt, model, loss), func(t *testing.T) {
					build := func() nn.Model {
						if model == "linear" {
							m, err := nn.NewLinear(nn.LinearConfig{In: in, Seed: 2, Dtype: dt})
							require.NoError(t, err)
							return m
						}
						m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{8, 5}, Seed: 2, Dtype: dt})
						require.NoError(t, err)
						return m
					}
					cfg := Config{Optimizer: SGD, LearningRate: 1}
					direct, graphed := build(), build()
					ds1, err := newStep(direct, loss, batch, in, cfg)
					require.NoError(t, err)
					defer ds1.close()
					require.IsType(t, &directStep{}, ds1)
					opt, err := newOptimizer(SGD, 1)
					require.NoError(t, err)
					gs, err := newGraphStep(graphed, loss, batch, in, opt)
					require.NoError(t, err)
					defer gs.close()

					for range 2 { // the second step starts from the first's weights
						l1, err := ds1.run(ds, idx)
						require.NoError(t, err)
						l2, err := gs.run(ds, idx)
						require.NoError(t, err)
						require.InDelta(t, l2, l1, tol[dt]*max(1, math.Abs(l2)), "loss")
						for i, p := range direct.Params() {
							got, err := opkit.Floats(p.Value)
							require.NoError(t, err)
							want, err := opkit.Floats(graphed.Params()[i].Value)
							require.NoError(t, err)
							for k := range want {
								require.InDelta(t, want[k], got[k], tol[dt]*max(1, math.Abs(want[k])), "%s[%d]", p.Name, k)
							}
						}
					}
				})
			}
		}
	}
}

// TestOptimizerMatchesGorgonia: the optimiser gives, to the bit, the parameters Gorgonia's
// own solver gives (the trainer used them before), over three steps, for every rule and both
// dtypes.
func TestOptimizerMatchesGorgonia(t *testing.T) {
	const lr = 0.01
	solvers := map[Optimizer]func() gorgonia.Solver{
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
				opt, err := newOptimizer(o, lr)
				require.NoError(t, err)
				solver := newSolver()
				g := gorgonia.NewGraph()
				node := gorgonia.NewVector(g, dt, gorgonia.WithShape(4), gorgonia.WithName("w"), gorgonia.WithValue(theirs))
				for _, gr := range grads {
					gv, err := opkit.NewVector(dt, append([]float64(nil), gr...))
					require.NoError(t, err)
					require.NoError(t, opt.step([]*tensor.Dense{mine}, []*tensor.Dense{gv}))
					gv2, err := opkit.NewVector(dt, append([]float64(nil), gr...))
					require.NoError(t, err)
					require.NoError(t, solver.Step([]gorgonia.ValueGrad{valueGrad{node, gv2}}))
				}
				require.Equal(t, theirs.Data(), mine.Data())
			})
		}
	}
}

// valueGrad pairs a node's value with a given gradient, as Gorgonia's solvers take them.
type valueGrad struct {
	n *gorgonia.Node
	g *tensor.Dense
}

func (v valueGrad) Value() gorgonia.Value         { return v.n.Value() }
func (v valueGrad) Grad() (gorgonia.Value, error) { return v.g, nil }

// TestDirectStepFloat32Range: a score gradient that is finite in float64 but beyond float32
// fails a float32 step with nn.ErrRange instead of writing ±Inf into the weights, and leaves
// the weights unchanged.
func TestDirectStepFloat32Range(t *testing.T) {
	const batch, in = 8, 2
	ds := blobs(t, batch, in, 0.5, 1, 4)
	idx := []int{0, 1, 2, 3, 4, 5, 6, 7}
	m, err := nn.NewLinear(nn.LinearConfig{In: in, Seed: 1, Dtype: tensor.Float32})
	require.NoError(t, err)
	st, err := newStep(m, huge{}, batch, in, Config{Optimizer: SGD, LearningRate: 1})
	require.NoError(t, err)
	defer st.close()
	before, err := nn.Snapshot(m)
	require.NoError(t, err)
	_, err = st.run(ds, idx)
	require.ErrorIs(t, err, nn.ErrRange)
	require.Equal(t, before[0].Value.Data(), m.Params()[0].Value.Data())
}

// huge is a direct loss of value 1 whose gradient, 1e39 per score, is finite only in float64.
type huge struct{ CrossEntropy }

func (huge) ValueGradInto(grad, _, _ []float64) (float64, error) {
	for i := range grad {
		grad[i] = 1e39
	}
	return 1, nil
}
