package nn

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/opkit"
)

// trainedBase returns NewMLP(cfg) with every parameter, biases included, drawn by
// randomRows(seed), as after training (a fresh MLP's zero biases would hide a bias that is
// dropped or misplaced).
func trainedBase(t *testing.T, cfg MLPConfig, seed uint64) *MLP {
	t.Helper()
	m, err := NewMLP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range m.Params() {
		copyInto(p.Value, randomRows(seed+uint64(k), p.Value.Len(), 1))
	}
	return m
}

// graphScores returns m's scores of x (rows × InputSize) from its Gorgonia graph.
func graphScores(t *testing.T, m Model, x []float64, rows int) []float64 {
	t.Helper()
	g := gorgonia.NewGraph()
	xv, err := newMatrix(m.Dtype(), rows, m.InputSize(), x)
	if err != nil {
		t.Fatal(err)
	}
	xn := gorgonia.NewMatrix(g, m.Dtype(), gorgonia.WithShape(rows, m.InputSize()), gorgonia.WithValue(xv), gorgonia.WithName("x"))
	scores, _, err := m.Build(g, xn)
	if err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	s, err := opkit.Floats(scores.Value())
	if err != nil {
		t.Fatal(err)
	}
	return append([]float64(nil), s...)
}

// sameFloats fails unless got and want hold the same bits.
func sameFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s[%d] = %.17g, want %.17g bit for bit", what, i, got[i], want[i])
		}
	}
}

// TestLoRAStartsAsBase: a model whose layers all carry fresh LoRA adapters (B = 0) scores
// every row as its base does, bit for bit — through a Pass (Scores), through the Gorgonia graph
// and through ScoresAlong — for scales 1 and 0.75, one output and three, both dtypes.
func TestLoRAStartsAsBase(t *testing.T) {
	const rows = 11
	for _, dt := range dtypes {
		for _, c := range []struct {
			name string
			base MLPConfig
			cfg  TransferConfig
		}{
			{"relu/r=2", MLPConfig{In: 6, Hidden: []int{20, 17}}, TransferConfig{Body: 3, Rank: 2}},
			{"relu/r=4/α=3", MLPConfig{In: 6, Hidden: []int{20, 17}}, TransferConfig{Body: 3, Rank: 4, Alpha: 3}},
			{"tanh/3 outputs", MLPConfig{In: 6, Hidden: []int{9}, Activation: Tanh, Outputs: 3}, TransferConfig{Body: 2, Rank: 3, Alpha: 2.25}},
			{"linear", MLPConfig{In: 6}, TransferConfig{Body: 1, Rank: 1}},
		} {
			t.Run(fmt.Sprintf("%v/%s", dt, c.name), func(t *testing.T) {
				c.base.Dtype = dt
				base := trainedBase(t, c.base, 91)
				m, err := Transfer(base, c.cfg)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := m.Architecture(), base.Architecture(); !strings.HasPrefix(got, strings.TrimSuffix(want, ")")+", lora=") {
					t.Fatalf("Architecture() = %q, want %q with its adapters", got, want)
				}
				x := randomRows(92, rows, 6)
				want, err := Scores(base, x, rows)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Scores(m, x, rows)
				if err != nil {
					t.Fatal(err)
				}
				sameFloats(t, "Scores", got, want)
				sameFloats(t, "graph scores", graphScores(t, m, x, rows), graphScores(t, base, x, rows))
				n, err := NumParams(m)
				if err != nil {
					t.Fatal(err)
				}
				along, _, err := m.ScoresAlong(x, rows, make([]float64, n))
				if err != nil {
					t.Fatal(err)
				}
				baseAlong, _, err := base.ScoresAlong(x, rows, make([]float64, n-loraParams(m)))
				if err != nil {
					t.Fatal(err)
				}
				sameFloats(t, "ScoresAlong", along, baseAlong)
			})
		}
	}
}

// loraParams returns the number of scalars in m's adapters.
func loraParams(m *MLP) int {
	n := 0
	for _, l := range m.layers {
		if l.lora != nil {
			n += l.lora.a.Len() + l.lora.b.Len()
		}
	}
	return n
}

// TestTransferLayout: the parameters Transfer gives — names, shapes, which are frozen, the
// body's values copied bit for bit and not shared with the base, B zero and A within
// ±1/√n_in — and the architecture line, for the three arms of a transfer study and others.
func TestTransferLayout(t *testing.T) {
	base := trainedBase(t, MLPConfig{In: 10, Hidden: []int{8, 6}, Outputs: 5}, 93)
	type param struct {
		name   string
		shape  tensor.Shape
		frozen bool
	}
	for _, c := range []struct {
		name   string
		cfg    TransferConfig
		arch   string
		params []param
	}{
		{"new head", TransferConfig{}, "MLP(in=10, hidden=[8 6], activation=relu)", []param{
			{"layer0.weight", tensor.Shape{10, 8}, false}, {"layer0.bias", tensor.Shape{8}, false},
			{"layer1.weight", tensor.Shape{8, 6}, false}, {"layer1.bias", tensor.Shape{6}, false},
			{"layer2.weight", tensor.Shape{6, 1}, false}, {"layer2.bias", tensor.Shape{1}, false}}},
		{"frozen body", TransferConfig{Freeze: 2, Outputs: 3}, "MLP(in=10, hidden=[8 6], activation=relu, outputs=3)", []param{
			{"layer0.weight", tensor.Shape{10, 8}, true}, {"layer0.bias", tensor.Shape{8}, true},
			{"layer1.weight", tensor.Shape{8, 6}, true}, {"layer1.bias", tensor.Shape{6}, true},
			{"layer2.weight", tensor.Shape{6, 3}, false}, {"layer2.bias", tensor.Shape{3}, false}}},
		{"lora body, head of another width", TransferConfig{Rank: 4, Hidden: []int{7}},
			"MLP(in=10, hidden=[8 6 7], activation=relu, lora=[0 1], rank=4, alpha=4)", []param{
				{"layer0.weight", tensor.Shape{10, 8}, true}, {"layer0.bias", tensor.Shape{8}, true},
				{"layer0.lora_a", tensor.Shape{4, 10}, false}, {"layer0.lora_b", tensor.Shape{8, 4}, false},
				{"layer1.weight", tensor.Shape{8, 6}, true}, {"layer1.bias", tensor.Shape{6}, true},
				{"layer1.lora_a", tensor.Shape{4, 8}, false}, {"layer1.lora_b", tensor.Shape{6, 4}, false},
				{"layer2.weight", tensor.Shape{6, 7}, false}, {"layer2.bias", tensor.Shape{7}, false},
				{"layer3.weight", tensor.Shape{7, 1}, false}, {"layer3.bias", tensor.Shape{1}, false}}},
		{"first layer kept, frozen", TransferConfig{Body: 1, Freeze: 1}, "MLP(in=10, hidden=[8], activation=relu)", []param{
			{"layer0.weight", tensor.Shape{10, 8}, true}, {"layer0.bias", tensor.Shape{8}, true},
			{"layer1.weight", tensor.Shape{8, 1}, false}, {"layer1.bias", tensor.Shape{1}, false}}},
		{"whole model, lora on the output layer, α = 1", TransferConfig{Body: 3, Rank: 2, Alpha: 1, Adapt: []int{2}, Freeze: 1},
			"MLP(in=10, hidden=[8 6], activation=relu, outputs=5, lora=[2], rank=2, alpha=1)", []param{
				{"layer0.weight", tensor.Shape{10, 8}, true}, {"layer0.bias", tensor.Shape{8}, true},
				{"layer1.weight", tensor.Shape{8, 6}, false}, {"layer1.bias", tensor.Shape{6}, false},
				{"layer2.weight", tensor.Shape{6, 5}, true}, {"layer2.bias", tensor.Shape{5}, true},
				{"layer2.lora_a", tensor.Shape{2, 6}, false}, {"layer2.lora_b", tensor.Shape{5, 2}, false}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := paramBits(t, base)
			m, err := Transfer(base, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Architecture(); got != c.arch {
				t.Errorf("Architecture() = %q, want %q", got, c.arch)
			}
			ps := m.Params()
			if len(ps) != len(c.params) {
				t.Fatalf("%d parameters %v, want %d", len(ps), ps, len(c.params))
			}
			for i, want := range c.params {
				p := ps[i]
				if p.Name != want.name || !p.Value.Shape().Eq(want.shape) || p.Frozen != want.frozen {
					t.Errorf("parameter %d is %s %v frozen=%v, want %s %v frozen=%v", i, p.Name, p.Value.Shape(), p.Frozen, want.name, want.shape, want.frozen)
				}
				v := paramValues(t, p)
				switch {
				case strings.HasSuffix(p.Name, ".lora_b"):
					if slices.ContainsFunc(v, func(x float64) bool { return x != 0 }) {
						t.Errorf("%s = %v, want zeros", p.Name, v)
					}
				case strings.HasSuffix(p.Name, ".lora_a"):
					bound := 1 / math.Sqrt(float64(p.Value.Shape()[1]))
					if slices.ContainsFunc(v, func(x float64) bool { return !(math.Abs(x) < bound) }) || slices.Max(v) == slices.Min(v) {
						t.Errorf("%s = %v, want distinct values within ±%v", p.Name, v, bound)
					}
				}
			}
			// Kept layers: the base's bits, in tensors of their own.
			for k := range cmp.Or(c.cfg.Body, len(base.layers)-1) {
				for _, pair := range [][2]*tensor.Dense{{m.layers[k].weight, base.layers[k].weight}, {m.layers[k].bias, base.layers[k].bias}} {
					if pair[0] == pair[1] {
						t.Fatalf("layer %d shares a tensor with the base", k)
					}
					sameFloats(t, fmt.Sprintf("layer %d", k), paramValues(t, Param{Value: pair[0]}), paramValues(t, Param{Value: pair[1]}))
				}
			}
			for _, p := range ps {
				copyInto(p.Value, randomRows(94, p.Value.Len(), 1))
			}
			after := paramBits(t, base)
			for i := range before {
				if !slices.Equal(before[i], after[i]) {
					t.Fatalf("changing the transferred model changed the base's %s", base.Params()[i].Name)
				}
			}
		})
	}
}

// TestTransferHeadSeed: the new head depends on Seed alone, not on the adapters, so the arms of
// a transfer study share their head's initialisation; the head's weights are drawn as NewMLP
// draws an MLP's from the same seed (the head's first layer as a first layer of that width).
func TestTransferHeadSeed(t *testing.T) {
	base := trainedBase(t, MLPConfig{In: 7, Hidden: []int{6, 5}}, 95)
	frozen, err := Transfer(base, TransferConfig{Freeze: 2, Hidden: []int{4}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	lora, err := Transfer(base, TransferConfig{Rank: 2, Hidden: []int{4}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := NewMLP(MLPConfig{In: 5, Hidden: []int{4}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for k := range 2 {
		f := paramValues(t, Param{Value: frozen.layers[2+k].weight})
		sameFloats(t, fmt.Sprintf("head layer %d, lora arm", k), paramValues(t, Param{Value: lora.layers[2+k].weight}), f)
		sameFloats(t, fmt.Sprintf("head layer %d, NewMLP", k), paramValues(t, Param{Value: fresh.layers[k].weight}), f)
	}
	other, err := Transfer(base, TransferConfig{Rank: 2, Hidden: []int{4}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(paramValues(t, Param{Value: other.layers[2].weight}), paramValues(t, Param{Value: lora.layers[2].weight})) ||
		slices.Equal(paramValues(t, Param{Value: other.layers[0].lora.a}), paramValues(t, Param{Value: lora.layers[0].lora.a})) {
		t.Error("seeds 3 and 4 gave the same head or the same A")
	}
}

// TestTransferErrors: every setting outside its domain is rocops.ErrConfig naming it, and a nil
// base or one with adapters ErrInput; the messages start with the package name.
func TestTransferErrors(t *testing.T) {
	base := trainedBase(t, MLPConfig{In: 4, Hidden: []int{3}}, 96)
	adapted, err := Transfer(base, TransferConfig{Body: 2, Rank: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		base *MLP
		cfg  TransferConfig
		want error
		msg  string
	}{
		{"nil base", nil, TransferConfig{}, ErrInput, "nil or empty base"},
		{"empty base", &MLP{}, TransferConfig{}, ErrInput, "nil or empty base"},
		{"base with adapters", adapted, TransferConfig{}, ErrInput, "LoRA adapter on layer 0"},
		{"negative body", base, TransferConfig{Body: -1}, rocops.ErrConfig, "Body = -1"},
		{"body past the base", base, TransferConfig{Body: 3}, rocops.ErrConfig, "Body = 3"},
		{"head on the whole model", base, TransferConfig{Body: 2, Outputs: 2}, rocops.ErrConfig, "Hidden and Outputs must be unset"},
		{"hidden on the whole model", base, TransferConfig{Body: 2, Hidden: []int{2}}, rocops.ErrConfig, "Hidden and Outputs must be unset"},
		{"negative outputs", base, TransferConfig{Outputs: -2}, rocops.ErrConfig, "Outputs = -2"},
		{"zero hidden size", base, TransferConfig{Hidden: []int{0}}, rocops.ErrConfig, "hidden layer 0 has size 0"},
		{"negative freeze", base, TransferConfig{Freeze: -1}, rocops.ErrConfig, "Freeze = -1"},
		{"freeze past the body", base, TransferConfig{Freeze: 2}, rocops.ErrConfig, "Freeze = 2"},
		{"negative rank", base, TransferConfig{Rank: -1}, rocops.ErrConfig, "Rank = -1"},
		{"adapt without rank", base, TransferConfig{Adapt: []int{0}}, rocops.ErrConfig, "need Rank ≥ 1"},
		{"alpha without rank", base, TransferConfig{Alpha: 2}, rocops.ErrConfig, "need Rank ≥ 1"},
		{"NaN alpha", base, TransferConfig{Rank: 1, Alpha: math.NaN()}, rocops.ErrConfig, "Alpha = NaN"},
		{"negative alpha", base, TransferConfig{Rank: 1, Alpha: -1}, rocops.ErrConfig, "Alpha = -1"},
		{"infinite alpha", base, TransferConfig{Rank: 1, Alpha: math.Inf(1)}, rocops.ErrConfig, "Alpha = +Inf"},
		{"adapt a new layer", base, TransferConfig{Rank: 1, Adapt: []int{1}}, rocops.ErrConfig, "Adapt = [1]"},
		{"adapt twice", base, TransferConfig{Body: 2, Rank: 1, Adapt: []int{0, 0}}, rocops.ErrConfig, "Adapt = [0 0]"},
		{"adapt a negative layer", base, TransferConfig{Rank: 1, Adapt: []int{-1}}, rocops.ErrConfig, "Adapt = [-1]"},
		{"unknown init", base, TransferConfig{Init: 7}, rocops.ErrConfig, "unknown initialisation 7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Transfer(c.base, c.cfg)
			if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "nn: ") || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("Transfer = %v, %v; want an error wrapping %v, starting with \"nn: \" and naming %q", m, err, c.want, c.msg)
			}
		})
	}
}

// TestPassSkipsFrozenLayers: Backward stops at the lowest layer with a trainable parameter —
// the buffers ∂L/∂z of the layers below it are never written — and computes no gradient of a
// frozen parameter; with every parameter frozen it does nothing.
func TestPassSkipsFrozenLayers(t *testing.T) {
	const rows = 6
	base := trainedBase(t, MLPConfig{In: 5, Hidden: []int{8, 6, 4}}, 97)
	for _, c := range []struct {
		name   string
		cfg    TransferConfig
		lowest int
	}{
		{"nothing frozen", TransferConfig{}, 0},
		{"frozen body", TransferConfig{Freeze: 3}, 3},
		{"two layers frozen", TransferConfig{Freeze: 2}, 2},
		{"lora on layer 1", TransferConfig{Rank: 2, Adapt: []int{1}, Freeze: 3}, 1},
		{"everything frozen", TransferConfig{Body: 4, Freeze: 4}, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Transfer(base, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range m.Params() {
				if strings.HasSuffix(p.Name, ".lora_b") { // as after training: ∂L/∂A = 0 while B = 0
					copyInto(p.Value, randomRows(102, p.Value.Len(), 1))
				}
			}
			if got := m.lowestTrainable(); got != c.lowest {
				t.Fatalf("lowest trainable layer %d, want %d", got, c.lowest)
			}
			p, err := NewPass(m, rows)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.setInput(randomRows(98, rows, 5)); err != nil {
				t.Fatal(err)
			}
			p.Forward()
			if err := p.Backward(randomRows(99, rows, 1)); err != nil {
				t.Fatal(err)
			}
			run := p.run.(*passOf[float64])
			for k, l := range run.layers {
				written := slices.ContainsFunc(l.dz, func(v float64) bool { return v != 0 })
				if want := k >= c.lowest; written != want {
					t.Errorf("layer %d: ∂L/∂z written %v, want %v", k, written, want)
				}
			}
			for i, prm := range m.Params() {
				computed := slices.ContainsFunc(paramValues(t, Param{Value: p.Grads()[i]}), func(v float64) bool { return v != 0 })
				if computed == prm.Frozen {
					t.Errorf("%s (frozen %v): gradient computed %v", prm.Name, prm.Frozen, computed)
				}
			}
		})
	}
}

// TestTransferCheckpoint: a LoRA model saves and loads whole — into a model built the same way,
// bit for bit — and is refused, as ErrArchitecture, by its base's architecture and by one of
// another rank or α; a frozen body under a new head is an ordinary MLP to a checkpoint: the
// same bytes as NewMLP's model holding the same values, loading into it and from it.
func TestTransferCheckpoint(t *testing.T) {
	for _, dt := range dtypes {
		t.Run(dt.String(), func(t *testing.T) {
			cfg := MLPConfig{In: 5, Hidden: []int{6, 4}, Dtype: dt}
			base := trainedBase(t, cfg, 100)
			build := func(tc TransferConfig) *MLP {
				t.Helper()
				m, err := Transfer(base, tc)
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			lora := build(TransferConfig{Rank: 2, Alpha: 3, Hidden: []int{3}, Seed: 1})
			for _, p := range lora.Params() { // as after training
				copyInto(p.Value, randomRows(101, p.Value.Len(), 1))
			}
			data := encoded(t, lora)
			arch, gotDt, err := Describe(bytes.NewReader(data))
			if err != nil || arch != lora.Architecture() || gotDt != dt {
				t.Fatalf("Describe = %q, %v, %v; want %q, %v", arch, gotDt, err, lora.Architecture(), dt)
			}
			again := build(TransferConfig{Rank: 2, Alpha: 3, Hidden: []int{3}, Seed: 2})
			if err := Read(bytes.NewReader(data), again); err != nil {
				t.Fatal(err)
			}
			if !sameParams(t, again, lora) {
				t.Fatal("the loaded LoRA model differs from the saved one")
			}
			for name, other := range map[string]Model{
				"base":        base,
				"another α":   build(TransferConfig{Rank: 2, Hidden: []int{3}}),
				"another r":   build(TransferConfig{Rank: 3, Alpha: 3, Hidden: []int{3}}),
				"no adapters": build(TransferConfig{Hidden: []int{3}}),
			} {
				if err := Read(bytes.NewReader(data), other); !errors.Is(err, ErrArchitecture) {
					t.Errorf("reading the LoRA checkpoint into the %s model: %v, want ErrArchitecture", name, err)
				}
			}

			frozen := build(TransferConfig{Freeze: 2, Hidden: []int{3}, Seed: 1})
			plain, err := NewMLP(MLPConfig{In: 5, Hidden: []int{6, 4, 3}, Dtype: dt})
			if err != nil {
				t.Fatal(err)
			}
			if err := Restore(plain, frozen.Params()); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(encoded(t, frozen), encoded(t, plain)) {
				t.Fatal("a frozen body's checkpoint differs from the ordinary MLP's of the same values")
			}
			fresh := build(TransferConfig{Freeze: 2, Hidden: []int{3}, Seed: 5})
			if err := Read(bytes.NewReader(encoded(t, plain)), fresh); err != nil {
				t.Fatal(err)
			}
			if !sameParams(t, fresh, frozen) {
				t.Fatal("the ordinary MLP's checkpoint did not load into the frozen model")
			}
			for i, p := range fresh.Params() {
				if p.Frozen != (i < 4) {
					t.Errorf("%s frozen %v after Read", p.Name, p.Frozen)
				}
			}
		})
	}
}

// TestBuildGradOfTrainable: differentiating a model's graph with respect to the learnables of
// its trainable parameters alone, as a trainer does, gives them the gradients that
// differentiating with respect to every learnable gives, bit for bit, builds no gradient of a
// frozen parameter, and adds fewer nodes to the graph (Gorgonia differentiates only the nodes
// between the learnables and the cost). Running the graph leaves every parameter as it was
// (the adapters' transposes copy A and B).
func TestBuildGradOfTrainable(t *testing.T) {
	const rows = 6
	base := trainedBase(t, MLPConfig{In: 5, Hidden: []int{8, 6}}, 103)
	for _, c := range []struct {
		name string
		cfg  TransferConfig
	}{
		{"frozen body", TransferConfig{Freeze: 2, Hidden: []int{3}}},
		{"lora", TransferConfig{Rank: 2, Alpha: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Transfer(base, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range m.Params() {
				if strings.HasSuffix(p.Name, ".lora_b") {
					copyInto(p.Value, randomRows(104, p.Value.Len(), 1))
				}
			}
			x, w := randomRows(105, rows, 5), randomRows(106, rows, 1)
			_, all := graphGradients(t, m, x, rows, w)

			g := gorgonia.NewGraph()
			cost, learnables, _ := weightedScoreCost(t, g, m, x, rows, w)
			before := len(g.AllNodes())
			var wrt gorgonia.Nodes
			for i, p := range m.Params() {
				if !p.Frozen {
					wrt = append(wrt, learnables[i])
				}
			}
			if _, err := gorgonia.Grad(cost, wrt...); err != nil {
				t.Fatal(err)
			}
			added := len(g.AllNodes()) - before
			gAll := gorgonia.NewGraph()
			costAll, learnablesAll, _ := weightedScoreCost(t, gAll, m, x, rows, w)
			beforeAll := len(gAll.AllNodes())
			if _, err := gorgonia.Grad(costAll, learnablesAll...); err != nil {
				t.Fatal(err)
			}
			if addedAll := len(gAll.AllNodes()) - beforeAll; added >= addedAll {
				t.Errorf("differentiating the trainable learnables added %d nodes, all of them %d", added, addedAll)
			}
			vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(wrt...))
			defer vm.Close()
			values := paramBits(t, m)
			if err := vm.RunAll(); err != nil {
				t.Fatal(err)
			}
			for i, b := range paramBits(t, m) {
				if !slices.Equal(b, values[i]) {
					t.Errorf("running the graph changed %s", m.Params()[i].Name)
				}
			}
			for i, p := range m.Params() {
				if p.Frozen {
					if learnables[i].Deriv() != nil {
						t.Errorf("frozen %s has a gradient node", p.Name)
					}
					continue
				}
				gv, err := learnables[i].Grad()
				if err != nil {
					t.Fatal(err)
				}
				got, err := opkit.Floats(gv)
				if err != nil {
					t.Fatal(err)
				}
				sameFloats(t, p.Name, got, all[i])
			}
		})
	}
}
