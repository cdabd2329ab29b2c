package nn

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/opkit"
)

// passModels are the networks a Pass covers: a linear scorer, and MLPs with each hidden
// activation and more than one hidden layer.
func passModels(t *testing.T, dt tensor.Dtype) map[string]Model {
	t.Helper()
	lin, err := NewMLP(MLPConfig{In: 5, Seed: 3, Dtype: dt})
	if err != nil {
		t.Fatal(err)
	}
	ms := map[string]Model{"linear": lin}
	for _, c := range []struct {
		name   string
		hidden []int
		act    Activation
	}{
		{"relu", []int{7}, ReLU},
		{"tanh", []int{6}, Tanh},
		{"relu 2 layers", []int{8, 4}, ReLU},
	} {
		m, err := NewMLP(MLPConfig{In: 5, Hidden: c.hidden, Activation: c.act, Seed: 4, Dtype: dt})
		if err != nil {
			t.Fatal(err)
		}
		ms[c.name] = m
	}
	for _, c := range []struct {
		name  string
		base  MLPConfig
		cfg   TransferConfig
		seedB uint64
	}{ // frozen layers, and adapters with their B drawn (see testModels)
		{"frozen body", MLPConfig{In: 5, Hidden: []int{8, 4}, Seed: 4}, TransferConfig{Hidden: []int{3}, Freeze: 2, Seed: 5}, 0},
		{"frozen lowest layer", MLPConfig{In: 5, Hidden: []int{8, 4}, Seed: 4}, TransferConfig{Body: 3, Freeze: 1}, 0},
		{"lora on the body", MLPConfig{In: 5, Hidden: []int{8, 4}, Seed: 4}, TransferConfig{Rank: 2, Alpha: 1, Seed: 6}, 81},
		{"lora on layer 1 only", MLPConfig{In: 5, Hidden: []int{8, 4}, Seed: 4}, TransferConfig{Body: 3, Rank: 3, Adapt: []int{1}, Seed: 7}, 82},
		{"lora on the output", MLPConfig{In: 5, Hidden: []int{7}, Activation: Tanh, Seed: 4}, TransferConfig{Body: 2, Rank: 2, Adapt: []int{1}, Freeze: 1}, 83},
	} {
		m, err := transferred(c.base, c.cfg, c.seedB)(dt)
		if err != nil {
			t.Fatal(err)
		}
		ms[c.name] = m
	}
	return ms
}

// TestPassMatchesGraph: a Pass gives the scores and the parameter gradients of the model's
// Gorgonia graph — for the cost Σᵢ wᵢ·sᵢ, whose ∂c/∂s = w — to float rounding, including
// rows of zeros, where every ReLU of a zero-bias layer sits at its kink (derivative 1).
func TestPassMatchesGraph(t *testing.T) {
	tol := map[tensor.Dtype]float64{tensor.Float64: 1e-12, tensor.Float32: 1e-5} // relative, sums of ≤ 8 products per entry
	const rows = 9
	x := randomRows(5, rows, 5)
	clear(x[5:10]) // row 1 is zero
	w := randomRows(6, rows, 1)
	for _, dt := range dtypes {
		for name, m := range passModels(t, dt) {
			t.Run(fmt.Sprintf("%v/%s", dt, name), func(t *testing.T) {
				g := gorgonia.NewGraph()
				cost, learnables, scores := weightedScoreCost(t, g, m, x, rows, w)
				if _, err := gorgonia.Grad(cost, learnables...); err != nil {
					t.Fatal(err)
				}
				vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learnables...))
				defer vm.Close()
				if err := vm.RunAll(); err != nil {
					t.Fatal(err)
				}
				wantScores, err := opkit.Floats(scores.Value())
				if err != nil {
					t.Fatal(err)
				}

				p, err := NewPass(m, rows)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.setInput(x); err != nil {
					t.Fatal(err)
				}
				assertClose(t, "scores", p.Forward(), wantScores, tol[dt])
				if err := p.Backward(w); err != nil {
					t.Fatal(err)
				}
				for i, l := range learnables {
					gv, err := l.Grad()
					if err != nil {
						t.Fatal(err)
					}
					want, err := opkit.Floats(gv)
					if err != nil {
						t.Fatal(err)
					}
					got, err := opkit.Floats(p.Grads()[i])
					if err != nil {
						t.Fatal(err)
					}
					if m.Params()[i].Frozen { // not computed: exactly zero
						if slices.ContainsFunc(got, func(v float64) bool { return v != 0 }) {
							t.Errorf("frozen %s has the gradient %v, want zeros", l.Name(), got)
						}
						continue
					}
					assertClose(t, l.Name(), got, want, tol[dt])
				}
			})
		}
	}
}

// TestPassSeesUpdates: the pass reads the model's tensors in place, so a change of the
// parameters (as a solver step makes) changes the next Forward, and a second Backward
// overwrites the gradients rather than adding to them.
func TestPassSeesUpdates(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 5, Hidden: []int{7}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	const rows = 6
	x := randomRows(7, rows, 5)
	p, err := NewPass(m, rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.setInput(x); err != nil {
		t.Fatal(err)
	}
	ones := []float64{1, 1, 1, 1, 1, 1}
	p.Forward()
	if err := p.Backward(ones); err != nil {
		t.Fatal(err)
	}
	first := append([]float64(nil), p.Grads()[3].Float64s()...) // output bias: Σ δ = 6
	if err := p.Backward(ones); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "second backward", p.Grads()[3].Float64s(), first, 0)
	assertClose(t, "output bias gradient", first, []float64{rows}, 0)

	m.Params()[3].Value.Float64s()[0] += 2 // the output bias
	before := append([]float64(nil), p.scores...)
	after := p.Forward()
	for i := range after {
		after[i] -= before[i]
	}
	assertClose(t, "shift of the scores", after, []float64{2, 2, 2, 2, 2, 2}, 1e-15)
}

func TestPassErrors(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPass(otherModel{m}, 4); !errors.Is(err, ErrNoPass) {
		t.Fatalf("foreign model: %v, want ErrNoPass", err)
	}
	if _, err := NewPass(m, 0); !errors.Is(err, ErrInput) {
		t.Fatalf("zero rows: %v, want ErrInput", err)
	}
	if _, err := NewPass(&MLP{}, 4); !errors.Is(err, ErrInput) {
		t.Fatalf("zero MLP: %v, want ErrInput", err)
	}
	p, err := NewPass(m, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.setInput(make([]float64, 11)); !errors.Is(err, ErrInput) {
		t.Fatalf("short input: %v, want ErrInput", err)
	}
	p32, err := NewPass(newMLP(t, MLPConfig{In: 3, Dtype: tensor.Float32}), 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := p32.setInput(make([]float64, 13)); !errors.Is(err, ErrInput) {
		t.Fatalf("long float32 input: %v, want ErrInput", err)
	}
	if err := p.Backward(make([]float64, 3)); !errors.Is(err, ErrInput) {
		t.Fatalf("short gradient: %v, want ErrInput", err)
	}
}

// otherModel is a model of another package: it wraps an MLP but is not one.
type otherModel struct{ *MLP }

// TestScorerReuse: one Scorer, called again and again, gives the scores of the reference
// forward pass — over a full 4096-row chunk plus a tail, for an MLP (a Pass) and for a model
// of another package (a graph) — and sees a parameter update made between two calls.
func TestScorerReuse(t *testing.T) {
	const rows = scoreChunk + 37
	const tol = 1e-12
	x := randomRows(8, rows, 5)
	mlp, err := NewMLP(MLPConfig{In: 5, Hidden: []int{6}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]Model{"pass": mlp, "graph": otherModel{&MLP{network: mlp.network}}} {
		t.Run(name, func(t *testing.T) {
			s, err := NewScorer(m)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for call := range 3 {
				in := x
				switch call {
				case 1:
					in = randomRows(9, rows, 5) // other rows through the kept input
				case 2:
					m.Params()[0].Value.Float64s()[0] += 0.5 // an update between calls
				}
				got, err := ScoresWith(s, in, rows)
				if err != nil {
					t.Fatal(err)
				}
				want := referenceScores(t, m.Params(), ReLU, in, rows)
				assertClose(t, fmt.Sprintf("call %d", call), got, want, tol)
			}
			short, err := ScoresWith(s, x[:3*5], 3) // another tail size replaces the cached one
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "3 rows", short, referenceScores(t, m.Params(), ReLU, x[:15], 3), tol)
		})
	}
}

// TestPassIndependentOfAddress: a pass's scores and gradients depend on the parameters'
// values, not on where they are allocated. Each parameter is moved into a fresh slice
// starting 1, 2 or 3 elements in (so across 16-byte boundaries), and a new pass over the same
// input and score gradients must give the same bits as before the move, for both dtypes,
// hidden layers narrower than, as wide as and wider than the kernels' 16 columns, two hidden
// layers and several outputs, with LoRA adapters on every layer or without. The float32 pass used to depend on the alignment of the
// weights: gonum's float32 dot product, in its A·x (an output layer of one unit, or a hidden
// layer of one) and its A·Bᵀ (the gradient through a layer of several units), starts its
// vector loop at a 16-byte boundary, so a model allocated elsewhere trained to other weights.
func TestPassIndependentOfAddress(t *testing.T) {
	const in, rows = 5, 64
	x := make([]float64, rows*in)
	for i := range x {
		x[i] = 2 * math.Sin(0.7*float64(i))
	}
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		for _, hidden := range [][]int{{1}, {6}, {15}, {16}, {17}, {6, 6}, {20, 3}} {
			for _, c := range []struct{ outs, rank int }{{1, 0}, {3, 0}, {1, 3}, {3, 2}} {
				outs := c.outs
				name := fmt.Sprintf("%v/hidden=%v/outputs=%d", dt, hidden, outs)
				if c.rank > 0 {
					name += fmt.Sprintf("/lora=%d", c.rank)
				}
				t.Run(name, func(t *testing.T) {
					m, err := NewMLP(MLPConfig{In: in, Hidden: hidden, Outputs: outs, Seed: 3, Dtype: dt})
					if err != nil {
						t.Fatal(err)
					}
					if c.rank > 0 { // adapters on every layer, B drawn
						if m, err = Transfer(m, TransferConfig{Body: len(m.layers), Rank: c.rank, Alpha: 1.5}); err != nil {
							t.Fatal(err)
						}
						for _, p := range m.Params() {
							if strings.HasSuffix(p.Name, ".lora_b") {
								copyInto(p.Value, randomRows(5, p.Value.Len(), 1))
							}
						}
					}
					run := func() (scores []float64, grads [][]float64) {
						p, err := NewPass(m, rows)
						if err != nil {
							t.Fatal(err)
						}
						if err := p.setInput(x); err != nil {
							t.Fatal(err)
						}
						scores = append(scores, p.Forward()...)
						ds := make([]float64, len(scores))
						for i := range ds {
							ds[i] = 0.3 * math.Cos(float64(i))
						}
						if err := p.Backward(ds); err != nil {
							t.Fatal(err)
						}
						for _, g := range p.Grads() {
							v, err := opkit.Floats(g)
							if err != nil {
								t.Fatal(err)
							}
							grads = append(grads, append([]float64(nil), v...))
						}
						return scores, grads
					}
					s0, g0 := run()
					for off := 1; off < 4; off++ {
						for k := range m.layers {
							pps := []**tensor.Dense{&m.layers[k].weight, &m.layers[k].bias}
							if ad := m.layers[k].lora; ad != nil {
								pps = append(pps, &ad.a, &ad.b)
							}
							for _, pp := range pps {
								*pp = moved(*pp, off)
							}
						}
						s, g := run()
						if !sameBits(t, off, s, s0, g, g0) {
							t.FailNow()
						}
					}
				})
			}
		}
	}
}

// moved returns a copy of d whose data start off elements into a fresh slice.
func moved(d *tensor.Dense, off int) *tensor.Dense {
	var backing any
	switch v := d.Data().(type) {
	case []float32:
		backing = append(make([]float32, off, off+len(v)), v...)[off:]
	case []float64:
		backing = append(make([]float64, off, off+len(v)), v...)[off:]
	}
	return tensor.New(tensor.WithShape(d.Shape()...), tensor.WithBacking(backing))
}

// setInput copies x, B rows of InputSize() features one row after the other, into the input
// matrix, converting to the model's dtype.
func (p *Pass) setInput(x []float64) error {
	if len(x) != p.input.Len() {
		return fmt.Errorf("%w: %d values for an input of %d", ErrInput, len(x), p.input.Len())
	}
	copyInto(p.input, x)
	return nil
}
