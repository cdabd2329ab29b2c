package train

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/cputime"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/optim"
)

// BenchmarkStep times one training step — forward, backward and optim.Adam update — of an MLP
// 30→64→1 on a batch of 128 (the trainer's default) or 1024 rows with 10% positives, per
// loss and dtype, through the trainer's step (the direct step: nn.Pass and the loss on
// slices). Names: BenchmarkStep/loss=ce|kde|sqhinge|logistic/batch=128|1024/dtype=float32|float64.
// The targets: the KDE and squared-hinge steps cost at most 1.10× the cross-entropy step,
// the cross-entropy step little more than BenchmarkStepMatMuls, the float32 step at most 0.8×
// the float64 one, and no allocation in a float32 step.
//
// Every step starts from the same initial weights (restored with the timer stopped): gonum's
// matrix product skips zero entries, so the cost of the network's own passes depends on how
// many ReLUs are off, and steps taken along each loss's own training path would compare the
// paths rather than the losses.
func BenchmarkStep(b *testing.B) {
	const in = 30
	ds := blobs(b, 4096, in, 0.1, 1, 1)
	for _, c := range []struct {
		name string
		loss Loss
	}{
		{"ce", CrossEntropy{}},
		{"kde", KDE{Config: kdequantile.Config{Alpha: 0.1}}},
		{"sqhinge", Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}},
		{"logistic", Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic}}},
	} {
		b.Run("loss="+c.name, func(b *testing.B) {
			for _, batch := range []int{128, 1024} {
				idx := make([]int, batch)
				for i := range idx {
					idx[i] = i
				}
				b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
					for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
						b.Run("dtype="+dt.String(), func(b *testing.B) { benchMLPStep(b, dt, c.loss, ds, idx) })
					}
				})
			}
		})
	}
	benchArms(b)
}

// BenchmarkGraphStep is BenchmarkStep/loss=ce/batch=1024 through the Gorgonia graph step,
// the one models of other packages and losses without a form on slices take: the MLP
// 30→64→1 built into a graph once, the batch copied into its input tensors, the
// TapeMachine's run and the same optim.Adam update. Names:
// BenchmarkGraphStep/loss=ce/dtype=float32|float64, to read beside
// BenchmarkStep/loss=ce/batch=1024/dtype=float32|float64.
func BenchmarkGraphStep(b *testing.B) {
	const batch, in = 1024, 30
	ds := blobs(b, 4*batch, in, 0.1, 1, 1)
	idx := make([]int, batch)
	for i := range idx {
		idx[i] = i
	}
	b.Run("loss=ce", func(b *testing.B) {
		for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
			b.Run("dtype="+dt.String(), func(b *testing.B) {
				m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{64}, Seed: 1, Dtype: dt})
				if err != nil {
					b.Fatal(err)
				}
				opt, err := optim.NewStepper(optim.Adam, 1e-3)
				if err != nil {
					b.Fatal(err)
				}
				st, err := newGraphStep(m, CrossEntropy{}, rocops.Task{}, batch, in, opt)
				if err != nil {
					b.Fatal(err)
				}
				defer st.close()
				benchSteps(b, m, st, ds, idx)
			})
		}
	})
}

// BenchmarkStepMatMuls is the floor of BenchmarkStep: the matrix products a step of the MLP
// 30→64→1 on 1024 rows cannot do without, through the same BLAS (gorgonia.WhichBLAS) and on
// the operands of BenchmarkStep/loss=ce's first step (gonum's product skips zero entries,
// so the ReLU zeros must be the step's own) — the forward products x·W₀ and h·w₁, and the
// backward products hᵀ·δ (∂L/∂w₁), δ·w₁ᵀ (∂L/∂h) and xᵀ·∂L/∂z₀ (∂L/∂W₀). Nothing else: no
// activation, loss, bias or update.
func BenchmarkStepMatMuls(b *testing.B) {
	const rows, in, hid = 1024, 30, 64
	ds := blobs(b, 4*rows, in, 0.1, 1, 1)
	m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{64}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	ps := m.Params()
	x, w0, w1 := ds.X[:rows*in], ps[0].Value.Float64s(), ps[2].Value.Float64s()
	bl := gorgonia.WhichBLAS()
	// The step's operands: h = ReLU(x·W₀) (zero biases at initialisation), δ = ∂CE/∂s, and
	// ∂L/∂z₀ = (δ·w₁ᵀ) masked by the ReLU.
	h, s, d := make([]float64, rows*hid), make([]float64, rows), make([]float64, rows)
	bl.Dgemm(blas.NoTrans, blas.NoTrans, rows, hid, in, 1, x, in, w0, hid, 0, h, hid)
	for i, v := range h {
		h[i] = max(v, 0)
	}
	bl.Dgemv(blas.NoTrans, rows, hid, 1, h, hid, w1, 1, 0, s, 1)
	if _, err := (CrossEntropy{}).ValueGradInto(d, s, ds.Y[:rows], rocops.Task{}); err != nil {
		b.Fatal(err)
	}
	dz := make([]float64, rows*hid)
	bl.Dger(rows, hid, 1, d, 1, w1, 1, dz, hid)
	for i, v := range h {
		if v == 0 {
			dz[i] = 0
		}
	}
	dh, dw0, dw1 := make([]float64, rows*hid), make([]float64, in*hid), make([]float64, hid)
	b.ReportAllocs()
	stop := cputime.Report(b)
	for b.Loop() {
		bl.Dgemm(blas.NoTrans, blas.NoTrans, rows, hid, in, 1, x, in, w0, hid, 0, h, hid)
		bl.Dgemv(blas.NoTrans, rows, hid, 1, h, hid, w1, 1, 0, s, 1)
		bl.Dgemv(blas.Trans, rows, hid, 1, h, hid, d, 1, 0, dw1, 1)
		clear(dh)
		bl.Dger(rows, hid, 1, d, 1, w1, 1, dh, hid)
		bl.Dgemm(blas.Trans, blas.NoTrans, in, hid, rows, 1, x, in, dz, hid, 0, dw0, hid)
	}
	stop()
}

// benchMLPStep times the trainer's step (optim.Adam, learning rate 1e-3) of an MLP
// ds.Cols→64→1 of dtype dt, initialised with seed 1, under loss on the rows idx of ds, with
// benchSteps.
func benchMLPStep(b *testing.B, dt tensor.Dtype, loss Loss, ds *data.Dataset, idx []int) {
	m, err := nn.NewMLP(nn.MLPConfig{In: ds.Cols, Hidden: []int{64}, Seed: 1, Dtype: dt})
	if err != nil {
		b.Fatal(err)
	}
	st, err := newStep(m, loss, rocops.Task{}, len(idx), ds.Cols, Config{Optimizer: optim.Adam, LearningRate: 1e-3})
	if err != nil {
		b.Fatal(err)
	}
	defer st.close()
	benchSteps(b, m, st, ds, idx)
}

// benchSteps times st.run on the rows idx of ds, restoring m's initial weights with the timer
// stopped before every step, and reports allocations and processor time per step.
func benchSteps(b *testing.B, m nn.Model, st step, ds *data.Dataset, idx []int) {
	init, err := nn.Snapshot(m)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	stop := cputime.Report(b)
	for range b.N {
		b.StopTimer()
		if err := nn.Restore(m, init); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := st.run(ds, idx); err != nil {
			b.Fatal(err)
		}
	}
	stop()
}

// BenchmarkEpoch times one epoch of Fit — ⌈rows/batch⌉ cross-entropy steps of an MLP
// 30→64→1 (optim.Adam, learning rate 1e-3, seed 1) with the sampler, the batch copy and the
// per-step bookkeeping, no validation — on rows × 30 features drawn as the long-tagged
// generator of data draws big.csv (10% positives, standard normal features, the first five
// shifted by 1 for positives). It reports the epoch's throughput as "rows/s" beside the
// processor time, for docs/benchmarks.md's end-to-end comparison with docs/pytorch/ce_epoch.py.
// Names: BenchmarkEpoch/rows=100000|1000000/batch=128|1024/dtype=float32|float64; the data are
// made once per row count, outside the timer.
func BenchmarkEpoch(b *testing.B) {
	const cols = 30
	for _, rows := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			ds := epochData(b, rows, cols)
			for _, batch := range []int{128, 1024} {
				b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
					for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
						b.Run("dtype="+dt.String(), func(b *testing.B) { benchEpoch(b, ds, batch, dt) })
					}
				})
			}
		})
	}
}

// benchEpoch times b.N one-epoch Fits on ds, each from the same initial weights (a fresh
// model, built with the timer stopped).
func benchEpoch(b *testing.B, ds *data.Dataset, batch int, dt tensor.Dtype) {
	cfg := Config{Loss: CrossEntropy{}, Epochs: 1, BatchSize: batch, Optimizer: optim.Adam, LearningRate: 1e-3,
		Seed: 1, Progress: io.Discard}
	b.ReportAllocs()
	b.ResetTimer()
	stop := cputime.Report(b)
	for range b.N {
		b.StopTimer()
		m, err := nn.NewMLP(nn.MLPConfig{In: ds.Cols, Hidden: []int{64}, Seed: 1, Dtype: dt})
		if err != nil {
			b.Fatal(err)
		}
		tr, err := New(m, cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := tr.Fit(context.Background(), ds, nil); err != nil {
			b.Fatal(err)
		}
	}
	stop()
	b.ReportMetric(float64(ds.Rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// epochData draws rows × cols features as data's TestWriteBig draws big.csv: label 1 with
// probability 0.1, standard normal features, the first five shifted by +1 for positives.
func epochData(b *testing.B, rows, cols int) *data.Dataset {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, rows*cols), make([]float64, rows)
	for i := range rows {
		if rng.Float64() < 0.1 {
			y[i] = 1
		}
		for j := range cols {
			x[i*cols+j] = rng.NormFloat64()
			if j < 5 {
				x[i*cols+j] += y[i]
			}
		}
	}
	ds, err := data.New(x, y, cols)
	if err != nil {
		b.Fatal(err)
	}
	return ds
}
