package nn_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/nn"
)

// linear returns the linear scorer s = x·w + b of two features with w = (1, −2) and b = ½, so
// that its scores can be checked by hand.
func linear() *nn.MLP {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	set(m, []float64{1, -2}, []float64{0.5})
	return m
}

// set writes values into m's parameters, in Params order.
func set(m nn.Model, values ...[]float64) {
	for i, p := range m.Params() {
		copy(p.Value.Data().([]float64), values[i])
	}
}

// An MLP of two features, a tanh layer of 4 units and 3 outputs, one score per class:
// 2·4 + 4 weights and biases in the hidden layer, 4·3 + 3 in the output layer.
func ExampleNewMLP() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{4}, Activation: nn.Tanh, Outputs: 3, Dtype: tensor.Float32, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	n, err := nn.NumParams(m)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Architecture(), m.Dtype(), m.Outputs(), "outputs,", n, "parameters")
	_, err = nn.NewMLP(nn.MLPConfig{In: 0})
	fmt.Println(errors.Is(err, rocops.ErrConfig))
	// Output:
	// MLP(in=2, hidden=[4], activation=tanh, outputs=3) float32 3 outputs, 27 parameters
	// true
}

// NumParams counts the scalars of a model's parameters: 30·64 + 64 + 64·1 + 1 for an MLP
// 30→64→1, 30 + 1 for the linear scorer.
func ExampleNumParams() {
	for _, hidden := range [][]int{{64}, nil} {
		m, err := nn.NewMLP(nn.MLPConfig{In: 30, Hidden: hidden})
		if err != nil {
			log.Fatal(err)
		}
		n, err := nn.NumParams(m)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(m.Architecture(), n)
	}
	// Output:
	// MLP(in=30, hidden=[64], activation=relu) 2049
	// Linear(in=30) 31
}

// Outputs is the number of scores a model gives per row.
func ExampleOutputs() {
	for _, k := range []int{0, 1, 3} {
		m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: k})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("Outputs: %d gives %d\n", k, nn.Outputs(m))
	}
	// Output:
	// Outputs: 0 gives 1
	// Outputs: 1 gives 1
	// Outputs: 3 gives 3
}

// The scores of s = x·w + b with w = (1, −2) and b = ½ on the rows (1, 0), (0, 1) and (2, 1):
// 1.5, −1.5 and 0.5, from float64 or float32 features alike.
func ExampleScores() {
	m := linear()
	s, err := nn.Scores(m, []float64{1, 0, 0, 1, 2, 1}, 3)
	if err != nil {
		log.Fatal(err)
	}
	s32, err := nn.Scores(m, []float32{1, 0, 0, 1, 2, 1}, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s, slices.Equal(s, s32))
	// Output:
	// [1.5 -1.5 0.5] true
}

// CheckInput is the check Scores makes first, naming the first bad row and feature.
func ExampleCheckInput() {
	m := linear()
	fmt.Println(nn.CheckInput(m, []float64{1, 0, 0, 1}, 2))
	err := nn.CheckInput(m, []float64{1, 0, math.NaN(), 1}, 2)
	fmt.Println(errors.Is(err, nn.ErrInput), err)
	err = nn.CheckInput(m, []float32{1, 0, 0}, 2)
	fmt.Println(errors.Is(err, nn.ErrInput), err)
	// Output:
	// <nil>
	// true nn: invalid input: row 1, feature 0 is NaN
	// true nn: invalid input: 3 values for 2 rows of 2 features
}

// Save writes a checkpoint atomically; Load reads it into a model of the same architecture
// and refuses one of another.
func ExampleSave() {
	dir, err := os.MkdirTemp("", "nn-save")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.ckpt")
	if err := nn.Save(path, linear()); err != nil {
		log.Fatal(err)
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := nn.Load(path, m); err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Params()[0].Value.Data(), m.Params()[1].Value.Data())
	// Output:
	// [1 -2] [0.5]
}

// Load refuses a checkpoint of another architecture and leaves the model as it was.
func ExampleLoad() {
	dir, err := os.MkdirTemp("", "nn-load")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.ckpt")
	if err := nn.Save(path, linear()); err != nil {
		log.Fatal(err)
	}
	other, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{3}, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	before, err := nn.Snapshot(other)
	if err != nil {
		log.Fatal(err)
	}
	err = nn.Load(path, other)
	fmt.Println(errors.Is(err, nn.ErrArchitecture))
	fmt.Println("unchanged:", slices.Equal(before[0].Value.Data().([]float64), other.Params()[0].Value.Data().([]float64)))
	// Output:
	// true
	// unchanged: true
}

// Write and Read carry a checkpoint through any stream; Read refuses data that are not one.
func ExampleWrite() {
	var buf bytes.Buffer
	if err := nn.Write(&buf, linear()); err != nil {
		log.Fatal(err)
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := nn.Read(&buf, m); err != nil {
		log.Fatal(err)
	}
	s, err := nn.Scores(m, []float64{2, 1}, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s)
	// Output:
	// [0.5]
}

// Read refuses data that are not a checkpoint, and a checkpoint damaged in transit.
func ExampleRead() {
	m := linear()
	err := nn.Read(bytes.NewReader([]byte("not a checkpoint")), m)
	fmt.Println(errors.Is(err, nn.ErrNotCheckpoint))
	var buf bytes.Buffer
	if err := nn.Write(&buf, m); err != nil {
		log.Fatal(err)
	}
	b := buf.Bytes()
	b[len(b)-9] ^= 1 // one bit of the data
	err = nn.Read(bytes.NewReader(b), m)
	fmt.Println(errors.Is(err, nn.ErrDamaged))
	// Output:
	// true
	// true
}

// Describe reads what model a checkpoint was written from, without the model.
func ExampleDescribe() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 30, Hidden: []int{64}, Dtype: tensor.Float32, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if err := nn.Write(&buf, m); err != nil {
		log.Fatal(err)
	}
	arch, dt, err := nn.Describe(&buf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(arch, dt)
	// Output:
	// MLP(in=30, hidden=[64], activation=relu) float32
}

// Snapshot copies the parameters and Restore puts them back, as a trainer keeps the best
// epoch's weights.
func ExampleSnapshot() {
	m := linear()
	saved, err := nn.Snapshot(m)
	if err != nil {
		log.Fatal(err)
	}
	set(m, []float64{0, 0}, []float64{0}) // training moves on
	s, err := nn.Scores(m, []float64{2, 1}, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(saved[0].Name, saved[0].Value.Data(), "score now", s)
	if err := nn.Restore(m, saved); err != nil {
		log.Fatal(err)
	}
	if s, err = nn.Scores(m, []float64{2, 1}, 1); err != nil {
		log.Fatal(err)
	}
	fmt.Println("score restored", s)
	// Output:
	// layer0.weight [1 -2] score now [0]
	// score restored [0.5]
}

// Restore refuses parameters of another model and changes nothing.
func ExampleRestore() {
	other, err := nn.NewMLP(nn.MLPConfig{In: 3})
	if err != nil {
		log.Fatal(err)
	}
	saved, err := nn.Snapshot(other)
	if err != nil {
		log.Fatal(err)
	}
	m := linear()
	err = nn.Restore(m, saved)
	fmt.Println(errors.Is(err, nn.ErrArchitecture), m.Params()[0].Value.Data())
	// Output:
	// true [1 -2]
}

// ParseActivation reads an activation's name in any case, as flags give it.
func ExampleParseActivation() {
	for _, name := range []string{"relu", "Tanh", "IDENTITY", "sigmoid"} {
		a, err := nn.ParseActivation(name)
		if err != nil {
			fmt.Println(errors.Is(err, rocops.ErrConfig), err)
			continue
		}
		fmt.Println(a)
	}
	// Output:
	// relu
	// tanh
	// identity
	// true nn: invalid setting: unknown activation "sigmoid" (want relu, tanh or identity)
}

// Glorot draws the weights of a layer of n_in inputs and n_out units from (−a, a),
// a = √(6/(n_in + n_out)): √(6/(30 + 10)) ≈ 0.387 for the hidden layer of an MLP 30→10→1.
func ExampleInit() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 30, Hidden: []int{10}, Activation: nn.Tanh, Init: nn.Glorot, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	largest := 0.0
	for _, w := range m.Params()[0].Value.Data().([]float64) {
		largest = max(largest, math.Abs(w))
	}
	fmt.Printf("%v: every weight within ±%.3f: %v\n", nn.Glorot, math.Sqrt(6.0/40), largest < math.Sqrt(6.0/40))
	fmt.Println(nn.AutoInit, nn.He)
	// Output:
	// glorot: every weight within ±0.387: true
	// auto he
}

// A Pass of the linear scorer on 3 rows: the loss L = Σ_r s_r has ∂L/∂s = 1 on every row, so
// ∂L/∂w is the sum of the rows, (3, 2), and ∂L/∂b = 3.
func ExampleNewPass() {
	m := linear()
	p, err := nn.NewPass(m, 3)
	if err != nil {
		log.Fatal(err)
	}
	copy(p.Input().Data().([]float64), []float64{1, 0, 0, 1, 2, 1})
	fmt.Println("scores", p.Forward())
	if err := p.Backward([]float64{1, 1, 1}); err != nil {
		log.Fatal(err)
	}
	for i, g := range p.Grads() {
		fmt.Println(m.Params()[i].Name, g.Data())
	}
	// Output:
	// scores [1.5 -1.5 0.5]
	// layer0.weight [3 2]
	// layer0.bias [3]
}

// A Scorer reads the model's parameters at every call, so it scores an update made in between.
func ExampleNewScorer() {
	m := linear()
	s, err := nn.NewScorer(m)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	before, err := nn.ScoresWith(s, []float64{2, 1}, 1)
	if err != nil {
		log.Fatal(err)
	}
	set(m, []float64{1, -2}, []float64{1.5}) // the bias moves from ½ to 1.5
	after, err := nn.ScoresWith(s, []float64{2, 1}, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(before, after)
	// Output:
	// [0.5] [1.5]
}

// A Directional model's tangents are the directional derivatives of its scores: for an MLP
// they match the central difference (s(θ + εv) − s(θ − εv))/(2ε) of its scores.
func ExampleDirectional() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{3}, Activation: nn.Tanh, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	d, ok := nn.Model(m).(nn.Directional)
	fmt.Println("an MLP is Directional:", ok)
	n, err := nn.NumParams(m)
	if err != nil {
		log.Fatal(err)
	}
	v := make([]float64, n) // a direction: every parameter, each by its own amount
	for i := range v {
		v[i] = float64(i%3) - 1
	}
	x := []float64{0.5, -1, 2, 0.25}
	_, tangents, err := d.ScoresAlong(x, 2, v)
	if err != nil {
		log.Fatal(err)
	}
	const eps = 1e-5
	move := func(by float64) []float64 { // the scores at θ + by·v
		saved, err := nn.Snapshot(m)
		if err != nil {
			log.Fatal(err)
		}
		k := 0
		for _, p := range m.Params() {
			data := p.Value.Data().([]float64)
			for j := range data {
				data[j] += by * v[k]
				k++
			}
		}
		s, err := nn.Scores(m, x, 2)
		if err != nil {
			log.Fatal(err)
		}
		if err := nn.Restore(m, saved); err != nil {
			log.Fatal(err)
		}
		return s
	}
	up, down := move(eps), move(-eps)
	for r, t := range tangents {
		fd := (up[r] - down[r]) / (2 * eps)
		fmt.Printf("row %d: tangent %.6f, central difference %.6f\n", r, t, fd)
	}
	// Output:
	// an MLP is Directional: true
	// row 0: tangent -2.139203, central difference -2.139203
	// row 1: tangent -0.762742, central difference -0.762742
}
