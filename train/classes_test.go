package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/opkit"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/optim"
)

// classBlobs returns n rows of d ≥ k features in k classes: class c, drawn with weight
// weights[c] (equal when nil), is N(shift·e_c, I), e_c the c-th unit vector. Rows 0…k−1 hold
// one row of each class, so every class is present.
func classBlobs(t testing.TB, n, d int, weights []float64, shift float64, seed uint64) *data.Dataset {
	t.Helper()
	k := len(weights)
	rng := rand.New(rand.NewPCG(seed, 3))
	var total float64
	for _, w := range weights {
		total += w
	}
	x, y := make([]float64, n*d), make([]float64, n)
	for i := range n {
		c := i
		if i >= k {
			u := rng.Float64() * total
			for c = 0; c < k-1 && u >= weights[c]; c++ {
				u -= weights[c]
			}
		}
		y[i] = float64(c)
		for j := range d {
			x[i*d+j] = rng.NormFloat64()
		}
		x[i*d+c] += shift
	}
	ds := &data.Dataset{X: x, Y: y, Rows: n, Cols: d, FeatureNames: names("x", d), LabelName: "class", Classes: names("c", k)}
	require.NoError(t, ds.Validate())
	return ds
}

// labelBlobs returns n rows of d ≥ k standard normal features with k labels: label c is 1
// when x_c + 0.3·ε > 0, ε standard normal, so each label is nearly linear in one feature.
func labelBlobs(t testing.TB, n, d, k int, seed uint64) *data.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 4))
	x, y := make([]float64, n*d), make([]float64, n*k)
	for i := range n {
		for j := range d {
			x[i*d+j] = rng.NormFloat64()
		}
		for c := range k {
			if x[i*d+c]+0.3*rng.NormFloat64() > 0 {
				y[i*k+c] = 1
			}
		}
	}
	ds := &data.Dataset{X: x, Y: y, Rows: n, Cols: d, FeatureNames: names("x", d), Labels: names("l", k)}
	require.NoError(t, ds.Validate())
	return ds
}

// names returns prefix1 … prefix<n>.
func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}

func classMLP(t testing.TB, in, k int, dt tensor.Dtype, seed uint64) *nn.MLP {
	t.Helper()
	m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{8}, Outputs: k, Seed: seed, Dtype: dt})
	require.NoError(t, err)
	return m
}

// withOvO returns cfg with its OvO set to ovo.
func withOvO(cfg pairwise.Config, ovo bool) pairwise.Config {
	cfg.OvO = ovo
	return cfg
}

// TestMulticlassTrains: on three well-separated classes (centres 3√2 apart in unit noise,
// where the Bayes one-vs-rest AUC is about 0.99) softmax and one-vs-rest squared hinge train
// an MLP to a validation macro one-vs-rest AUC of at least 0.95, computed here with
// metrics.MulticlassAUC from the model's scores (the softmax model's probabilities); the
// history's best metric is that AUC; and one-vs-one squared hinge with MacroAUC(OvO) does as
// well on its metric. The three seeds show the result is not one draw's.
func TestMulticlassTrains(t *testing.T) {
	const minAUC = 0.95
	weights := []float64{0.6, 0.3, 0.1}
	cases := []struct {
		loss   Loss
		method metrics.Method
	}{
		{CrossEntropy{}, metrics.OvR}, // the softmax cross-entropy on k classes
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}, metrics.OvR},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, OvO: true}}, metrics.OvO},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%v/seed=%d", c.loss, seed), func(t *testing.T) {
				tr := classBlobs(t, 600, 4, weights, 3, seed)
				val := classBlobs(t, 300, 4, weights, 3, seed+100)
				m := classMLP(t, 4, 3, tensor.Float64, seed)
				cfg := Config{Loss: c.loss, Epochs: 60, BatchSize: 64, Seed: seed}
				if c.method == metrics.OvO {
					cfg.Metric = MacroAUC(metrics.OvO)
				}
				h, err := fit(t, m, cfg, tr, val)
				require.NoError(t, err)
				_, softmax := c.loss.(CrossEntropy)
				require.Equal(t, softmax, h.Probabilities)
				auc := macroOf(t, m, val, c.method, softmax) // a softmax model's probabilities
				require.GreaterOrEqual(t, auc, minAUC)
				require.InDelta(t, auc, h.Epochs[h.Best].Metric, 1e-12, "the restored weights are the best epoch's")
			})
		}
	}
}

// TestMultilabelTrains: three labels, each nearly linear in its own feature (label noise 0.3
// on a unit feature: a column AUC near 0.95 at best), train to a validation macro label-wise
// AUC of at least 0.9 with the per-label cross-entropy and with the multi-label squared hinge.
func TestMultilabelTrains(t *testing.T) {
	const minAUC = 0.9
	for _, loss := range []Loss{CrossEntropy{}, Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}} {
		t.Run(loss.String(), func(t *testing.T) {
			tr, val := labelBlobs(t, 600, 4, 3, 1), labelBlobs(t, 300, 4, 3, 2)
			m := classMLP(t, 4, 3, tensor.Float64, 1)
			h, err := fitWarm(t, m, Config{Loss: loss, Epochs: 15, BatchSize: 64}, 1, tr, val)
			require.NoError(t, err)
			require.Equal(t, Warmup, h.Epochs[0].Stage)
			scores, err := nn.Scores(m, val.X, val.Rows)
			require.NoError(t, err)
			auc, err := metrics.TaskAUC(scores, val.Y, rocops.Labels(3), metrics.OvR, metrics.Macro)
			require.NoError(t, err)
			require.GreaterOrEqual(t, auc, minAUC)
			require.InDelta(t, auc, h.Epochs[h.Best].Metric, 1e-12)
		})
	}
}

// TestOneLabelColumn: a multi-label dataset of one label column trains with the losses on its
// task, Labels(1), which for one column is the binary one: their form on slices gives the
// binary task's value and gradient, bit for bit.
func TestOneLabelColumn(t *testing.T) {
	sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	for _, loss := range []Loss{Pairwise{Config: sq}, CrossEntropy{}} {
		t.Run(loss.String(), func(t *testing.T) {
			tr, val := labelBlobs(t, 200, 4, 1, 1), labelBlobs(t, 100, 4, 1, 2)
			require.Equal(t, rocops.Labels(1), tr.Task())
			_, err := fit(t, classMLP(t, 4, 1, tensor.Float64, 1), Config{Loss: loss, Epochs: 2, BatchSize: 64}, tr, val)
			require.NoError(t, err)
			scores := make([]float64, tr.Rows)
			for i := range scores {
				scores[i] = tr.X[i*tr.Cols] - tr.X[i*tr.Cols+1]
			}
			got, want := make([]float64, tr.Rows), make([]float64, tr.Rows)
			v, err := loss.ValueGradInto(got, scores, tr.Y, tr.Task())
			require.NoError(t, err)
			w, err := loss.ValueGradInto(want, scores, tr.Y, rocops.Task{})
			require.NoError(t, err)
			require.Equal(t, w, v)
			require.Equal(t, want, got)
		})
	}
	tr := labelBlobs(t, 200, 4, 1, 3)
	_, err := Plain(AUCM{}).Fit(context.Background(), classMLP(t, 4, 1, tensor.Float64, 1), Config{Epochs: 2, BatchSize: 64, Progress: io.Discard}, tr, nil)
	require.NoError(t, err, "AUC-M on one label column")
}

// TestClassSamplerComposition: every multi-class batch holds every class, class c exactly q_c
// rows with q_c as newClassSampler's formula gives it (worked here from the counts), each
// class's rows are all visited before any twice, and a class of two rows — fewer than the
// epoch's batches — is resampled into every batch.
func TestClassSamplerComposition(t *testing.T) {
	counts := []int{300, 97, 2} // n = 399
	var y []float64
	for c, n := range counts {
		for range n {
			y = append(y, float64(c))
		}
	}
	ds := &data.Dataset{Y: y, Rows: len(y), Classes: []string{"a", "b", "c"}}
	// b = 32: (b − k)·n_c = 29·300 = 8700 → 21 rem 321, 29·97 = 2813 → 7 rem 20, 29·2 = 58 → 0
	// rem 58; 29 − 28 = 1 row left, to class 0 (largest remainder): q = (23, 8, 1).
	want := []int{23, 8, 1}
	s, err := newClassSampler(ds, strataOf(t, ds), 32, rand.New(rand.NewPCG(5, 6)))
	require.NoError(t, err)
	require.Equal(t, 32, s.size())
	const batches = 13 // ⌈399/32⌉ = 13: one epoch
	seen := make([]map[int]int, 3)
	for c := range seen {
		seen[c] = map[int]int{}
	}
	idx := make([]int, 32)
	for bi := range batches {
		s.next(idx)
		got := make([]int, 3)
		for _, r := range idx {
			c := int(y[r])
			got[c]++
			seen[c][r]++
		}
		require.Equal(t, want, got, "batch %d", bi)
	}
	for c, n := range counts {
		draws := batches * want[c]
		for r, times := range seen[c] {
			// every row of the class is drawn ⌊draws/n⌋ or ⌈draws/n⌉ times
			require.InDelta(t, float64(draws)/float64(n), float64(times), 1, "class %d row %d", c, r)
		}
		require.Len(t, seen[c], min(n, draws), "class %d", c)
	}

	_, err = newClassSampler(ds, strataOf(t, ds), 2, rand.New(rand.NewPCG(5, 6)))
	require.ErrorIs(t, err, ErrClasses)
}

// TestLabelSamplerComposition: every multi-label batch holds a positive and a negative of
// every label, also of a label with one positive row.
func TestLabelSamplerComposition(t *testing.T) {
	ds := labelBlobs(t, 200, 3, 3, 7)
	for i := range ds.Rows {
		ds.Y[i*3+2] = 0
	}
	ds.Y[17*3+2] = 1 // label 2 has one positive
	s, err := newLabelSampler(ds, 16, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	idx := make([]int, s.size())
	require.Len(t, idx, 16)
	for bi := range 20 {
		s.next(idx)
		for c := range 3 {
			pos := 0
			for _, r := range idx {
				pos += int(ds.Y[r*3+c])
			}
			require.True(t, pos > 0 && pos < len(idx), "batch %d label %d: %d positives", bi, c, pos)
		}
	}
	_, err = newLabelSampler(ds, 5, rand.New(rand.NewPCG(1, 1)))
	require.ErrorIs(t, err, ErrClasses)
}

// TestClassDirectStepMatchesGraph: for every loss on k = 3 classes or labels, both dtypes and a
// linear model and an MLP of k = 3 outputs, the direct step gives the graph step's loss and updated parameters
// (optim.SGD at learning rate 1: the update is the gradient), to the tolerances of
// TestDirectStepMatchesGraph.
func TestClassDirectStepMatchesGraph(t *testing.T) {
	tol := map[tensor.Dtype]float64{tensor.Float64: 1e-12, tensor.Float32: 1e-5} // relative to max(1, |w|)
	const batch, in, k = 48, 4, 3
	mc := classBlobs(t, batch, in, []float64{1, 1, 1}, 1, 3)
	ml := labelBlobs(t, batch, in, k, 3)
	idx := make([]int, batch)
	for i := range idx {
		idx[i] = i
	}
	sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	cases := []struct {
		loss Loss
		ds   *data.Dataset
	}{
		{CrossEntropy{}, mc},
		{Pairwise{Config: sq}, mc},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic, OvO: true}}, mc},
		{Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge, Pairs: 100, Seed: 4}}, mc},
		{Pairwise{Config: sq}, ml},
		{CrossEntropy{}, ml},
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, model := range []string{"linear", "mlp"} {
			for _, c := range cases {
				t.Run(fmt.Sprintf("%v/%s/%v/%v", dt, model, c.loss, c.ds.Task()), func(t *testing.T) {
					build := func() nn.Model {
						if model == "linear" {
							m, err := nn.NewMLP(nn.MLPConfig{In: in, Outputs: k, Seed: 2, Dtype: dt})
							require.NoError(t, err)
							return m
						}
						return classMLP(t, in, k, dt, 2)
					}
					requireStepsAgree(t, build, c.loss, c.ds, idx, tol[dt])
				})
			}
		}
	}
}

// requireStepsAgree runs two steps of optim.SGD at learning rate 1 on the rows idx of ds, the direct
// step on one model of build and the graph step on another, and requires equal losses and
// parameters (so gradients) to tol relative to max(1, |value|).
func requireStepsAgree(t *testing.T, build func() nn.Model, loss Loss, ds *data.Dataset, idx []int, tol float64) {
	t.Helper()
	direct, graphed := build(), build()
	ds1, err := newStep(direct, loss, ds.Task(), len(idx), ds.Cols, Config{Optimizer: optim.SGD, LearningRate: 1})
	require.NoError(t, err)
	defer ds1.close()
	require.IsType(t, &directStep{}, ds1)
	opt, err := optim.NewStepper(optim.SGD, 1)
	require.NoError(t, err)
	gs, err := newGraphStep(graphed, loss, ds.Task(), len(idx), ds.Cols, opt)
	require.NoError(t, err)
	defer gs.close()
	for range 2 { // the second step starts from the first's weights
		l1, err := ds1.run(ds, idx)
		require.NoError(t, err)
		l2, err := gs.run(ds, idx)
		require.NoError(t, err)
		require.InDelta(t, l2, l1, tol*max(1, math.Abs(l2)), "loss")
		for i, p := range direct.Params() {
			got, err := opkit.Floats(p.Value)
			require.NoError(t, err)
			want, err := opkit.Floats(graphed.Params()[i].Value)
			require.NoError(t, err)
			for j := range want {
				require.InDelta(t, want[j], got[j], tol*max(1, math.Abs(want[j])), "%s[%d]", p.Name, j)
			}
		}
	}
}

// TestClassBadInput: what Fit refuses on multi-class and multi-label data, each with its
// named error, before any step.
func TestClassBadInput(t *testing.T) {
	weights := []float64{1, 1, 1}
	sq := Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}
	kde := KDE{Config: kdequantile.Config{Alpha: 0.1}}
	ovo := Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, OvO: true}}
	cases := []struct {
		name    string
		edit    func(tr, val *data.Dataset) (*data.Dataset, *data.Dataset)
		model   int // outputs; 0 = 3
		cfg     Config
		wantErr error
	}{
		{"label ≥ k", func(tr, val *data.Dataset) (*data.Dataset, *data.Dataset) {
			tr.Y[5] = 3
			return tr, val
		}, 0, Config{Loss: CrossEntropy{}}, rocops.ErrLabel},
		{"fractional label", func(tr, val *data.Dataset) (*data.Dataset, *data.Dataset) {
			val.Y[5] = 0.5
			return tr, val
		}, 0, Config{Loss: CrossEntropy{}}, rocops.ErrLabel},
		{"class without training rows", func(tr, val *data.Dataset) (*data.Dataset, *data.Dataset) {
			for i, y := range tr.Y {
				if y == 2 {
					tr.Y[i] = 1
				}
			}
			return tr, val
		}, 0, Config{Loss: sq}, ErrClasses},
		{"class without validation rows", func(tr, val *data.Dataset) (*data.Dataset, *data.Dataset) {
			for i, y := range val.Y {
				if y == 0 {
					val.Y[i] = 1
				}
			}
			return tr, val
		}, 0, Config{Loss: CrossEntropy{}}, ErrClasses},
		{"batch below k", nil, 0, Config{Loss: CrossEntropy{}, BatchSize: 2}, ErrClasses},
		{"model of 2 outputs", nil, 2, Config{Loss: CrossEntropy{}}, ErrTask},
		// The losses are task-general; the binary-only KDE loss and a loss set for another
		// task are what a multi-class run refuses.
		{"binary loss", nil, 0, Config{Loss: kde}, ErrTask},
		{"loss of another task", nil, 0, Config{Loss: Pairwise{Config: pairwise.Config{Task: rocops.Labels(3)}}}, ErrTask},
		{"binary metric", nil, 0, Config{Loss: CrossEntropy{}, Metric: TPRAtFPR(0.1)}, ErrTask},
		{"positive fraction", nil, 0, Config{Loss: CrossEntropy{}, PositiveFraction: 0.5}, ErrTask},
		{"diagnose with a label of one 0", func(_, _ *data.Dataset) (*data.Dataset, *data.Dataset) {
			tr := labelBlobs(t, 100, 4, 3, 1)
			for i := range tr.Rows {
				tr.Y[i*3+1] = 1
			}
			tr.Y[1] = 0
			return tr, labelBlobs(t, 100, 4, 3, 2)
		}, 0, Config{Loss: CrossEntropy{}, Diagnose: &Diagnose{}}, ErrClasses},
		{"diagnose with a class of one row", func(tr, val *data.Dataset) (*data.Dataset, *data.Dataset) {
			for i, y := range tr.Y {
				if y == 2 && i > 2 {
					tr.Y[i] = 1
				}
			}
			return tr, val
		}, 0, Config{Loss: sq, Diagnose: &Diagnose{}}, ErrClasses},
		{"validation classes differ", func(tr, val *data.Dataset) (*data.Dataset, *data.Dataset) {
			val.Classes[2] = "other"
			return tr, val
		}, 0, Config{Loss: CrossEntropy{}}, ErrTask},
		{"weighted loss with a binary term", nil, 0, Config{Loss: Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 1, Loss: kde}}}, ErrTask},
		{"multi-class loss on binary data", func(_, _ *data.Dataset) (*data.Dataset, *data.Dataset) {
			return blobs(t, 100, 4, 0.3, 1, 1), nil
		}, 1, Config{Loss: Pairwise{Config: pairwise.Config{Task: rocops.Classes(3)}}}, ErrTask},
		{"one-vs-one loss on binary data", func(_, _ *data.Dataset) (*data.Dataset, *data.Dataset) {
			return blobs(t, 100, 4, 0.3, 1, 1), nil
		}, 1, Config{Loss: ovo}, ErrTask},
		{"one-vs-one loss on multi-label data", func(_, _ *data.Dataset) (*data.Dataset, *data.Dataset) {
			return labelBlobs(t, 100, 4, 3, 1), labelBlobs(t, 100, 4, 3, 2)
		}, 0, Config{Loss: ovo}, ErrTask},
		{"KDE on multi-label data", func(_, _ *data.Dataset) (*data.Dataset, *data.Dataset) {
			return labelBlobs(t, 100, 4, 3, 1), labelBlobs(t, 100, 4, 3, 2)
		}, 0, Config{Loss: kde}, ErrTask},
		{"macro AUC on binary data", func(_, _ *data.Dataset) (*data.Dataset, *data.Dataset) {
			return blobs(t, 100, 4, 0.3, 1, 1), blobs(t, 100, 4, 0.3, 1, 2)
		}, 1, Config{Metric: MacroAUC(metrics.OvR)}, ErrTask},
		{"one-vs-one on multi-label data", func(_, _ *data.Dataset) (*data.Dataset, *data.Dataset) {
			return labelBlobs(t, 100, 4, 3, 1), labelBlobs(t, 100, 4, 3, 2)
		}, 0, Config{Loss: CrossEntropy{}, Metric: MacroAUC(metrics.OvO)}, ErrTask},
		{"multi-label column of one class", func(_, _ *data.Dataset) (*data.Dataset, *data.Dataset) {
			tr := labelBlobs(t, 100, 4, 3, 1)
			for i := range tr.Rows {
				tr.Y[i*3+1] = 1
			}
			return tr, nil
		}, 0, Config{Loss: Pairwise{}}, ErrClasses},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, val := classBlobs(t, 90, 4, weights, 3, 1), classBlobs(t, 60, 4, weights, 3, 2)
			if c.edit != nil {
				tr, val = c.edit(tr, val)
			}
			k := c.model
			if k == 0 {
				k = 3
			}
			cfg := c.cfg
			cfg.Epochs, cfg.Progress = 1, io.Discard
			trn, err := New(classMLP(t, 4, k, tensor.Float64, 1), cfg)
			require.NoError(t, err)
			steps := 0
			trn.cfg.Hooks = []Hook{{Name: "count", OnStep: func(StepInfo) error { steps++; return nil }}}
			_, err = trn.Fit(context.Background(), tr, val)
			require.ErrorIs(t, err, c.wantErr)
			require.Zero(t, steps)
		})
	}
}

// TestClassLossConfig: a multi-class or multi-label pairwise loss of bad settings is
// rocops.ErrConfig from its Check and from Fit, before any step (New leaves the loss to Fit),
// and New refuses MacroAUC of an unknown method.
func TestClassLossConfig(t *testing.T) {
	bad := Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, Margin: -1}}
	for _, ds := range []*data.Dataset{classBlobs(t, 90, 4, []float64{1, 1, 1}, 3, 1), labelBlobs(t, 90, 4, 3, 1)} {
		require.ErrorIs(t, bad.Check(ds.Task()), rocops.ErrConfig, "%v", ds.Task())
		steps := 0
		trn, err := New(classMLP(t, 4, 3, tensor.Float64, 1), Config{Loss: bad, Epochs: 1, Progress: io.Discard,
			Hooks: []Hook{{Name: "count", OnStep: func(StepInfo) error { steps++; return nil }}}})
		require.NoError(t, err)
		_, err = trn.Fit(context.Background(), ds, ds)
		require.ErrorIs(t, err, rocops.ErrConfig, "%v", ds.Task())
		require.Zero(t, steps)
	}
	_, err := New(classMLP(t, 2, 3, tensor.Float64, 1), Config{Loss: CrossEntropy{}, Metric: MacroAUC(metrics.Method(7))})
	require.ErrorIs(t, err, rocops.ErrConfig)
}

// TestClassRecipes: a nil loss trains the data's cross-entropy (CrossEntropy: the softmax one
// on multi-class data, the per-label one on multi-label data), and FineTune's first phase does the same
// before its multi-class pairwise phase; each is identified by its history equalling, bit for
// bit, that of the named loss from the same weights and seed.
func TestClassRecipes(t *testing.T) {
	weights := []float64{0.5, 0.3, 0.2}
	tr, val := classBlobs(t, 300, 4, weights, 3, 1), classBlobs(t, 150, 4, weights, 3, 2)
	sq := Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}

	// Two epochs of a nil loss and of CrossEntropy from the same weights and seed: the same
	// history, measured on the softmax probabilities.
	plain := func(loss Loss) *History {
		h, err := Plain(loss).Fit(context.Background(), classMLP(t, 4, 3, tensor.Float64, 1),
			Config{Epochs: 2, BatchSize: 32, Progress: io.Discard}, tr, val)
		require.NoError(t, err)
		return h
	}
	require.Equal(t, plain(CrossEntropy{}).Epochs, plain(nil).Epochs)
	require.True(t, plain(nil).Probabilities)

	ml, mlVal := labelBlobs(t, 200, 4, 3, 1), labelBlobs(t, 100, 4, 3, 2)
	m := classMLP(t, 4, 3, tensor.Float64, 1)
	h, err := fit(t, m, Config{Epochs: 2}, ml, mlVal)
	require.NoError(t, err)
	h2, err := fit(t, classMLP(t, 4, 3, tensor.Float64, 1), Config{Epochs: 2, Loss: CrossEntropy{}}, ml, mlVal)
	require.NoError(t, err)
	require.Equal(t, h2.Epochs, h.Epochs)

	h, err = FineTune(Phase{Loss: sq, Epochs: 3}).Fit(context.Background(), classMLP(t, 4, 3, tensor.Float64, 1),
		Config{Epochs: 3, BatchSize: 32, Progress: io.Discard}, tr, val)
	require.NoError(t, err)
	require.Len(t, h.Epochs, 6)
	require.Equal(t, Warmup, h.Epochs[0].Stage)
	require.Equal(t, Main, h.Epochs[5].Stage)
	// The first phase is the softmax cross-entropy: its first two epochs' losses and metrics are
	// plain CrossEntropy's.
	for i, e := range plain(CrossEntropy{}).Epochs {
		require.Equal(t, e.Loss, h.Epochs[i].Loss, "epoch %d", i+1)
		require.Equal(t, e.Metric, h.Epochs[i].Metric, "epoch %d", i+1)
	}
}

// TestMulticlassFromCSV: a CSV whose label column names three classes in text loads as
// multi-class (data.ReadCSV), splits with every class in every part (data.SplitStandardized)
// and trains with the one-vs-one squared hinge to a test macro one-vs-one AUC of at least
// 0.95; the classes are sorted and their names kept.
func TestMulticlassFromCSV(t *testing.T) {
	src := classBlobs(t, 900, 3, []float64{0.5, 0.3, 0.2}, 3, 7)
	names := []string{"wolf", "ant", "bee"} // sorted: ant, bee, wolf
	var b strings.Builder
	b.WriteString("x1,x2,x3,species\n")
	for i := range src.Rows {
		r := src.Row(i)
		fmt.Fprintf(&b, "%g,%g,%g,%s\n", r[0], r[1], r[2], names[int(src.Y[i])])
	}
	ds, err := data.ReadCSV(strings.NewReader(b.String()), data.CSVConfig{})
	require.NoError(t, err)
	require.Equal(t, []string{"ant", "bee", "wolf"}, ds.Classes)
	tr, val, test, _, err := data.SplitStandardized(ds, data.SplitConfig{Seed: 1})
	require.NoError(t, err)
	m := classMLP(t, 3, 3, tensor.Float64, 1)
	ovo := Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, OvO: true}}
	_, err = fitWarm(t, m, Config{Loss: ovo, Epochs: 40, BatchSize: 64, Metric: MacroAUC(metrics.OvO)}, 2, tr, val)
	require.NoError(t, err)
	scores, err := nn.Scores(m, test.X, test.Rows)
	require.NoError(t, err)
	auc, err := metrics.TaskAUC(scores, test.Y, rocops.Classes(3), metrics.OvO, metrics.Macro)
	require.NoError(t, err)
	require.GreaterOrEqual(t, auc, 0.95)
}
