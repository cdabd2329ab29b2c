package nn

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/internal/opkit"
)

const (
	// tolForward64 bounds the relative difference of two float64 forward passes that sum the
	// same products in a different order (a few ulps of the partial sums).
	tolForward64 = 1e-12
	// tolForward32 allows float32 rounding of inputs, parameters and partial sums (ε₃₂ ≈ 6e-8,
	// times the few tens of terms in a score).
	tolForward32 = 1e-5
)

// testModel is a named way to build a model of a dtype, with the activation the reference
// forward pass must use.
type testModel struct {
	name string
	act  Activation
	new  func(dt tensor.Dtype) (Model, error)
}

func testModels() []testModel {
	mlp := func(cfg MLPConfig) func(tensor.Dtype) (Model, error) {
		return func(dt tensor.Dtype) (Model, error) {
			cfg.Dtype = dt
			return NewMLP(cfg)
		}
	}
	return []testModel{
		{"linear", Identity, func(dt tensor.Dtype) (Model, error) {
			return NewMLP(MLPConfig{In: 5, Dtype: dt, Seed: 3})
		}},
		{"mlp-relu", ReLU, mlp(MLPConfig{In: 5, Hidden: []int{7}, Seed: 4})},
		{"mlp-tanh-2", Tanh, mlp(MLPConfig{In: 5, Hidden: []int{6, 4}, Activation: Tanh, Seed: 5})},
		{"mlp-relu-he-3", ReLU, mlp(MLPConfig{In: 3, Hidden: []int{4, 4, 2}, Init: He, Seed: 6})},
		{"mlp-identity", Identity, mlp(MLPConfig{In: 4, Hidden: []int{3}, Activation: Identity, Seed: 7})},
		{"mlp-no-hidden", ReLU, mlp(MLPConfig{In: 4, Seed: 8})},
		// Transferred models: a frozen body under a new head of another width, and LoRA
		// adapters (on every layer, scale 1.5; on the body of a tanh network, scale 1) whose B
		// is drawn, as after training, so that every gradient of the adapters is non-zero.
		// (Their seeds keep every ReLU of TestGradcheck's rows away from its kink by more
		// than the numerical derivative's steps.)
		{"frozen-body-new-head", ReLU, transferred(MLPConfig{In: 5, Hidden: []int{6, 4}, Seed: 11},
			TransferConfig{Hidden: []int{3}, Freeze: 2, Seed: 111}, 0)},
		{"lora-every-layer", ReLU, transferred(MLPConfig{In: 5, Hidden: []int{6, 4}, Seed: 19},
			TransferConfig{Body: 3, Rank: 2, Alpha: 3, Seed: 119}, 71)},
		{"lora-tanh-body", Tanh, transferred(MLPConfig{In: 4, Hidden: []int{5}, Activation: Tanh, Seed: 9},
			TransferConfig{Rank: 1, Seed: 109}, 72)},
	}
}

// transferred returns the model Transfer makes from NewMLP(base) under cfg, with every
// adapter's B drawn by randomRows(seedB) (B = 0, as Transfer leaves it, when seedB is 0).
func transferred(base MLPConfig, cfg TransferConfig, seedB uint64) func(tensor.Dtype) (Model, error) {
	return func(dt tensor.Dtype) (Model, error) {
		base.Dtype = dt
		b, err := NewMLP(base)
		if err != nil {
			return nil, err
		}
		m, err := Transfer(b, cfg)
		if err != nil {
			return nil, err
		}
		if seedB != 0 {
			for k, p := range m.Params() {
				if strings.HasSuffix(p.Name, ".lora_b") {
					copyInto(p.Value, randomRows(seedB+uint64(k), p.Value.Len(), 1))
				}
			}
		}
		return m, nil
	}
}

func TestScoresMatchReference(t *testing.T) {
	const rows = 9
	for _, tm := range testModels() {
		for _, dt := range dtypes {
			t.Run(fmt.Sprintf("%s/%v", tm.name, dt), func(t *testing.T) {
				m, err := tm.new(dt)
				if err != nil {
					t.Fatal(err)
				}
				x := randomRows(11, rows, m.InputSize())
				got, err := Scores(m, x, rows)
				if err != nil {
					t.Fatal(err)
				}
				tol := tolForward64
				if dt == tensor.Float32 {
					tol = tolForward32
				}
				assertClose(t, "scores", got, referenceScoresLoRA(t, m.Params(), tm.act, x, rows, loraScale(m)), tol)
			})
		}
	}
}

func TestScoresChunks(t *testing.T) {
	// More rows than two chunks, and not a multiple of the chunk: three evaluations of two
	// sizes, whose results must come back in row order.
	rows := 2*scoreChunk + 37
	m, err := NewMLP(MLPConfig{In: 2, Hidden: []int{3}, Activation: Tanh, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	x := randomRows(2, rows, 2)
	got, err := Scores(m, x, rows)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "scores", got, referenceScores(t, m.Params(), Tanh, x, rows), tolForward64)
}

func TestScoresRejectsBadInput(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		m     Model
		x     []float64
		rows  int
		inMsg string
	}{
		{"nil model", nil, []float64{1, 2}, 1, "nil model"},
		{"no rows", m, nil, 0, "0 rows"},
		{"short", m, []float64{1, 2, 3}, 2, "3 values for 2 rows"},
		{"NaN", m, []float64{1, 2, 3, math.NaN()}, 2, "row 1, feature 1 is NaN"},
		{"Inf", m, []float64{math.Inf(-1), 2}, 1, "row 0, feature 0 is -Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Scores(tc.m, tc.x, tc.rows)
			if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.inMsg) {
				t.Fatalf("error %v, want ErrInput mentioning %q", err, tc.inMsg)
			}
		})
	}
}

func TestBuildShapesAndSharing(t *testing.T) {
	for _, tm := range testModels() {
		for _, dt := range dtypes {
			t.Run(fmt.Sprintf("%s/%v", tm.name, dt), func(t *testing.T) {
				m, err := tm.new(dt)
				if err != nil {
					t.Fatal(err)
				}
				const batch = 6
				g := gorgonia.NewGraph()
				x := gorgonia.NewMatrix(g, dt, gorgonia.WithShape(batch, m.InputSize()), gorgonia.WithName("x"))
				scores, learnables, err := m.Build(g, x)
				if err != nil {
					t.Fatal(err)
				}
				if !scores.Shape().Eq(tensor.Shape{batch}) || scores.Dtype() != dt {
					t.Errorf("scores have shape %v and dtype %v, want (%d) and %v", scores.Shape(), scores.Dtype(), batch, dt)
				}
				ps := m.Params()
				if len(learnables) != len(ps) {
					t.Fatalf("%d learnables for %d parameters", len(learnables), len(ps))
				}
				for i, p := range ps {
					l := learnables[i]
					if l.Name() != p.Name || !l.Shape().Eq(p.Value.Shape()) {
						t.Errorf("learnable %d is %s %v, parameter is %s %v", i, l.Name(), l.Shape(), p.Name, p.Value.Shape())
					}
					if v, ok := l.Value().(*tensor.Dense); !ok || v != p.Value {
						t.Errorf("learnable %s is not bound to the parameter's own tensor", p.Name)
					}
				}
			})
		}
	}
}

func TestBuildRejectsBadInput(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 3, Hidden: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	g := gorgonia.NewGraph()
	other := gorgonia.NewGraph()
	for _, tc := range []struct {
		name string
		g    *gorgonia.ExprGraph
		x    *gorgonia.Node
	}{
		{"nil input", g, nil},
		{"nil graph", nil, gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 3))},
		{"other graph", g, gorgonia.NewMatrix(other, tensor.Float64, gorgonia.WithShape(2, 3))},
		{"float32 input", g, gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(2, 3))},
		{"vector", g, gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(3))},
		{"wrong width", g, gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 4))},
		{"scalar", g, gorgonia.NewScalar(g, tensor.Float64)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := m.Build(tc.g, tc.x); !errors.Is(err, ErrInput) {
				t.Fatalf("error %v, want ErrInput", err)
			}
		})
	}
	t.Run("twice in one graph", func(t *testing.T) {
		g := gorgonia.NewGraph()
		x := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 3))
		if _, _, err := m.Build(g, x); err != nil {
			t.Fatal(err)
		}
		_, _, err := m.Build(g, x)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "once per graph") {
			t.Fatalf("error %v, want ErrInput about building once per graph", err)
		}
	})
}

func TestBadConfigs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func() error
		inMsg string
	}{
		{"linear in 0", func() error { _, err := NewMLP(MLPConfig{}); return err }, "input size 0"},
		{"linear in -2", func() error { _, err := NewMLP(MLPConfig{In: -2}); return err }, "input size -2"},
		{"linear int dtype", func() error { _, err := NewMLP(MLPConfig{In: 2, Dtype: tensor.Int}); return err }, "dtype int"},
		{"linear bad init", func() error { _, err := NewMLP(MLPConfig{In: 2, Init: Init(9)}); return err }, "initialisation 9"},
		{"mlp in 0", func() error { _, err := NewMLP(MLPConfig{Hidden: []int{2}}); return err }, "input size 0"},
		{"mlp hidden 0", func() error { _, err := NewMLP(MLPConfig{In: 2, Hidden: []int{3, 0}}); return err }, "hidden layer 1 has size 0"},
		{"mlp hidden negative", func() error { _, err := NewMLP(MLPConfig{In: 2, Hidden: []int{-4}}); return err }, "hidden layer 0 has size -4"},
		{"mlp bad activation", func() error {
			_, err := NewMLP(MLPConfig{In: 2, Hidden: []int{2}, Activation: Activation(7)})
			return err
		}, "activation 7"},
		{"mlp too large", func() error { _, err := NewMLP(MLPConfig{In: 1 << 20, Hidden: []int{1 << 12}}); return err }, "weights"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.build()
			if !errors.Is(err, rocops.ErrConfig) || !strings.HasPrefix(err.Error(), "nn: ") || !strings.Contains(err.Error(), tc.inMsg) {
				t.Fatalf("error %v, want rocops.ErrConfig mentioning %q", err, tc.inMsg)
			}
		})
	}
}

func TestMLPConfigNotAliased(t *testing.T) {
	hidden := []int{3}
	m, err := NewMLP(MLPConfig{In: 2, Hidden: hidden})
	if err != nil {
		t.Fatal(err)
	}
	hidden[0] = 99
	if got, want := m.Architecture(), "MLP(in=2, hidden=[3], activation=relu)"; got != want {
		t.Fatalf("Architecture() = %q after changing the config's slice, want %q", got, want)
	}
}

// graphGradients builds m on x (rows × InputSize) with the cost c = Σᵢ wᵢ·sᵢ, differentiates
// it with gorgonia.Grad, runs a TapeMachine and returns c and ∂c/∂θ for every parameter, in
// Params order, as float64.
func graphGradients(t *testing.T, m Model, x []float64, rows int, w []float64) (float64, [][]float64) {
	t.Helper()
	g := gorgonia.NewGraph()
	cost, learnables, _ := weightedScoreCost(t, g, m, x, rows, w)
	if _, err := gorgonia.Grad(cost, learnables...); err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learnables...))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	c, err := opkit.Scalar(cost.Value())
	if err != nil {
		t.Fatal(err)
	}
	grads := make([][]float64, len(learnables))
	for i, l := range learnables {
		gv, err := l.Grad()
		if err != nil {
			t.Fatal(err)
		}
		f, err := opkit.Floats(gv)
		if err != nil {
			t.Fatal(err)
		}
		grads[i] = append([]float64(nil), f...)
	}
	return c, grads
}

// TestGradientsMatchFiniteDifferences checks the graph's gradients against numerical
// derivatives of the serving path, Scores, which computes the scores without the graph (an
// nn Pass): the two must agree on both the function and its derivative.
func TestGradientsMatchFiniteDifferences(t *testing.T) {
	const (
		rows = 6
		// step: five-point truncation error O(h⁴) ≈ 1e-16 and rounding error ≈ ε₆₄·|c|/h ≈
		// 1e-12 for costs of order 10 at h = 1e-4.
		step = 1e-4
		// tolGrad is far above both errors and far below any gradient mistake.
		tolGrad = 1e-8
	)
	for _, tm := range testModels() {
		t.Run(tm.name, func(t *testing.T) {
			m, err := tm.new(tensor.Float64)
			if err != nil {
				t.Fatal(err)
			}
			x := randomRows(21, rows, m.InputSize())
			w := randomRows(22, rows, 1)
			_, grads := graphGradients(t, m, x, rows, w)
			cost := func([]float64) (float64, error) {
				s, err := Scores(m, x, rows)
				c := 0.0
				for i := range s {
					c += w[i] * s[i]
				}
				return c, err
			}
			for k, p := range m.Params() {
				fd, err := gradcheck.Numeric(cost, p.Value.Data().([]float64), step)
				if err != nil {
					t.Fatal(err)
				}
				assertClose(t, "∂c/∂"+p.Name, grads[k], fd, tolGrad)
			}
		})
	}
}

func TestFloat32GradientsMatchFloat64(t *testing.T) {
	const (
		rows = 6
		// tolGrad32 allows float32 rounding through the forward and backward passes
		// (ε₃₂ ≈ 6e-8 times a few hundred operations).
		tolGrad32 = 1e-4
	)
	for _, tm := range testModels() {
		t.Run(tm.name, func(t *testing.T) {
			m32, err := tm.new(tensor.Float32)
			if err != nil {
				t.Fatal(err)
			}
			m64, err := tm.new(tensor.Float64)
			if err != nil {
				t.Fatal(err)
			}
			// Give the float64 model exactly the float32 model's values, and feed both the
			// same float32-representable inputs, so that only arithmetic precision differs.
			for i, p := range m64.Params() {
				copy(p.Value.Data().([]float64), paramValues(t, m32.Params()[i]))
			}
			x := roundTo32(randomRows(31, rows, m32.InputSize()))
			w := roundTo32(randomRows(32, rows, 1))
			c32, g32 := graphGradients(t, m32, x, rows, w)
			c64, g64 := graphGradients(t, m64, x, rows, w)
			assertClose(t, "cost", []float64{c32}, []float64{c64}, tolGrad32)
			for k, p := range m64.Params() {
				assertClose(t, "∂c/∂"+p.Name, g32[k], g64[k], tolGrad32)
			}
		})
	}
}

func roundTo32(xs []float64) []float64 {
	for i, x := range xs {
		xs[i] = float64(float32(x))
	}
	return xs
}

// TestSolverUpdatesAreShared checks the design the trainer relies on: a solver stepping the
// learnables of a training graph updates the model, so a second graph built from the model
// for another batch size scores with the new parameters.
func TestSolverUpdatesAreShared(t *testing.T) {
	const (
		trainRows, evalRows = 8, 3
		eta                 = 0.05
		// tolStep: Vanilla computes θ + (−η)·g, one rounding away from θ − η·g.
		tolStep = 1e-15
	)
	for _, tc := range []struct {
		name   string
		solver func() gorgonia.Solver
	}{
		{"vanilla", func() gorgonia.Solver { return gorgonia.NewVanillaSolver(gorgonia.WithLearnRate(eta)) }},
		{"momentum", func() gorgonia.Solver { return gorgonia.NewMomentum(gorgonia.WithLearnRate(eta)) }},
		{"adam", func() gorgonia.Solver { return gorgonia.NewAdamSolver(gorgonia.WithLearnRate(eta)) }},
		{"rmsprop", func() gorgonia.Solver { return gorgonia.NewRMSPropSolver(gorgonia.WithLearnRate(eta)) }},
	} {
		for _, dt := range dtypes {
			t.Run(fmt.Sprintf("%s/%v", tc.name, dt), func(t *testing.T) {
				m, err := NewMLP(MLPConfig{In: 4, Hidden: []int{5}, Activation: Tanh, Seed: 9, Dtype: dt})
				if err != nil {
					t.Fatal(err)
				}
				ps := m.Params()

				train := gorgonia.NewGraph()
				xTrain, err := newMatrix(dt, trainRows, 4, randomRows(41, trainRows, 4))
				if err != nil {
					t.Fatal(err)
				}
				xt := gorgonia.NewMatrix(train, dt, gorgonia.WithShape(trainRows, 4), gorgonia.WithValue(xTrain))
				scores, learnables, err := m.Build(train, xt)
				if err != nil {
					t.Fatal(err)
				}
				cost, err := gorgonia.Sum(scores)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := gorgonia.Grad(cost, learnables...); err != nil {
					t.Fatal(err)
				}
				trainVM := gorgonia.NewTapeMachine(train, gorgonia.BindDualValues(learnables...))
				defer trainVM.Close()

				evalX := randomRows(42, evalRows, 4)
				eval := gorgonia.NewGraph()
				xEval, err := newMatrix(dt, evalRows, 4, evalX)
				if err != nil {
					t.Fatal(err)
				}
				xe := gorgonia.NewMatrix(eval, dt, gorgonia.WithShape(evalRows, 4), gorgonia.WithValue(xEval))
				evalScores, _, err := m.Build(eval, xe)
				if err != nil {
					t.Fatal(err)
				}
				evalVM := gorgonia.NewTapeMachine(eval)
				defer evalVM.Close()

				solver := tc.solver()
				tol := tolForward64
				if dt == tensor.Float32 {
					tol = tolForward32
				}
				for step := 0; step < 3; step++ {
					before, err := Snapshot(m)
					if err != nil {
						t.Fatal(err)
					}
					if err := trainVM.RunAll(); err != nil {
						t.Fatal(err)
					}
					var grads [][]float64
					for _, l := range learnables {
						gv, err := l.Grad()
						if err != nil {
							t.Fatal(err)
						}
						grads = append(grads, paramValues(t, Param{Value: gv.(*tensor.Dense)}))
					}
					if err := solver.Step(gorgonia.NodesToValueGrads(learnables)); err != nil {
						t.Fatal(err)
					}
					trainVM.Reset()

					for i, p := range m.Params() {
						if p.Value != ps[i].Value || !p.Value.Shape().Eq(before[i].Value.Shape()) {
							t.Fatalf("step %d: parameter %s was replaced or reshaped", step, p.Name)
						}
						if tc.name == "vanilla" && dt == tensor.Float64 {
							old := paramValues(t, before[i])
							want := make([]float64, len(old))
							for j := range old {
								want[j] = old[j] - eta*grads[i][j]
							}
							assertClose(t, fmt.Sprintf("step %d: %s", step, p.Name), paramValues(t, p), want, tolStep)
						}
					}
					if err := evalVM.RunAll(); err != nil {
						t.Fatal(err)
					}
					got, err := opkit.Floats(evalScores.Value())
					if err != nil {
						t.Fatal(err)
					}
					evalVM.Reset()
					assertClose(t, fmt.Sprintf("step %d: evaluation scores", step), got, referenceScores(t, m.Params(), Tanh, evalX, evalRows), tol)
					stale := referenceScores(t, before, Tanh, evalX, evalRows)
					if math.Abs(got[0]-stale[0]) < 1e-4 {
						t.Fatalf("step %d: the evaluation graph still scores %v as before the step", step, got[0])
					}
				}
			})
		}
	}
}

func TestSnapshotRestore(t *testing.T) {
	for _, dt := range dtypes {
		t.Run(dt.String(), func(t *testing.T) {
			m, err := NewMLP(MLPConfig{In: 3, Hidden: []int{4}, Seed: 1, Dtype: dt})
			if err != nil {
				t.Fatal(err)
			}
			want := paramBits(t, m)
			snap, err := Snapshot(m)
			if err != nil {
				t.Fatal(err)
			}
			// Change the model: the snapshot must not follow.
			other, err := NewMLP(MLPConfig{In: 3, Hidden: []int{4}, Seed: 2, Dtype: dt})
			if err != nil {
				t.Fatal(err)
			}
			otherSnap, err := Snapshot(other)
			if err != nil {
				t.Fatal(err)
			}
			if err := Restore(m, otherSnap); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(paramBits(t, m)) == fmt.Sprint(want) {
				t.Fatal("restoring another model's snapshot left the parameters unchanged")
			}
			if err := Restore(m, snap); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(paramBits(t, m)) != fmt.Sprint(want) {
				t.Fatal("restoring the snapshot did not bring back the parameters bit for bit")
			}
		})
	}
}

func TestRestoreRejectsMismatches(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 3, Hidden: []int{4}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	snapOf := func(cfg MLPConfig) []Param {
		t.Helper()
		o, err := NewMLP(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Snapshot(o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	good := snapOf(MLPConfig{In: 3, Hidden: []int{4}, Seed: 2})
	renamed := snapOf(MLPConfig{In: 3, Hidden: []int{4}, Seed: 2})
	renamed[2].Name = "head.weight"
	for _, tc := range []struct {
		name  string
		saved []Param
		want  error
		inMsg string
	}{
		{"fewer", good[:3], ErrArchitecture, "3 parameters saved, the model has 4"},
		{"deeper", snapOf(MLPConfig{In: 3, Hidden: []int{4, 4}}), ErrArchitecture, "6 parameters saved"},
		{"renamed", renamed, ErrArchitecture, `is "head.weight"`},
		{"wider", snapOf(MLPConfig{In: 3, Hidden: []int{5}}), ErrArchitecture, "has shape (3, 5)"},
		{"float32", snapOf(MLPConfig{In: 3, Hidden: []int{4}, Dtype: tensor.Float32}), ErrArchitecture, "is float32, the model's is float64"},
		{"nil value", append(append([]Param(nil), good[:3]...), Param{Name: "layer1.bias"}), ErrInput, "has no value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := paramBits(t, m)
			if err := Restore(m, tc.saved); !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.inMsg) {
				t.Fatalf("error %v, want %v saying %q", err, tc.want, tc.inMsg)
			}
			if fmt.Sprint(paramBits(t, m)) != fmt.Sprint(before) {
				t.Fatal("a failed Restore changed the model")
			}
		})
	}
}

// TestScoresRange: a feature a float32 model cannot hold (beyond 3.4e38), or a score that
// overflows the model's dtype, is rocops.ErrRange naming the row, never a ±Inf score.
func TestScoresRange(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 2, Dtype: tensor.Float32})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Scores(m, []float64{1, 2, 3, 1e39}, 2)
	if !errors.Is(err, rocops.ErrRange) || !strings.Contains(err.Error(), "row 1, feature 1") {
		t.Fatalf("feature 1e39 in a float32 model: %v, want rocops.ErrRange naming row 1, feature 1", err)
	}
	// Weights of 1e30 on features of 1e10: x·w = 2e40 fits in float64 but not in float32.
	w := m.Params()[0].Value.Data().([]float32)
	w[0], w[1] = 1e30, 1e30
	got, err := Scores(m, []float64{0, 0, 1e10, 1e10}, 2)
	if !errors.Is(err, rocops.ErrRange) || !strings.Contains(err.Error(), "row 1") {
		t.Fatalf("score 2e40 in a float32 model: %v (scores %v), want rocops.ErrRange naming row 1", err, got)
	}
	// The same features in a float64 model are fine.
	m64, err := NewMLP(MLPConfig{In: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Scores(m64, []float64{1, 2, 3, 1e39}, 2); err != nil {
		t.Fatalf("float64 model: %v", err)
	}
}
