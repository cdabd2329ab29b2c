package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/blas"
	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
	"github.com/rocops/rocops/train/data"
)

// The training benchmark: an MLP in → hidden → 1 (ReLU) trained by train.Trainer.Fit with
// Adam on rows of trainIn standard normal features, 10% positives shifted by 1 along the first.
const (
	trainIn     = 30
	trainHidden = 64
)

// trainLoss is one loss of the training benchmark.
type trainLoss struct {
	Name string
	Loss train.Loss
}

func trainLosses() []trainLoss {
	return []trainLoss{
		{"ce", train.CrossEntropy{}},
		{"kde", train.KDE{Config: kdequantile.Config{Alpha: kdeAlpha}}},
		{"sqhinge", train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}},
		{"logistic", train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic}}},
	}
}

// matmulFloor is the name of the floor of a training step: its matrix products alone.
const matmulFloor = "floor/matmul"

// throughput is the training speed of one loss (or the floor) at one batch size.
type throughput struct {
	Loss  string `json:"loss"`
	Batch int    `json:"batch"`
	Steps int    `json:"steps"` // steps per timed epoch
	// StepSeconds is the time of one step: a timed epoch's time divided by its steps.
	StepSeconds stats `json:"step_seconds"`
	// ExamplesPerSecond is Batch divided by the median step time.
	ExamplesPerSecond float64 `json:"examples_per_second"`
}

// measureTraining times training at every batch size of the settings. Each repeat of each
// loss is one Fit of two epochs from the same initial weights: the first compiles the step
// and warms it, then a hook restores the initial weights, and the second is timed. Repeats
// of all losses and batch sizes are interleaved.
func measureTraining(rep *report, prog *progress) error {
	s := rep.Settings
	losses := trainLosses()
	type cell struct {
		loss  string
		batch int
		times []float64
		run   func() (time.Duration, error)
	}
	var cells []*cell
	for _, b := range s.Batches {
		ds, err := trainData(b*s.EpochSteps, b)
		if err != nil {
			return err
		}
		for _, l := range losses {
			cells = append(cells, &cell{loss: l.Name, batch: b, run: func() (time.Duration, error) { return timedEpoch(ds, l.Loss, b) }})
		}
		products := newMatmulStep(b)
		cells = append(cells, &cell{loss: matmulFloor, batch: b, run: func() (time.Duration, error) {
			t0 := time.Now()
			for range s.EpochSteps {
				products.run()
			}
			return time.Since(t0), nil
		}})
	}
	for r := range s.Repeats {
		for _, c := range cells {
			prog.line(fmt.Sprintf("training: repeat %d/%d, %s at batch %d", r+1, s.Repeats, c.loss, c.batch))
			runtime.GC() // start every repeat with a clean heap, so that none pays for another's garbage
			d, err := c.run()
			if err != nil {
				return fmt.Errorf("training %s at batch %d: %w", c.loss, c.batch, err)
			}
			c.times = append(c.times, d.Seconds()/float64(s.EpochSteps))
		}
	}
	for _, c := range cells {
		st := summarize(c.times)
		rep.Training = append(rep.Training, throughput{Loss: c.loss, Batch: c.batch, Steps: s.EpochSteps,
			StepSeconds: st, ExamplesPerSecond: float64(c.batch) / st.Median})
	}
	return nil
}

// trainData returns rows labelled rows with a share of 10% positives.
func trainData(rows, seed int) (*data.Dataset, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x747261696e)) // "train"
	x := make([]float64, rows*trainIn)
	y := make([]float64, rows)
	for i := range rows {
		if i%10 == 0 {
			y[i] = 1
		}
		for j := range trainIn {
			x[i*trainIn+j] = rng.NormFloat64()
		}
		x[i*trainIn] += y[i]
	}
	return data.New(x, y, trainIn)
}

// timedEpoch fits a fresh MLP for two epochs of ds at batch size b and returns the second
// epoch's time.
func timedEpoch(ds *data.Dataset, loss train.Loss, b int) (time.Duration, error) {
	m, err := nn.NewMLP(nn.MLPConfig{In: trainIn, Hidden: []int{trainHidden}, Seed: 1})
	if err != nil {
		return 0, err
	}
	init, err := nn.Snapshot(m)
	if err != nil {
		return 0, err
	}
	var start, end time.Time
	hook := train.Hook{Name: "timer", OnEpoch: func(e train.Epoch) error {
		switch e.Index {
		case 1:
			if err := nn.Restore(m, init); err != nil {
				return err
			}
			start = time.Now()
		case 2:
			end = time.Now()
		}
		return nil
	}}
	tr, err := train.New(m, train.Config{Loss: loss, Epochs: 2, BatchSize: b, Seed: 1,
		Hooks: []train.Hook{hook}, Progress: io.Discard})
	if err != nil {
		return 0, err
	}
	if _, err := tr.Fit(context.Background(), ds, nil); err != nil {
		return 0, err
	}
	return end.Sub(start), nil
}

// matmulStep holds the matrices of the products of one training step of the MLP on a batch
// of b rows, with X the inputs, W1 (in×hidden) and W2 (hidden×1) the weights, H the hidden
// activations and Z the scores:
//
//	forward   H = X·W1,  Z = H·W2
//	backward  ∂W2 = Hᵀ·∂Z,  ∂H = ∂Z·W2ᵀ,  ∂W1 = Xᵀ·∂H
//
// The H and ∂H read by the later products are half zeros, as after a ReLU (gonum's product
// skips zero entries); the products write into buffers of their own.
type matmulStep struct {
	b                                 int
	x, w1, h, w2, z, dz, dw2, dh, dw1 []float64
	hOut, dhOut                       []float64
	impl                              blas.Float64
}

func newMatmulStep(b int) *matmulStep {
	rng := rand.New(rand.NewPCG(uint64(b), 1))
	fill := func(n int, relu bool) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
			if relu && v[i] < 0 {
				v[i] = 0
			}
		}
		return v
	}
	return &matmulStep{b: b, impl: gorgonia.WhichBLAS(),
		x: fill(b*trainIn, false), w1: fill(trainIn*trainHidden, false), h: fill(b*trainHidden, true),
		w2: fill(trainHidden, false), z: make([]float64, b), dz: fill(b, false), dw2: make([]float64, trainHidden),
		dh: fill(b*trainHidden, true), dw1: make([]float64, trainIn*trainHidden),
		hOut: make([]float64, b*trainHidden), dhOut: make([]float64, b*trainHidden)}
}

func (m *matmulStep) run() {
	const in, hid = trainIn, trainHidden
	nt, t := blas.NoTrans, blas.Trans
	m.impl.Dgemm(nt, nt, m.b, hid, in, 1, m.x, in, m.w1, hid, 0, m.hOut, hid)
	m.impl.Dgemm(nt, nt, m.b, 1, hid, 1, m.h, hid, m.w2, 1, 0, m.z, 1)
	m.impl.Dgemm(t, nt, hid, 1, m.b, 1, m.h, hid, m.dz, 1, 0, m.dw2, 1)
	m.impl.Dgemm(nt, t, m.b, hid, 1, 1, m.dz, 1, m.w2, 1, 0, m.dhOut, hid)
	m.impl.Dgemm(t, nt, in, hid, m.b, 1, m.x, in, m.dh, hid, 0, m.dw1, hid)
}
