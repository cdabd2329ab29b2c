package train_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"strings"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/optim"
	"github.com/rocops/rocops/train"
)

// stages returns the Stage of every epoch of h, as one string.
func stages(h *train.History) string {
	s := make([]string, len(h.Epochs))
	for i, e := range h.Epochs {
		s[i] = e.Stage.String()
	}
	return strings.Join(s, " ")
}

// fitRecipe trains the linear scorer on WDBC by r, 4 epochs a phase at η = 0.05.
func fitRecipe(r train.Recipe) *train.History {
	tr, val := wdbc()
	m, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	h, err := r.Fit(context.Background(), m, train.Config{Epochs: 4, BatchSize: 64, LearningRate: 0.05, Seed: 1, Progress: io.Discard}, tr, val)
	if err != nil {
		log.Fatal(err)
	}
	return h
}

// New checks the settings before any data: a batch of one row cannot hold both classes.
// Fit trains, keeps the best validation epoch's weights and says what it did.
func ExampleNew() {
	tr, val := wdbc()
	m, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	_, err = train.New(m, train.Config{BatchSize: 1})
	fmt.Println(errors.Is(err, rocops.ErrConfig))

	t, err := train.New(m, train.Config{Epochs: 3, BatchSize: 64, LearningRate: 0.05, Seed: 1, Progress: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	h, err := t.Fit(context.Background(), tr, val)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d epochs, kept epoch %d: validation AUC %.4f\n", len(h.Epochs), h.Epochs[h.Best].Index, h.Epochs[h.Best].Metric)
	// Output:
	// true
	// 3 epochs, kept epoch 3: validation AUC 0.9861
}

// A History row per epoch; with Patience, Fit stops after that many epochs without a better
// validation metric and Stopped says so. Best indexes the epoch whose weights the model holds.
func ExampleHistory() {
	tr, val := wdbc()
	m, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	t, err := train.New(m, train.Config{Epochs: 50, BatchSize: 64, LearningRate: 0.05, Patience: 3, Seed: 1, Progress: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	var h *train.History
	if h, err = t.Fit(context.Background(), tr, val); err != nil {
		log.Fatal(err)
	}
	best := h.Epochs[h.Best]
	fmt.Printf("stopped early: %v after %d epochs; best epoch %d, %d epochs before the last\n",
		h.Stopped, len(h.Epochs), best.Index, len(h.Epochs)-best.Index)
	// Output:
	// stopped early: true after 12 epochs; best epoch 9, 3 epochs before the last
}

// Hooks see every step and epoch; an error stops training, and Fit returns it naming the hook
// with the best weights so far in the model. An epoch of 341 training rows in batches of 64 is
// ⌈341/64⌉ = 6 steps.
func ExampleHook() {
	tr, val := wdbc()
	m, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	steps := 0
	stop := errors.New("enough")
	hook := train.Hook{
		Name:   "budget",
		OnStep: func(s train.StepInfo) error { steps++; return nil },
		OnEpoch: func(e train.Epoch) error {
			if e.Metric > 0.98 {
				return stop
			}
			return nil
		},
	}
	t, err := train.New(m, train.Config{Epochs: 20, BatchSize: 64, LearningRate: 0.05, Seed: 1, Hooks: []train.Hook{hook}, Progress: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	h, err := t.Fit(context.Background(), tr, val)
	fmt.Println(errors.Is(err, stop), err)
	fmt.Printf("%d training rows: %d epochs, %d steps\n", tr.Rows, len(h.Epochs), steps)
	// Output:
	// true train: hook "budget": enough
	// 341 training rows: 2 epochs, 12 steps
}

// Plain is one phase of one loss with the run's settings.
func ExamplePlain() {
	r := train.Plain(train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}})
	h := fitRecipe(r)
	fmt.Printf("%v: %s\n", r, stages(h))
	// Output:
	// sqhinge(margin=1, pairs=all): main main main main
}

// WithWarmup trains cross-entropy first; its epochs are never the ones kept.
func ExampleWithWarmup() {
	r := train.WithWarmup(2, train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}})
	h := fitRecipe(r)
	fmt.Printf("%v: %s, kept a %v epoch\n", r, stages(h), h.Epochs[h.Best].Stage)
	// Output:
	// ce(2 epochs)→sqhinge(margin=1, pairs=all): warmup warmup main main main main, kept a main epoch
}

// FineTune: cross-entropy to its best validation epoch, then a second Phase from there at a
// tenth of the learning rate, kept only when it scores higher on validation.
func ExampleFineTune() {
	r := train.FineTune(train.Phase{Loss: train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic}}, Epochs: 2})
	h := fitRecipe(r)
	fmt.Printf("%v\n%s, kept epoch %d\n", r, stages(h), h.Epochs[h.Best].Index)
	// Output:
	// ce→logistic(pairs=all) for 2 epochs at lr×0.1
	// warmup warmup warmup warmup main main, kept epoch 6
}

// Anneal trains the KDE loss over shrinking bandwidths, a phase per width, its epochs divided
// among them.
func ExampleAnneal() {
	r := train.Anneal(kdequantile.Config{Alpha: 0.1}, []float64{4, 1}, 4)
	fmt.Println(r)
	h := fitRecipe(r)
	fmt.Printf("%d epochs, all %s\n", len(h.Epochs), h.Epochs[0].Stage)
	// Output:
	// kde(alpha=0.1, v0=0, v1=0, widen=4) for 2 epochs→kde(alpha=0.1, v0=0, v1=0) for 2 epochs
	// 4 epochs, all main
}

// CrossEntropy is the loss of each task's logits; on slices it is package crossentropy's.
func ExampleCrossEntropy() {
	var l train.Loss = train.CrossEntropy{}
	scores := []float64{0, math.Log(3), math.Log(3), 0}
	grad := make([]float64, 4)
	for _, c := range []struct {
		task   rocops.Task
		labels []float64
	}{{rocops.Classes(2), []float64{1, 0}}, {rocops.Labels(2), []float64{0, 1, 1, 0}}} {
		v, err := l.ValueGradInto(grad, scores, c.labels, c.task)
		if err != nil {
			log.Fatal(err)
		}
		want, err := crossentropy.Evaluate(scores, c.labels, crossentropy.Config{Task: c.task})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v on %v: %.4f, package crossentropy's: %v\n", l, c.task, v, v == want)
	}
	// Output:
	// ce on 2 classes: 0.2877, package crossentropy's: true
	// ce on 2 labels: 0.4904, package crossentropy's: true
}

// Weighted sums its terms: here cross-entropy plus ½ of the squared hinge. On the batch of
// pairwise's ExampleLoss the squared hinge is 0.625, so the sum is CE + 0.3125.
func ExampleWeighted() {
	scores, labels := []float64{2, 0.5, 1, 0}, []float64{1, 1, 0, 0}
	sq := train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}
	w := train.Weighted{
		train.Term{Weight: 1, Loss: train.CrossEntropy{}},
		train.Term{Weight: 0.5, Loss: sq},
	}
	grad := make([]float64, 4)
	v, err := w.ValueGradInto(grad, scores, labels, rocops.Task{})
	if err != nil {
		log.Fatal(err)
	}
	ce, err := crossentropy.Evaluate(scores, labels, crossentropy.Config{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(w)
	fmt.Printf("%.4f = %.4f + 0.5·0.625\n", v, ce)
	// Output:
	// 1×ce + 0.5×sqhinge(margin=1, pairs=all)
	// 0.9644 = 0.6519 + 0.5·0.625
}

// AUCM trains the AUC-M loss with PESG in place of the trainer's optimiser; State receives
// PESG's a, b and α to save beside the model (optim.SavePESGState) and resume from.
func ExampleAUCM() {
	var st optim.PESGState
	l := train.AUCM{State: &st}
	h := fitRecipe(train.Plain(l))
	fmt.Println(l)
	fmt.Printf("validation AUC %.4f after %d steps; α %.4f ≥ 0\n", h.Epochs[h.Best].Metric, st.Steps, st.Alpha[0])
	// Output:
	// aucm(margin=1, pesg)
	// validation AUC 0.9748 after 24 steps; α 0.7703 ≥ 0
}
