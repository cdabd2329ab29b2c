package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// gradOp is an op package's loss on slices, the reference a train loss must match.
type gradOp func(grad, scores, labels []float64) (float64, error)

func ceOp(t rocops.Task) gradOp {
	return func(grad, scores, labels []float64) (float64, error) {
		return crossentropy.GradientInto(grad, scores, labels, crossentropy.Config{Task: t})
	}
}

func pairwiseOp(cfg pairwise.Config, t rocops.Task) gradOp {
	cfg.Task = t
	return func(grad, scores, labels []float64) (float64, error) {
		return pairwise.GradientInto(grad, scores, labels, cfg)
	}
}

// taskBatch returns a batch of n rows of task t: n·K scores and its labels, every class (or
// both values of every label column) present.
func taskBatch(t rocops.Task, n int, seed uint64) (scores, labels []float64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	k := t.K()
	scores = make([]float64, n*k)
	for i := range scores {
		scores[i] = rng.NormFloat64()
	}
	labels = make([]float64, n*t.LabelsPerRow())
	for i := range labels {
		switch t.Kind() {
		case rocops.Multiclass:
			labels[i] = float64(i % k)
		default: // row r, column c: (r + c) mod 2
			labels[i] = float64((i/t.LabelsPerRow() + i%t.LabelsPerRow()) % 2)
		}
	}
	return scores, labels
}

// requireSameLoss checks that loss on task t computes op bit for bit, value and gradient.
func requireSameLoss(t *testing.T, loss Loss, task rocops.Task, op gradOp, msg string) {
	t.Helper()
	scores, labels := taskBatch(task, 12, 5)
	want := make([]float64, len(scores))
	wantL, err := op(want, scores, labels)
	require.NoError(t, err, msg)
	got := make([]float64, len(scores))
	gotL, err := loss.ValueGradInto(got, scores, labels, task)
	require.NoError(t, err, msg)
	require.Equal(t, math.Float64bits(wantL), math.Float64bits(gotL), "%s: loss %v, want %v", msg, gotL, wantL)
	for i := range want {
		require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "%s: ∂L/∂s[%d]", msg, i)
	}
}

// TestRecipesOnEveryTask: every registry name on every task, the losses its recipe trains
// there, or the ErrTask its Check refuses it with (what ForData did before the losses became
// task-general). One name means the same loss on every task: cross-entropy is the softmax
// cross-entropy on k classes and the per-label one on k labels, a pairwise loss one-vs-rest or
// label-wise, ovo one-vs-one on k classes only; the KDE recipes are binary only.
func TestRecipesOnEveryTask(t *testing.T) {
	binary := &data.Dataset{LabelName: "y"}
	classes := &data.Dataset{Classes: []string{"a", "b", "c"}}
	labels := &data.Dataset{Labels: []string{"p", "q"}}
	sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	part := pairwise.Config{Surrogate: pairwise.Hinge, MaxFPR: 0.2}
	ovo := sq
	ovo.OvO = true
	kde := KDE{Config: kdequantile.Config{Alpha: 0.1}}
	// A loss the recipe trains on task t, as an op package computes it; nil = refused.
	type trains func(t rocops.Task) gradOp
	ce := func(t rocops.Task) gradOp { return ceOp(t) }
	pw := func(cfg pairwise.Config) trains { return func(t rocops.Task) gradOp { return pairwiseOp(cfg, t) } }
	for _, c := range []struct {
		name            string
		binary          Recipe // the recipe on binary data; nil = refused
		classes, labels trains // the main loss on the task; nil = refused
	}{
		{"ce", Plain(CrossEntropy{}), ce, ce},
		{"sqhinge", Plain(Pairwise{Config: sq}), pw(sq), pw(sq)},
		{"hinge:maxfpr=0.2", Plain(Pairwise{Config: part}), pw(part), pw(part)},
		{"sqhinge:ovo", nil, pw(ovo), nil},
		{"kde", KDERecipe(kde.Config), nil, nil},
		{"kde-plain", Plain(kde), nil, nil},
		{"kde-plain:anneal", Anneal(kde.Config, nil, 0), nil, nil},
		{"ce+kde:w=1", Plain(Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 1, Loss: kde}}), nil, nil},
	} {
		rs, _, err := Names{Point: Point{Alpha: 0.1}}.Parse(c.name)
		require.NoError(t, err, c.name)
		r := rs[0]
		for _, task := range []struct {
			ds    *data.Dataset
			wantR Recipe
			want  trains
		}{{binary, c.binary, nil}, {classes, r, c.classes}, {labels, r, c.labels}} {
			tk := task.ds.Task()
			err := r.Check(tk)
			if task.wantR == nil || (tk.Kind() != rocops.Binary && task.want == nil) {
				require.ErrorIs(t, err, ErrTask, "%s on %v", c.name, tk)
				// The error names the loss refused.
				refused := "kde(alpha=0.1, v0=0, v1=0" // the KDE loss, at any width
				if c.name == "sqhinge:ovo" {
					refused = Pairwise{Config: ovo}.String()
				}
				require.ErrorContains(t, err, refused, "%s on %v", c.name, tk)
				continue
			}
			require.NoError(t, err, "%s on %v", c.name, tk)
			require.Equal(t, task.wantR, r, "%s on %v", c.name, tk)
			if task.want == nil {
				continue
			}
			require.Len(t, r, 1, c.name)
			requireSameLoss(t, r[0].Loss, tk, task.want(tk), c.name+" on "+tk.String())
		}
	}
	// The warm-up stays and trains the data's cross-entropy; aucm fits every task.
	rs, _, err := Names{Point: Point{Alpha: 0.1}, Warmup: 4}.Parse("sqhinge+wu")
	require.NoError(t, err)
	require.Equal(t, WithWarmup(4, Pairwise{Config: sq}), rs[0])
	for _, ds := range []*data.Dataset{binary, classes, labels} {
		tk := ds.Task()
		require.NoError(t, rs[0].Check(tk), tk.String())
		require.True(t, rs[0][0].Warmup)
		requireSameLoss(t, CrossEntropy{}, tk, ceOp(tk), "warm-up on "+tk.String())
		requireSameLoss(t, rs[0][1].Loss, tk, pairwiseOp(sq, tk), "sqhinge+wu on "+tk.String())
	}
	rs, _, err = Names{Point: Point{Alpha: 0.1}}.Parse("aucm")
	require.NoError(t, err)
	for _, ds := range []*data.Dataset{binary, classes, labels} {
		require.NoError(t, rs[0].Check(ds.Task()), ds.Task().String())
	}
}

func TestMetricFor(t *testing.T) {
	classes := rocops.Classes(3)
	ovr := []Recipe{Plain(Pairwise{})}
	ovo := []Recipe{Plain(Pairwise{Config: pairwise.Config{OvO: true}})}
	require.Equal(t, PartialAUC(0.1), MetricFor(ovo, rocops.Task{}, PartialAUC(0.1)))
	require.Equal(t, MacroAUC(metrics.OvR), MetricFor(ovr, classes, PartialAUC(0.1)))
	require.Equal(t, MacroAUC(metrics.OvO), MetricFor(ovo, classes, PartialAUC(0.1)))
	require.Equal(t, MacroAUC(metrics.OvR), MetricFor(ovr, rocops.Labels(1), PartialAUC(0.1)))
	// A one-vs-one phase of a recipe of several phases also makes it one-vs-one.
	require.Equal(t, MacroAUC(metrics.OvO), MetricFor([]Recipe{WithWarmup(2, ovo[0][0].Loss)}, classes, AUC()))
}
