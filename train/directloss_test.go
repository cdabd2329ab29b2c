package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/optim"
)

// squaredError is a user's own loss, written only here: the mean squared error of the scores
// against the 0/1 labels,
//
//	L = (1/n) Σ_i (s_i − y_i)²,   ∂L/∂s_i = 2·(s_i − y_i)/n,
//
// as a graph (Build) and on slices (ValueGradInto), for binary data (Check). It counts the
// calls of both (ValueGradInto's on a batch: not the trainer's probe with empty slices), and
// records the largest |s_i − y_i| it has seen.
type squaredError struct{ *squaredErrorCounts }

type squaredErrorCounts struct {
	builds, calls int
	maxResidual   float64
}

func (squaredError) Check(t rocops.Task) error {
	if t.Kind() != rocops.Binary {
		return fmt.Errorf("%w: mse is binary", ErrTask)
	}
	return nil
}

func (l squaredError) Build(scores, labels *gorgonia.Node, _ rocops.Task) (*gorgonia.Node, error) {
	l.builds++
	d, err := gorgonia.Sub(scores, labels)
	if err != nil {
		return nil, err
	}
	sq, err := gorgonia.Square(d)
	if err != nil {
		return nil, err
	}
	return gorgonia.Mean(sq)
}

func (l squaredError) ValueGradInto(grad, scores, labels []float64, _ rocops.Task) (float64, error) {
	if len(scores) > 0 {
		l.calls++
	}
	n := float64(len(scores))
	var sum float64
	for i, s := range scores {
		r := s - labels[i]
		l.maxResidual = max(l.maxResidual, math.Abs(r))
		sum += r * r
		grad[i] = 2 * r / n
	}
	return sum / n, nil
}

func (squaredError) String() string { return "mse" }

// mse returns a squaredError with fresh counts.
func mse() squaredError { return squaredError{&squaredErrorCounts{}} }

// graphOnly hides its Loss's form on slices: ValueGradInto is ErrNoDirect, so the trainer must
// build a graph for it.
type graphOnly struct{ Loss }

func (g graphOnly) ValueGradInto([]float64, []float64, []float64, rocops.Task) (float64, error) {
	return 0, fmt.Errorf("%w: %v behind graphOnly", ErrNoDirect, g.Loss)
}

// A loss of the user's own with a form on slices trains through the direct step: its
// ValueGradInto runs once per step and no graph is built. Trained through the graph instead
// (the same loss behind graphOnly), it follows the same trajectory to float rounding.
//
// The tolerance is derived for the setting of the test: a float64 linear scorer s = x·w + c
// trained by optim.SGD with learning rate η on batches of b rows and d features. Each path
// computes every gradient component (2/b) Σ_i r_i·x̃_ij (x̃_i = (x_i, 1), r_i = s_i − y_i)
// with an error of at most 2·X·(γ_b·R + γ_{d+1}·X·W) (standard summation bounds, γ_k = k·ε),
// X the largest |x̃_ij|, R the largest |r_i| and W the largest ‖(w, c)‖₁ seen. With
// η·max_i ‖x̃_i‖² ≤ 1 (asserted) the optim.SGD step on this quadratic is non-expansive, so the
// paths' weights differ after S steps by at most S·η·2·(that bound), summed over the steps
// (the optimiser's own arithmetic is the same code on both sides).
func TestUserDirectLossTrainsDirectly(t *testing.T) {
	const (
		rows, in, batch, epochs = 200, 3, 32, 3
		lr                      = 0.02
	)
	ds := blobs(t, rows, in, 0.3, 1.5, 5)
	var xMax, normMax float64 = 1, 0 // X and max ‖x̃_i‖², the bias column included
	for i := range ds.Rows {
		sq := 1.0
		for _, v := range ds.Row(i) {
			xMax, sq = max(xMax, math.Abs(v)), sq+v*v
		}
		normMax = max(normMax, sq)
	}
	require.LessOrEqual(t, lr*normMax, 1.0, "the step must be non-expansive for the bound")

	train := func(loss Loss) (*nn.MLP, *History, int, float64) {
		m, err := nn.NewMLP(nn.MLPConfig{In: in, Seed: 4})
		require.NoError(t, err)
		var steps int
		var wMax float64
		count := Hook{Name: "count", OnStep: func(StepInfo) error {
			steps++
			var w float64
			for _, p := range m.Params() {
				for _, v := range p.Value.Float64s() {
					w += math.Abs(v)
				}
			}
			wMax = max(wMax, w)
			return nil
		}}
		tr, err := New(m, Config{Loss: loss, Optimizer: optim.SGD, LearningRate: lr, Epochs: epochs,
			BatchSize: batch, Seed: 9, Hooks: []Hook{count}, Progress: io.Discard})
		require.NoError(t, err)
		h, err := tr.Fit(context.Background(), ds, ds)
		require.NoError(t, err)
		return m, h, steps, wMax
	}

	direct := mse()
	mDirect, hDirect, steps, wMax := train(direct)
	require.Equal(t, epochs*((rows+batch-1)/batch), steps)
	require.Equal(t, steps, direct.calls, "one ValueGradInto per step")
	require.Zero(t, direct.builds, "the direct step builds no graph")

	graphed := mse()
	mGraph, hGraph, gSteps, gwMax := train(graphOnly{graphed})
	require.Equal(t, steps, gSteps)
	require.Equal(t, 1, graphed.builds, "one graph for the one phase")
	require.Zero(t, graphed.calls)

	eps := math.Nextafter(1, 2) - 1
	r, w := max(direct.maxResidual, 1), max(wMax, gwMax)
	perStep := 2 * xMax * (float64(batch)*eps*r + float64(in+1)*eps*xMax*w)
	tolW := float64(steps) * lr * 2 * perStep
	for k, p := range mDirect.Params() {
		want := mGraph.Params()[k].Value.Float64s()
		for j, got := range p.Value.Float64s() {
			require.InDelta(t, want[j], got, tolW, "%s[%d]", p.Name, j)
		}
	}
	// An epoch's loss is a mean of batch losses, each moved by at most 2·R·X·‖Δ(w, c)‖₁
	// through the weights and γ_b·R² by its own rounding.
	tolLoss := 2*r*xMax*float64(in+1)*tolW + 2*float64(batch)*eps*r*r
	require.Len(t, hGraph.Epochs, len(hDirect.Epochs))
	for k, e := range hDirect.Epochs {
		require.InDelta(t, hGraph.Epochs[k].Loss, e.Loss, tolLoss, "epoch %d", e.Index)
	}
	t.Logf("%d steps; weights within %.2g, losses within %.2g", steps, tolW, tolLoss)
}

// A Weighted loss takes the direct step when every term has a form on slices, the user's own
// among them, and the graph step when a term has none. A bad weight is refused by Check (which
// Fit runs before any step) and when the graph is built.
func TestWeightedDirectWithUserLoss(t *testing.T) {
	const batch, in = 16, 2
	for _, c := range []struct {
		name   string
		loss   Loss
		direct bool
	}{
		{"direct terms", Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 0.5, Loss: mse()}}, true},
		{"nested", Weighted{{Weight: 1, Loss: Weighted{{Weight: 2, Loss: mse()}}}}, true},
		{"a graph term", Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 0.5, Loss: graphOnly{mse()}}}, false},
		{"a NaN weight", Weighted{{Weight: math.NaN(), Loss: CrossEntropy{}}}, false},
		{"user loss", mse(), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := nn.NewMLP(nn.MLPConfig{In: in, Seed: 1})
			require.NoError(t, err)
			if w, ok := c.loss.(Weighted); ok && math.IsNaN(w[0].Weight) {
				require.ErrorContains(t, c.loss.Check(rocops.Task{}), "bad term")
				opt, err := optim.NewStepper(optim.Adam, 0.005)
				require.NoError(t, err)
				_, err = newGraphStep(m, c.loss, rocops.Task{}, batch, in, opt)
				require.ErrorContains(t, err, "bad term", "a bad weight fails when the graph is built")
				return
			}
			require.NoError(t, c.loss.Check(rocops.Task{}))
			st, err := newStep(m, c.loss, rocops.Task{}, batch, in, Config{})
			require.NoError(t, err)
			defer st.close()
			_, isDirect := st.(*directStep)
			require.Equal(t, c.direct, isDirect)
		})
	}
	// Called directly, a Weighted loss with a term without a form on slices is ErrNoDirect.
	w := Weighted{{Weight: 1, Loss: graphOnly{CrossEntropy{}}}}
	_, err := w.ValueGradInto(make([]float64, 2), []float64{0, 1}, []float64{0, 1}, rocops.Task{})
	require.ErrorIs(t, err, ErrNoDirect)
	require.ErrorContains(t, err, "a term of")
}

// BenchmarkUserLossStep is BenchmarkStep's step (MLP 30→64→1, 1024 rows, optim.Adam) on the test's
// own squared error, through the direct step its form on slices takes (path=direct) and
// through the graph (path=graph, the same loss behind graphOnly): the ratio is what
// implementing ValueGradInto saves a user.
func BenchmarkUserLossStep(b *testing.B) {
	const batch, in = 1024, 30
	ds := blobs(b, 4*batch, in, 0.1, 1, 1)
	idx := make([]int, batch)
	for i := range idx {
		idx[i] = i
	}
	for _, c := range []struct {
		path string
		loss Loss
	}{
		{"direct", mse()},
		{"graph", graphOnly{mse()}},
	} {
		b.Run("path="+c.path, func(b *testing.B) { benchMLPStep(b, tensor.Float64, c.loss, ds, idx) })
	}
}
