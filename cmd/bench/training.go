package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gorgonia.org/gorgonia"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
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
	// StepSeconds is the wall time of one step: a timed epoch's divided by its steps; StepCPU
	// the processor time (nil where the platform does not report it).
	StepSeconds stats  `json:"step_seconds"`
	StepCPU     *stats `json:"step_cpu_seconds,omitempty"`
	// ExamplesPerSecond is Batch divided by the median step time of the report's clock.
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
		steps int
		times []float64
		cpu   []float64
		run   func() (wall, cpu float64, cpuOK bool, err error)
	}
	var cells []*cell
	for _, b := range s.Batches {
		steps := s.epochSteps(b)
		ds, err := trainData(b*steps, b)
		if err != nil {
			return err
		}
		for _, l := range losses {
			cells = append(cells, &cell{loss: l.Name, batch: b, steps: steps, run: func() (float64, float64, bool, error) { return timedEpoch(ds, l.Loss, b) }})
		}
		products := newMatmulStep(b)
		cells = append(cells, &cell{loss: matmulFloor, batch: b, steps: steps, run: func() (float64, float64, bool, error) {
			w := startWatch()
			for range steps {
				products.run()
			}
			wall, cpu, ok := w.elapsed()
			return wall, cpu, ok, nil
		}})
	}
	for r := range s.Repeats {
		for _, c := range cells {
			prog.line(fmt.Sprintf("training: repeat %d/%d, %s at batch %d", r+1, s.Repeats, c.loss, c.batch))
			runtime.GC() // start every repeat with a clean heap, so that none pays for another's garbage
			wall, cpu, ok, err := c.run()
			if err != nil {
				return fmt.Errorf("training %s at batch %d: %w", c.loss, c.batch, err)
			}
			c.times = append(c.times, wall/float64(c.steps))
			if ok {
				c.cpu = append(c.cpu, cpu/float64(c.steps))
			}
		}
	}
	for _, c := range cells {
		t := throughput{Loss: c.loss, Batch: c.batch, Steps: c.steps,
			StepSeconds: summarize(c.times), StepCPU: summarizeCPU(c.cpu, s.Repeats)}
		t.ExamplesPerSecond = float64(c.batch) / rep.step(t).Median
		rep.Training = append(rep.Training, t)
	}
	return nil
}

// epochSteps is the number of steps of a timed epoch at batch size b.
func (s settings) epochSteps(b int) int { return max(4, (s.EpochRows+b-1)/b) }

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
// epoch's wall and processor seconds.
func timedEpoch(ds *data.Dataset, loss train.Loss, b int) (wall, cpu float64, cpuOK bool, err error) {
	m, err := nn.NewMLP(nn.MLPConfig{In: trainIn, Hidden: []int{trainHidden}, Seed: 1})
	if err != nil {
		return 0, 0, false, err
	}
	init, err := nn.Snapshot(m)
	if err != nil {
		return 0, 0, false, err
	}
	var w stopwatch
	hook := train.Hook{Name: "timer", OnEpoch: func(e train.Epoch) error {
		switch e.Index {
		case 1:
			if err := nn.Restore(m, init); err != nil {
				return err
			}
			w = startWatch()
		case 2:
			wall, cpu, cpuOK = w.elapsed()
		}
		return nil
	}}
	tr, err := train.New(m, train.Config{Loss: loss, Epochs: 2, BatchSize: b, Seed: 1,
		Hooks: []train.Hook{hook}, Progress: io.Discard})
	if err != nil {
		return 0, 0, false, err
	}
	if _, err := tr.Fit(context.Background(), ds, nil); err != nil {
		return 0, 0, false, err
	}
	return wall, cpu, cpuOK, nil
}

// matmulStep holds the matrices of the products one training step of the MLP on a batch of b
// rows cannot do without, as train's BenchmarkStepMatMuls defines them, with x the inputs,
// W0 (in×hidden) and w1 (hidden) the weights, h the hidden activations, s the scores and δ
// their gradient:
//
//	forward   h = x·W0 (Dgemm),  s = h·w1 (Dgemv)
//	backward  ∂w1 = hᵀ·δ (Dgemv),  ∂h = δ·w1ᵀ (Dger),  ∂W0 = xᵀ·∂h (Dgemm)
//
// Nothing else: no activation, loss, bias or update.
type matmulStep struct {
	b                                int
	x, w0, h, w1, s, d, dw1, dh, dw0 []float64
	impl                             blas.Float64
}

func newMatmulStep(b int) *matmulStep {
	rng := rand.New(rand.NewPCG(uint64(b), 1))
	fill := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	return &matmulStep{b: b, impl: gorgonia.WhichBLAS(),
		x: fill(b * trainIn), w0: fill(trainIn * trainHidden), h: make([]float64, b*trainHidden),
		w1: fill(trainHidden), s: make([]float64, b), d: fill(b), dw1: make([]float64, trainHidden),
		dh: make([]float64, b*trainHidden), dw0: make([]float64, trainIn*trainHidden)}
}

func (m *matmulStep) run() {
	const in, hid = trainIn, trainHidden
	nt, t := blas.NoTrans, blas.Trans
	m.impl.Dgemm(nt, nt, m.b, hid, in, 1, m.x, in, m.w0, hid, 0, m.h, hid)
	m.impl.Dgemv(nt, m.b, hid, 1, m.h, hid, m.w1, 1, 0, m.s, 1)
	m.impl.Dgemv(t, m.b, hid, 1, m.h, hid, m.d, 1, 0, m.dw1, 1)
	clear(m.dh)
	m.impl.Dger(m.b, hid, 1, m.d, 1, m.w1, 1, m.dh, hid)
	m.impl.Dgemm(t, nt, in, hid, m.b, 1, m.x, in, m.dh, hid, 0, m.dw0, hid)
}
