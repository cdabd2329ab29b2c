package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/nn"
)

// TestConvNetGradients checks the hand-written network's graph with the module's gradient
// checker: the gradients of Σᵢ wᵢ·sᵢ with respect to the filters, the dense weights and the
// bias on Gorgonia's TapeMachine against five-point finite differences, in float64, on 3
// random 6×6 images.
func TestConvNetGradients(t *testing.T) {
	const rows, side = 3, 6
	m, err := newConvNet(side, 2, tensor.Float64, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	x := make([]float64, rows*side*side)
	for i := range x {
		x[i] = rng.Float64()
	}
	g := gorgonia.NewGraph()
	xn := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(rows, side*side), gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(rows, side*side), tensor.WithBacking(x))))
	scores, learnables, err := m.Build(g, xn)
	if err != nil {
		t.Fatal(err)
	}
	w := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(rows), gorgonia.WithName("w"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(rows), tensor.WithBacking([]float64{0.7, -1.3, 0.4}))))
	prod, err := gorgonia.HadamardProd(scores, w)
	if err != nil {
		t.Fatal(err)
	}
	cost, err := gorgonia.Sum(prod)
	if err != nil {
		t.Fatal(err)
	}
	gradcheck.Assert(t, cost, learnables, gradcheck.Config{})
}

// standIn returns n images of side×side pixels per class: a nine is a bright vertical bar, the
// others a bright horizontal bar, both at random places, in noise.
func standIn(seed uint64, n, side int) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 3))
	ds := &data.Dataset{Rows: 2 * n, Cols: side * side, LabelName: "nine"}
	for i := range ds.Rows {
		img := make([]float32, side*side)
		for j := range img {
			img[j] = 0.3 * rng.Float32()
		}
		at := rng.IntN(side)
		for k := range side {
			if i%2 == 1 {
				img[k*side+at] = 1
			} else {
				img[at*side+k] = 1
			}
		}
		ds.X32 = append(ds.X32, img...)
		ds.Y = append(ds.Y, float64(i%2))
	}
	for range side * side {
		ds.FeatureNames = append(ds.FeatureNames, "p")
	}
	return ds
}

// TestFitOnStandIn trains the network with the trainer's graph step on a stand-in for MNIST
// (8×8 images of bars) — one warm-up epoch of cross-entropy, two of the squared hinge — and
// checks that it learns (test AUC above 0.95), that every epoch is timed, and that its
// parameters save and load through nn's checkpoints, which refuse another network.
func TestFitOnStandIn(t *testing.T) {
	const side = 8
	tr, val, te := standIn(1, 200, side), standIn(2, 60, side), standIn(3, 100, side)
	var log bytes.Buffer
	o, err := fit(context.Background(), config{Filters: 3, Warmup: 1, Epochs: 2, Batch: 32, LearningRate: 1e-2, Alpha: 0.05, Seed: 1}, tr, val, te, &log)
	if err != nil {
		t.Fatal(err)
	}
	if !(o.TestAUC > 0.95) || len(o.EpochSeconds) != 3 || !strings.Contains(log.String(), "kept epoch") {
		t.Fatalf("test AUC %v after %d timed epochs; log:\n%s", o.TestAUC, len(o.EpochSeconds), log.String())
	}

	m, err := newConvNet(side, 3, tensor.Float32, 4)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "convnet.params")
	if err := nn.Save(path, m); err != nil {
		t.Fatal(err)
	}
	other, err := newConvNet(side, 3, tensor.Float32, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := nn.Load(path, other); err != nil {
		t.Fatal(err)
	}
	for i, p := range other.Params() {
		if !slices.Equal(p.Value.Float32s(), m.Params()[i].Value.Float32s()) {
			t.Errorf("%s differs after Save and Load", p.Name)
		}
	}
	wider, err := newConvNet(side, 4, tensor.Float32, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := nn.Load(path, wider); err == nil {
		t.Error("a checkpoint of 3 filters loaded into a network of 4")
	}
}
