package train

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/graph/gradcheck"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/optim"
)

func TestWithPool(t *testing.T) {
	cases := []struct {
		name                  string
		nNeg, pool, have, out int
	}{
		{"no pool", 90, 0, 500, 90},
		{"pool added", 90, 100, 500, 190},
		{"capped at the training negatives", 90, 1000, 500, 500},
		{"never below the batch's own", 90, 10, 50, 90},
		// nNeg + MaxInt overflowed to a negative number, so the pool silently vanished.
		{"MaxInt capped, not overflowed", 90, math.MaxInt, 500, 500},
		{"MaxInt with few negatives", 90, math.MaxInt, 50, 90},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.out, withPool(c.nNeg, c.pool, c.have))
		})
	}
}

// batchRecorder is the KDE loss, recording the composition of every batch it is given.
type batchRecorder struct {
	KDE
	pos, neg []int
}

func (r *batchRecorder) ValueGradInto(grad, scores, labels []float64, t rocops.Task) (float64, error) {
	if len(labels) == 0 { // the trainer's probe for a form on slices, not a batch
		return r.KDE.ValueGradInto(grad, scores, labels, t)
	}
	var p int
	for _, y := range labels {
		p += int(y)
	}
	r.pos, r.neg = append(r.pos, p), append(r.neg, len(labels)-p)
	return r.KDE.ValueGradInto(grad, scores, labels, t)
}

// TestNegativePoolBatches: with Config.NegativePool every batch holds the pool's negatives
// beyond BatchSize, capped at the training negatives, while an epoch keeps its
// ⌈rows/BatchSize⌉ steps; the NegativePool of FineTune's second phase pools that phase only.
func TestNegativePoolBatches(t *testing.T) {
	ds := blobs(t, 400, 3, 0.1, 1.5, 4)
	have := ds.Rows - ds.Positives()
	nPos, nNeg := batchComposition(40, 0, float64(ds.Positives())/float64(ds.Rows))
	for _, c := range []struct {
		name string
		pool int
		neg  int
	}{{"no pool", 0, nNeg}, {"pool of 100", 100, nNeg + 100}, {"pool beyond the data", 5000, have}} {
		t.Run(c.name, func(t *testing.T) {
			rec := &batchRecorder{KDE: KDE{Config: kdequantile.Config{Alpha: 0.1}}}
			_, err := fit(t, mlp(t, 3, 1), Config{Loss: rec, Epochs: 2, BatchSize: 40, NegativePool: c.pool}, ds, nil)
			require.NoError(t, err)
			require.Len(t, rec.pos, 2*10, "two epochs of ⌈400/40⌉ steps")
			for k := range rec.pos {
				require.Equal(t, nPos, rec.pos[k], "positives of batch %d", k)
				require.Equal(t, c.neg, rec.neg[k], "negatives of batch %d", k)
			}
		})
	}
	t.Run("FineTune pools its second phase", func(t *testing.T) {
		rec := &batchRecorder{KDE: KDE{Config: kdequantile.Config{Alpha: 0.1}}}
		cfg := Config{Epochs: 2, BatchSize: 40, Metric: PartialAUC(0.1), Progress: io.Discard}
		_, err := FineTune(Phase{Loss: rec, NegativePool: 100}).Fit(context.Background(), mlp(t, 3, 1), cfg, ds, ds)
		require.NoError(t, err)
		require.Len(t, rec.pos, 2*10)
		for k := range rec.neg {
			require.Equal(t, nNeg+100, rec.neg[k], "negatives of batch %d", k)
		}
	})
	_, err := New(mlp(t, 3, 1), Config{NegativePool: -1})
	require.ErrorIs(t, err, rocops.ErrConfig)
	_, err = FineTune(Phase{Loss: KDE{}, NegativePool: -1}).Fit(context.Background(), mlp(t, 3, 1), Config{}, ds, ds)
	require.ErrorIs(t, err, rocops.ErrConfig)
}

// TestNegativePoolGradient: the step trained on a pooled batch moves the parameters by the
// gradient of the KDE loss over the whole pooled batch — the batch's rows and the pool's —
// checked against five-point finite differences of kdequantile.Evaluate (optim.SGD with learning
// rate 1 makes the update the gradient). The same rows without the pool give a different
// gradient, so the check sees whether the pool takes part.
func TestNegativePoolGradient(t *testing.T) {
	// Five-point differences with step fdStep (the parameters are of order 1) have truncation
	// error ~(v·fdStep)⁴ for kernels of inverse bandwidth v and rounding error ~ε/fdStep:
	// tol bounds |update − fd| relative to the largest |fd|, as the op's own tests do.
	const tol, fdStep = 1e-7, 1e-5
	const in, batch, pool = 3, 40, 200
	ds := blobs(t, 600, in, 0.1, 1.5, 5)
	nPos, nNeg := batchComposition(batch, 0, float64(ds.Positives())/float64(ds.Rows))
	nNeg = withPool(nNeg, pool, ds.Rows-ds.Positives())
	idx := make([]int, nPos+nNeg)
	newSampler(strataOf(t, ds), nPos, nNeg, rand.New(rand.NewPCG(1, 2))).next(idx)
	point := kdequantile.Config{Alpha: 0.05}

	numeric := func(m *nn.MLP, rows []int) []float64 {
		p, err := nn.NewPass(m, len(rows))
		require.NoError(t, err)
		require.NoError(t, fillBatch(p.Input(), nil, ds, rows))
		labels := make([]float64, len(rows))
		for k, r := range rows {
			labels[k] = ds.Y[r]
		}
		var theta []float64
		for _, prm := range m.Params() {
			theta = append(theta, prm.Value.Float64s()...)
		}
		// The bandwidths are constants of the backward pass (package kdequantile): fix
		// them at the rule's values for these rows.
		at, err := kdequantile.Evaluate(p.Forward(), labels, point)
		require.NoError(t, err)
		fixed := point
		fixed.V0, fixed.V1 = at.V0, at.V1
		g, err := gradcheck.Numeric(func(x []float64) (float64, error) {
			setParams(m, x)
			res, err := kdequantile.Evaluate(p.Forward(), labels, fixed)
			return res.Loss, err
		}, theta, fdStep)
		setParams(m, theta)
		require.NoError(t, err)
		return g
	}

	m := mlp(t, in, 3)
	want := numeric(m, idx)
	without := numeric(m, idx[:batch])
	before := flatParams(t, m)
	st, err := newStep(m, KDE{Config: point}, rocops.Task{}, len(idx), in, Config{Optimizer: optim.SGD, LearningRate: 1})
	require.NoError(t, err)
	defer st.close()
	require.IsType(t, &directStep{}, st)
	_, err = st.run(ds, idx)
	require.NoError(t, err)
	after := flatParams(t, m)
	var scale, differ float64
	for k := range want {
		scale = max(scale, math.Abs(want[k]))
		differ = max(differ, math.Abs(want[k]-without[k]))
	}
	for k := range want {
		require.InDelta(t, want[k], before[k]-after[k], tol*scale, "parameter %d", k)
	}
	require.Greater(t, differ, 0.1*scale, "the pool's rows change the gradient")
}

// setParams writes x, the parameters one after the other in Params order, into m.
func setParams(m nn.Model, x []float64) {
	for _, p := range m.Params() {
		d := p.Value.Float64s()
		x = x[copy(d, x):]
	}
}

func flatParams(t *testing.T, m nn.Model) []float64 {
	var out []float64
	for _, p := range m.Params() {
		v, err := opkit.Floats(p.Value)
		require.NoError(t, err)
		out = append(out, v...)
	}
	return out
}
