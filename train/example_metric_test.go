package train_test

import (
	"context"
	"fmt"
	"io"
	"log"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// wdbc returns the embedded WDBC data's training and validation parts, standardised.
func wdbc() (tr, val *data.Dataset) {
	ds, err := data.WDBC()
	if err != nil {
		log.Fatal(err)
	}
	tr, val, _, _, err = data.SplitStandardized(ds, data.SplitConfig{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	return tr, val
}

// fitWith trains the linear scorer on WDBC for 5 epochs at η = 0.05 with metric m and returns the kept
// epoch's validation metric, the validation scores of the kept weights and the labels.
func fitWith(m train.Metric) (best float64, scores, labels []float64) {
	tr, val := wdbc()
	model, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	t, err := train.New(model, train.Config{Epochs: 5, BatchSize: 64, LearningRate: 0.05, Metric: m, Seed: 1, Progress: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	h, err := t.Fit(context.Background(), tr, val)
	if err != nil {
		log.Fatal(err)
	}
	scores, err = nn.Scores(model, val.X, val.Rows)
	if err != nil {
		log.Fatal(err)
	}
	return h.Epochs[h.Best].Metric, scores, val.Y
}

// The kept epoch's validation AUC is metrics.AUC of the validation scores of the weights Fit
// leaves in the model.
func ExampleAUC() {
	best, scores, labels := fitWith(train.AUC())
	auc, err := metrics.AUC(scores, labels)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%v %.4f, the kept epoch's: %v\n", train.AUC(), auc, best == auc)
	// Output:
	// AUC 0.9871, the kept epoch's: true
}

// The validation metric PartialAUC(β) is metrics.PartialAUC at β of the kept weights.
func ExamplePartialAUC() {
	best, scores, labels := fitWith(train.PartialAUC(0.1))
	pauc, err := metrics.PartialAUC(scores, labels, 0.1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(train.PartialAUC(0.1), best == pauc)
	// Output:
	// pAUC@0.1 true
}

// The validation metric TPRAtFPR(α) is metrics.TPRAtFPR at α of the kept weights.
func ExampleTPRAtFPR() {
	best, scores, labels := fitWith(train.TPRAtFPR(0.05))
	tpr, err := metrics.TPRAtFPR(scores, labels, 0.05)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(train.TPRAtFPR(0.05), best == tpr)
	// Output:
	// TPR@FPR=0.05 true
}

// TNRAtTPR(r), the metric of the mirrored KDE loss, is 1 − metrics.FPRAtTPR at r: larger is
// better, as for every Metric.
func ExampleTNRAtTPR() {
	best, scores, labels := fitWith(train.TNRAtTPR(0.95))
	fpr, err := metrics.FPRAtTPR(scores, labels, 0.95)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(train.TNRAtTPR(0.95), best == 1-fpr)
	// Output:
	// TNR@TPR=0.95 true
}

// MacroAUC on three classes: the kept epoch's metric is metrics.TaskAUC, macro-averaged, of
// the softmax probabilities after the softmax cross-entropy (History.Probabilities).
func ExampleMacroAUC() {
	tr, val := threeClasses(300, 1), threeClasses(150, 2)
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: 3, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	t, err := train.New(m, train.Config{Epochs: 3, BatchSize: 32, Metric: train.MacroAUC(metrics.OvR), Progress: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	h, err := t.Fit(context.Background(), tr, val)
	if err != nil {
		log.Fatal(err)
	}
	logits, err := nn.Scores(m, val.X, val.Rows)
	if err != nil {
		log.Fatal(err)
	}
	p, err := crossentropy.Softmax(logits, 3)
	if err != nil {
		log.Fatal(err)
	}
	macro, err := metrics.TaskAUC(p, val.Y, rocops.Classes(3), metrics.OvR, metrics.Macro)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(train.MacroAUC(metrics.OvR), h.Probabilities, h.Epochs[h.Best].Metric == macro)
	// Output:
	// macro AUC (ovr) true true
}

// MetricFor chooses the validation metric of a run's recipes by the data's task: the given
// metric on binary data, the macro AUC on k classes (one-vs-one when a recipe trains the
// one-vs-one pairwise loss) and on k labels.
func ExampleMetricFor() {
	sqhinge := train.Plain(train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}})
	ovo := train.Plain(train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge, OvO: true}})
	for _, c := range []struct {
		recipes []train.Recipe
		task    rocops.Task
	}{
		{[]train.Recipe{sqhinge}, rocops.Task{}},
		{[]train.Recipe{sqhinge}, rocops.Classes(3)},
		{[]train.Recipe{sqhinge, ovo}, rocops.Classes(3)},
		{[]train.Recipe{sqhinge}, rocops.Labels(3)},
	} {
		fmt.Printf("%-9v %v\n", c.task, train.MetricFor(c.recipes, c.task, train.PartialAUC(0.1)))
	}
	// Output:
	// binary    pAUC@0.1
	// 3 classes macro AUC (ovr)
	// 3 classes macro AUC (ovo)
	// 3 labels  macro AUC (ovr)
}
