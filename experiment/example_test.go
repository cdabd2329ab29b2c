package experiment_test

import (
	"context"
	"fmt"
	"io"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// Tune cross-entropy's learning rate on the embedded WDBC data by validation partial AUC up to
// FPR 0.1, then measure the kept model on the test part.
func ExampleSearch() {
	ds, err := data.WDBC()
	if err != nil {
		fmt.Println(err)
		return
	}
	sp, err := experiment.NewSplit(ds, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := &experiment.Search{
		Name:          "ce",
		Recipes:       []train.Recipe{train.Plain{}},
		LearningRates: []float64{0.001, 0.01},
		Model:         nn.MLPConfig{Hidden: []int{16}},
		Config:        train.Config{Epochs: 5, BatchSize: 64, Metric: train.PartialAUC(0.1), Progress: io.Discard},
	}
	best, err := s.Run(context.Background(), sp)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := experiment.Measure(best.Model, sp, experiment.MeasureConfig{Alpha: 0.1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("learning rate %g, epoch %d\n", best.LearningRate, best.Epoch())
	fmt.Printf("test AUC %.3f, TPR at FPR 0.1 %.3f\n", m.AUC, m.TPR)
	// Output:
	// learning rate 0.01, epoch 3
	// test AUC 0.995, TPR at FPR 0.1 0.976
}
