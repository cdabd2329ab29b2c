package train

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/optim"
)

// transferred returns a model with a trained-looking body of base's first layer (in → 8) under
// a new head, with its body frozen (rank 0) or with LoRA adapters of rank r on it.
func transferred(t testing.TB, in int, dt tensor.Dtype, rank int) *nn.MLP {
	base, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{8, 6}, Dtype: dt, Seed: 11})
	require.NoError(t, err)
	cfg := nn.TransferConfig{Body: 2, Hidden: []int{4}, Seed: 12}
	if rank > 0 {
		cfg.Rank = rank
	} else {
		cfg.Freeze = 2
	}
	m, err := nn.Transfer(base, cfg)
	require.NoError(t, err)
	return m
}

// frozenBits returns the frozen parameters' bits and the trainable ones' values, by name.
func frozenBits(t testing.TB, m nn.Model) (frozen, free map[string]string) {
	frozen, free = map[string]string{}, map[string]string{}
	for _, p := range m.Params() {
		s := fmt.Sprint(p.Value.Data())
		if p.Frozen {
			frozen[p.Name] = s
		} else {
			free[p.Name] = s
		}
	}
	return frozen, free
}

// graphModel hides an MLP's direct pass, so that the trainer takes the graph step for it: it
// is not nn's own type, which nn.NewPass refuses.
type graphModel struct{ *nn.MLP }

// TestFrozenParametersKeepTheirBits: training a frozen body or a LoRA model with weight decay
// and momentum, by the direct step and the graph step, with a pairwise loss and with AUC-M's
// PESG, leaves every frozen parameter's bits as they were and moves the trainable ones; the
// optimiser is given the trainable parameters only, so it holds no state for the frozen.
func TestFrozenParametersKeepTheirBits(t *testing.T) {
	tr, val := blobs(t, 200, 5, 0.3, 1, 1), blobs(t, 100, 5, 0.3, 1, 2)
	for _, c := range []struct {
		name  string
		rank  int
		graph bool
		loss  Loss
		cfg   Config
	}{
		{"frozen body, direct, momentum and decay", 0, false, nil, Config{Optimizer: optim.Momentum, WeightDecay: 0.1}},
		{"frozen body, graph, adam and decay", 0, true, nil, Config{WeightDecay: 0.1}},
		{"lora, direct, sqhinge", 4, false, Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}, Config{WeightDecay: 0.05}},
		{"lora, graph, sqhinge", 2, true, Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}, Config{Optimizer: optim.Momentum}},
		{"frozen body, AUC-M", 0, false, AUCM{}, Config{}},
		{"lora, AUC-M, graph", 2, true, AUCM{}, Config{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mlp := transferred(t, tr.Cols, tensor.Float64, c.rank)
			var m nn.Model = mlp
			if c.graph {
				m = graphModel{mlp}
			}
			frozen0, free0 := frozenBits(t, m)
			require.NotEmpty(t, frozen0)
			cfg := c.cfg
			cfg.Loss, cfg.Epochs, cfg.BatchSize, cfg.Seed = c.loss, 3, 64, 1
			tn, err := New(m, cfg)
			require.NoError(t, err)
			_, err = tn.Fit(context.Background(), tr, val)
			require.NoError(t, err)
			frozen1, free1 := frozenBits(t, m)
			require.Equal(t, frozen0, frozen1, "frozen parameters keep their bits")
			require.NotEqual(t, free0, free1, "the trainable ones train")
		})
	}
}

// TestStepGivesTheOptimiserTrainableParameters: the direct step and the graph step hand the
// optimiser the trainable parameters only (their number, and the graph differentiates no
// other), so no optimiser state exists for a frozen one.
func TestStepGivesTheOptimiserTrainableParameters(t *testing.T) {
	ds := blobs(t, 64, 5, 0.3, 1, 3)
	idx := make([]int, 32)
	for i := range idx {
		idx[i] = i
	}
	for _, rank := range []int{0, 3} {
		m := transferred(t, ds.Cols, tensor.Float64, rank)
		want := len(trainable(m))
		require.Less(t, want, len(m.Params()))
		st, err := newStep(m, CrossEntropy{}, ds.Task(), len(idx), ds.Cols, Config{LearningRate: 0.01})
		require.NoError(t, err)
		direct := st.(*directStep)
		require.Len(t, direct.params, want)
		_, err = st.run(ds, idx)
		require.NoError(t, err)
		require.Len(t, direct.grads, want)
		opt, err := optim.NewStepper(optim.Adam, 0.01)
		require.NoError(t, err)
		gst, err := newGraphStep(m, CrossEntropy{}, ds.Task(), len(idx), ds.Cols, opt)
		require.NoError(t, err)
		_, err = gst.run(ds, idx)
		require.NoError(t, err)
		require.Len(t, gst.params, want)
		require.Len(t, gst.grads, want)
		gst.close()
	}
}

// benchArms is BenchmarkStep/arm=…: the direct step of the MNIST example's network, 784→256→128→1 at batch
// 128 (cross-entropy, Adam), with everything trained (random), the body frozen under a new
// head (frozen) and LoRA adapters of rank 4 on both body layers (lora): skipping the frozen
// layers' backward work is what the two pay for.
func benchArms(b *testing.B) {
	ds := epochData(b, 2048, 784)
	idx := make([]int, 128)
	for i := range idx {
		idx[i] = i
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		base, err := nn.NewMLP(nn.MLPConfig{In: 784, Hidden: []int{256, 128}, Dtype: dt, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		arms := []struct {
			name string
			cfg  nn.TransferConfig
		}{
			{"random", nn.TransferConfig{Body: 2, Seed: 2}},
			{"frozen", nn.TransferConfig{Body: 2, Freeze: 2, Seed: 2}},
			{"lora", nn.TransferConfig{Body: 2, Rank: 4, Seed: 2}},
		}
		for _, a := range arms {
			m, err := nn.Transfer(base, a.cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.Run("arm="+a.name+"/dtype="+dt.String(), func(b *testing.B) {
				st, err := newStep(m, CrossEntropy{}, ds.Task(), len(idx), ds.Cols, Config{LearningRate: 1e-3})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := st.run(ds, idx); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
