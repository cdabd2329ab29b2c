package experiment_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/train"
)

// search returns a search of a linear scorer trained by cross-entropy for two epochs on WDBC.
func search(name string, rates ...float64) *experiment.Search {
	return &experiment.Search{
		Name:          name,
		Recipes:       []train.Recipe{train.Plain(nil)},
		LearningRates: rates,
		Config:        train.Config{Epochs: 2, BatchSize: 64, Metric: train.PartialAUC(0.1), Progress: io.Discard},
	}
}

// wdbcSplit is NewSplit of the embedded WDBC data.
func wdbcSplit(seed uint64) (*experiment.Split, error) {
	ds, err := data.WDBC()
	if err != nil {
		return nil, err
	}
	return experiment.NewSplit(ds, seed)
}

// The split of one seed: WDBC's 569 rows 60/20/20 within each class (212 malignant: 127, 43
// and 42; the rows of each class are rounded per part), standardised with the training part's statistics, so the training part's first
// feature has mean 0 (the training mean of mean radius is 14.005).
func ExampleNewSplit() {
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
	for _, part := range []*data.Dataset{sp.Train, sp.Val, sp.Test} {
		fmt.Printf("%d rows, %d malignant\n", part.Rows, part.Positives())
	}
	fmt.Printf("fitted mean radius %.3f\n", sp.Std.Mean[0])
	// Output:
	// 341 rows, 127 malignant
	// 115 rows, 43 malignant
	// 113 rows, 42 malignant
	// fitted mean radius 14.005
}

// Parts given apart, such as three files: the training part's feature 1, 2, 3 (mean 2,
// standard deviation √(2/3)) standardises every part, so the validation row 4 becomes
// 2/√(2/3) ≈ 2.4495 and the test row 0 becomes −2.4495.
func ExampleNewSplitFrom() {
	train, _ := data.New([]float64{1, 2, 3}, []float64{0, 1, 1}, 1)
	val, _ := data.New([]float64{4, 2}, []float64{1, 0}, 1)
	test, _ := data.New([]float64{0, 2}, []float64{0, 1}, 1)
	sp, err := experiment.NewSplitFrom(train, val, test, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("seed %d: train %.4f, validation %.4f, test %.4f\n", sp.Seed, sp.Train.X, sp.Val.X, sp.Test.X)
	fmt.Println("original parts unchanged:", train.X[0] == 1 && val.X[0] == 4)
	// Output:
	// seed 7: train [-1.2247 0.0000 1.2247], validation [2.4495 0.0000], test [-2.4495 0.0000]
	// original parts unchanged: true
}

// Measure a model on the test part: a linear scorer of the first feature alone (weight 1 on
// the standardised mean radius, 0 elsewhere) has that feature's own test AUC.
func ExampleMeasure() {
	sp, err := wdbcSplit(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: sp.Test.Cols})
	if err != nil {
		fmt.Println(err)
		return
	}
	w := m.Params()[0].Value.Data().([]float64)
	clear(w)
	w[0] = 1
	meas, err := experiment.Measure(m, sp, experiment.MeasureConfig{Alpha: 0.1, Recall: 0.9})
	if err != nil {
		fmt.Println(err)
		return
	}
	radius := make([]float64, sp.Test.Rows)
	for i := range radius {
		radius[i] = sp.Test.X[i*sp.Test.Cols]
	}
	auc, _ := metrics.AUC(radius, sp.Test.Y)
	fmt.Printf("test AUC %.4f (of the feature itself %.4f), TPR at FPR 0.1 %.3f, FPR at TPR 0.9 %.3f\n",
		meas.AUC, auc, meas.TPR, *meas.FPRAtTPR)
	fmt.Printf("deployed: validation FPR %.3f ≤ 0.1, test FPR %.3f and TPR %.3f\n", meas.ValFPR, meas.TestFPR, meas.TestTPR)
	// Output:
	// test AUC 0.9105 (of the feature itself 0.9105), TPR at FPR 0.1 0.786, FPR at TPR 0.9 0.310
	// deployed: validation FPR 0.097 ≤ 0.1, test FPR 0.127 and TPR 0.786
}

// The hooks of a search see every candidate: the same recipe at two learning rates, candidates
// 0 and 1 (learning rates inner).
func ExampleHooks() {
	sp, err := wdbcSplit(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := search("ce", 0.001, 0.01)
	s.Hooks = experiment.Hooks{
		Done: func(c experiment.Candidate, h *train.History, err error) {
			fmt.Printf("candidate %d, learning rate %g: %d epochs, %v\n", c.Index, c.LearningRate, len(h.Epochs), err)
		},
	}
	best, err := s.Run(context.Background(), sp)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("kept learning rate", best.LearningRate)
	// Output:
	// candidate 0, learning rate 0.001: 2 epochs, <nil>
	// candidate 1, learning rate 0.01: 2 epochs, <nil>
	// kept learning rate 0.01
}

// A grid of two searches over two seeds, each seed's split shared by both searches; the second
// seed's first search is skipped, as a run already on file would be.
func ExampleGrid() {
	searches := []*experiment.Search{search("slow", 0.001), search("fast", 0.01)}
	g := &experiment.Grid{
		Seeds:    []uint64{1, 2},
		Split:    wdbcSplit,
		Searches: searches,
		Hooks: experiment.GridHooks{
			Start: func(sp *experiment.Split, k int) bool {
				fmt.Printf("%s, seed %d", searches[k].Name, sp.Seed)
				if sp.Seed == 2 && k == 0 {
					fmt.Println(": skipped")
					return false
				}
				return true
			},
			Done: func(sp *experiment.Split, k int, best *experiment.Best, err error) error {
				if err != nil {
					return err
				}
				fmt.Printf(": kept epoch %d at learning rate %g\n", best.Epoch(), best.LearningRate)
				return nil
			},
		},
	}
	if err := g.Run(context.Background()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// slow, seed 1: kept epoch 1 at learning rate 0.001
	// fast, seed 1: kept epoch 2 at learning rate 0.01
	// slow, seed 2: skipped
	// fast, seed 2: kept epoch 2 at learning rate 0.01
}

// Progress announces each training with an estimate of the time left, from the mean time of
// those finished (here a few microseconds, so 0s); a skipped one counts as done.
func ExampleProgress() {
	p := &experiment.Progress{W: os.Stdout, Total: 3}
	p.Start("ce, seed 1")
	p.Finish()
	p.Skip() // on file already
	p.Start("kde, seed 1")
	p.Finish()
	// Output:
	// [1/3] ce, seed 1
	// [3/3] kde, seed 1, about 0s left
}

// Compare measures each search on each seed and compares it with the first search on the same
// test rows (DeLong's paired test of the AUC): in two epochs the linear scorer learns a better
// ranking at learning rate 0.1 than at 0.01.
func ExampleCompare() {
	g := &experiment.Grid{
		Seeds:    []uint64{1, 2},
		Split:    wdbcSplit,
		Searches: []*experiment.Search{search("slow", 0.01), search("fast", 0.1)},
	}
	names := []string{"slow", "fast"}
	finish := func(sp *experiment.Split, k int, best *experiment.Best, r *experiment.Result) error {
		r.Name = names[k]
		return nil
	}
	perRun, failed, err := experiment.Compare(context.Background(), g, experiment.MeasureConfig{Alpha: 0.1}, finish)
	if err != nil || len(failed) > 0 {
		fmt.Println(err, failed)
		return
	}
	for _, runs := range perRun {
		for _, r := range runs {
			fmt.Printf("%s seed %d: test AUC %.4f", r.Name, r.Seed, r.TestAUC)
			if d := r.TestAUCVsFirst; d != nil {
				fmt.Printf(", vs slow %+.4f", d.Diff)
			}
			fmt.Println()
		}
	}
	for _, s := range experiment.Summarise(perRun) {
		fmt.Printf("%s over %d seeds: test AUC %.4f\n", s.Name, s.Seeds, s.TestAUC)
	}
	// Output:
	// slow seed 1: test AUC 0.7981
	// slow seed 2: test AUC 0.9681
	// fast seed 1: test AUC 0.9956, vs slow +0.1975
	// fast seed 2: test AUC 0.9920, vs slow +0.0238
	// slow over 2 seeds: test AUC 0.8831
	// fast over 2 seeds: test AUC 0.9938
}

// Two runs on two seeds, figures given by hand: run a's test AUC 0.90 and 0.80, run b's 0.95
// and 0.81, so their means are 0.85 and 0.88 and their sample standard deviations 0.1/√2 =
// 0.0707 and 0.14/√2 = 0.0990. b's paired differences from a are 0.05 and 0.01: mean 0.03,
// standard error 0.02, and the 95% paired-t interval 0.03 ± t(0.975, 1)·0.02 = 0.03 ± 12.706·0.02
// = [−0.2241, 0.2841].
func ExampleSummarise() {
	run := func(name string, seed uint64, auc float64) experiment.Result {
		return experiment.Result{Name: name, Loss: name, Seed: seed, Figures: experiment.Figures{TestAUC: auc}}
	}
	perRun := [][]experiment.Result{
		{run("a", 1, 0.90), run("a", 2, 0.80)},
		{run("b", 1, 0.95), run("b", 2, 0.81)},
	}
	for _, s := range experiment.Summarise(perRun) {
		fmt.Printf("%s: %d seeds, test AUC %.4f ± %.4f", s.Name, s.Seeds, s.TestAUC, s.SD.TestAUC)
		if d, ok := s.PairedVsFirst["test_auc"]; ok {
			fmt.Printf(", vs a %+.4f [%.4f, %.4f]", d.Diff, d.CI95[0], d.CI95[1])
		}
		fmt.Println()
	}
	// Output:
	// a: 2 seeds, test AUC 0.8500 ± 0.0707
	// b: 2 seeds, test AUC 0.8800 ± 0.0990, vs a +0.0300 [-0.2241, 0.2841]
}

// The JSON form of a paired difference and its interval, as roctrain's output writes them.
func ExampleInterval() {
	p := experiment.Paired{Diff: 0.01, CI95: experiment.Interval{-0.02, 0.04}}
	out, err := json.Marshal(p)
	fmt.Println(string(out), err)
	// Output:
	// {"diff":0.01,"ci95":[-0.02,0.04]} <nil>
}

// The figure each recipe optimises, which tables list first: the KDE loss estimates the TPR at
// FPR α (with a recall, its mirror), cross-entropy ranks all pairs alike.
func ExampleTarget() {
	kde := train.Plain(train.KDE{Config: kdequantile.Config{Alpha: 0.1}})
	fmt.Println(experiment.Target([]train.Recipe{train.Plain(nil)}, false))
	fmt.Println(experiment.Target([]train.Recipe{kde}, false))
	fmt.Println(experiment.Target([]train.Recipe{kde}, true))
	// Output:
	// test_auc
	// test_tpr_at_fpr
	// test_fpr_at_tpr
}
