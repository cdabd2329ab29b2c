package train_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// Corrective-power diagnostics every 2 epochs of the squared hinge: one Diagnosis per
// diagnosed epoch, its cross-entropy bound never below the severe-misranking mass it bounds.
func ExampleDiagnose() {
	tr, val := wdbc()
	m, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	t, err := train.New(m, train.Config{
		Loss:         train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
		Epochs:       5,
		BatchSize:    64,
		LearningRate: 0.05,
		Seed:         1,
		Diagnose:     &train.Diagnose{Every: 2, Selection: 64, Pool: 128, Seed: 1},
		Progress:     io.Discard,
	})
	if err != nil {
		log.Fatal(err)
	}
	h, err := t.Fit(context.Background(), tr, val)
	if err != nil {
		log.Fatal(err)
	}
	show := func(d train.Diagnosis) {
		fmt.Printf("epoch %d (%v): misranking %.4f, π_M %.4f ≤ bound %.4f: %v, %v\n",
			d.Epoch, d.Stage, d.Misranking, d.SevereMass, d.CEBound, d.SevereMass <= d.CEBound, d.Decision)
	}
	for _, d := range h.Diagnoses {
		show(d)
	}
	// Output:
	// epoch 2 (main): misranking 0.0161, π_M 0.0070 ≤ bound 0.3390: true, observe
	// epoch 4 (main): misranking 0.0107, π_M 0.0052 ≤ bound 0.2628: true, observe
	// epoch 5 (main): misranking 0.0099, π_M 0.0049 ≤ bound 0.2555: true, observe
}

// On three classes the diagnostics run over the one-vs-rest comparisons of the training loss:
// Diagnosis.Classes holds each class's ClassDiagnosis, and each figure of the Diagnosis is the
// mean of the classes'.
func ExampleDiagnose_classes() {
	tr, val := threeClasses(300, 1), threeClasses(150, 2)
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: 3, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	t, err := train.New(m, train.Config{
		Loss:         train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
		Epochs:       5,
		BatchSize:    32,
		LearningRate: 0.05,
		Seed:         1,
		Diagnose:     &train.Diagnose{Every: 5, Selection: 64, Pool: 128, Seed: 1},
		Progress:     io.Discard,
	})
	if err != nil {
		log.Fatal(err)
	}
	h, err := t.Fit(context.Background(), tr, val)
	if err != nil {
		log.Fatal(err)
	}
	d := h.Diagnoses[len(h.Diagnoses)-1]
	mean := 0.0
	for c, cd := range d.Classes {
		show := func(cd train.ClassDiagnosis) {
			fmt.Printf("class %s: misranking %.4f, π_M %.4f\n", tr.Classes[c], cd.Misranking, cd.SevereMass)
		}
		show(cd)
		mean += cd.Misranking / 3
	}
	fmt.Printf("epoch %d: misranking %.4f, the classes' mean: %v\n", d.Epoch, d.Misranking, math.Abs(d.Misranking-mean) < 1e-15)
	// Output:
	// class a: misranking 0.0076, π_M 0.0003
	// class b: misranking 0.0035, π_M 0.0000
	// class c: misranking 0.0016, π_M 0.0000
	// epoch 5: misranking 0.0042, the classes' mean: true
}

// With Intervene, every main-phase diagnosis after the first is decided by the protocol's
// rule, and its reason recorded. Here, on a teacher task with label noise, the hinge loss's
// drift along the severe-error direction turns negative at epoch 9 with its first-order noise
// a quarter of the run's best: two cross-entropy epochs follow (Stage Intervention), then a
// recheck, and the main loss resumes for the rest of its 12 epochs.
func ExampleIntervene() {
	ds, err := data.Teacher(data.TeacherConfig{Rows: 1500, Cols: 6, Noise: 0.3, Seed: 4})
	if err != nil {
		log.Fatal(err)
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: ds.Cols, Seed: 4})
	if err != nil {
		log.Fatal(err)
	}
	t, err := train.New(m, train.Config{
		Loss:         train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge}},
		Epochs:       12,
		BatchSize:    128,
		LearningRate: 0.05,
		Seed:         4,
		Diagnose:     &train.Diagnose{Intervene: &train.Intervene{Epochs: 2, Max: 1}},
		Progress:     io.Discard,
	})
	if err != nil {
		log.Fatal(err)
	}
	h, err := t.Fit(context.Background(), ds, nil)
	if err != nil {
		log.Fatal(err)
	}
	decided := map[train.Decision]int{}
	for _, d := range h.Diagnoses {
		decided[d.Decision]++
		if d.Decision == train.Continued {
			continue
		}
		fmt.Printf("epoch %d %v: %v (%s)\n", d.Epoch, d.Stage, d.Decision, d.Reason)
	}
	fmt.Printf("%d epochs, %d diagnoses decided to continue\n", len(h.Epochs), decided[train.Continued])
	// Output:
	// epoch 1 main: observe (first diagnosis: nothing to compare with)
	// epoch 9 main: intervene (weak: drift -0.08292 (best -0.02226), first-order variance 0.005764 (best 0.02364))
	// epoch 10 intervention: observe (intervention epoch)
	// epoch 11 intervention: recheck (after 2 cross-entropy epochs)
	// 14 epochs, 10 diagnoses decided to continue
}

// DiagnosticSets draws the selection batch and the logging pool Fit diagnoses with: disjoint,
// each with the training data's share of positives: 127 of 341 rows, so round(64·127/341) = 24
// of the selection batch's 64 and round(128·127/341) = 48 of the pool's 128.
func ExampleDiagnosticSets() {
	tr, _ := wdbc()
	sel, pool, err := train.DiagnosticSets(tr, train.Diagnose{Selection: 64, Pool: 128, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	positives := func(y []float64) (n int) {
		for _, v := range y {
			n += int(v)
		}
		return n
	}
	fmt.Printf("training rows %d, %d positive\n", tr.Rows, positives(tr.Y))
	fmt.Printf("selection %d, %d positive; pool %d, %d positive\n", sel.Rows, positives(sel.Y), pool.Rows, positives(pool.Y))
	// Output:
	// training rows 341, 127 positive
	// selection 64, 24 positive; pool 128, 48 positive
}

// SearchRates gives the learning rates a search of a run name tries in place of the run's:
// PESG's own grid for "aucm", the one rate of its lr option, nil (the run's) for the others.
func ExampleSearchRates() {
	for _, name := range []string{"aucm", "aucm:lr=0.3", "kde", "aucm:lr=x"} {
		rates, err := train.SearchRates(name)
		if err != nil {
			fmt.Println(name, errors.Is(err, rocops.ErrConfig))
			continue
		}
		fmt.Println(name, rates)
	}
	// Output:
	// aucm [0.03 0.1 0.3]
	// aucm:lr=0.3 [0.3]
	// kde []
	// aucm:lr=x true
}
