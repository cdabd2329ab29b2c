package experiment_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
		Recipes:       []train.Recipe{train.Plain(nil)},
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

// A results log resumes an experiment: the runs on file are read back and skipped, and each
// run that finishes is appended as one JSON line.
func ExampleOpenLog() {
	dir, err := os.MkdirTemp("", "log")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	type run struct {
		Name string  `json:"name"`
		Seed uint64  `json:"seed"`
		AUC  float64 `json:"auc"`
	}
	key := func(r run) string { return fmt.Sprintf("%s/%d", r.Name, r.Seed) }
	path := filepath.Join(dir, "runs.jsonl")
	log, _, err := experiment.OpenLog(path, key)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range []run{{"ce", 1, 0.97}, {"kde", 1, 0.98}} {
		if err := log.Add(r); err != nil {
			fmt.Println(err)
			return
		}
	}
	// Later, after a restart:
	log, done, err := experiment.OpenLog(path, key)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d runs on file; skip kde/1: %v; skip kde/2: %v\n", len(done), log.Has("kde/1"), log.Has("kde/2"))
	text, _ := os.ReadFile(path)
	fmt.Print(string(text))
	// Output:
	// 2 runs on file; skip kde/1: true; skip kde/2: false
	// {"name":"ce","seed":1,"auc":0.97}
	// {"name":"kde","seed":1,"auc":0.98}
}
