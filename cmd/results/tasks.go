package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/internal/synth"
)

// task is a binary data set with its scorer: split prepares one seed's parts.
type task struct {
	name   string
	hidden []int // nil: a linear scorer
	split  func(seed uint64) (*experiment.Split, error)
}

// binaryTasks are the binary tasks by their -tasks key, the panel's read from the folder
// panel ("" leaves them unreadable: a panel task is then an error).
func binaryTasks(panel string) map[string]task {
	return map[string]task{
		"so":        panelTask(panel, "stackoverflow_remote", "stackoverflow_remote.csv", []int{64}),
		"churn":     panelTask(panel, "telecom_churn", "telecom_churn.csv", []int{64}),
		"credit":    panelTask(panel, "credit_scoring", "credit_scoring.csv", []int{64}),
		"spam":      panelTask(panel, "spambase", "spambase.csv", []int{64}),
		"so-lin":    panelTask(panel, "stackoverflow_remote/linear", "stackoverflow_remote.csv", nil),
		"churn-lin": panelTask(panel, "telecom_churn/linear", "telecom_churn.csv", nil),
		"wdbc": {name: "wdbc", hidden: []int{64}, split: splitOf(func() (*data.Dataset, error) {
			return data.WDBC()
		})},
		// 5000 training and validation rows, 20000 test rows.
		"tilted":    drawn("tilted/linear", nil, synth.Tilted, [3]int{5000, 5000, 20000}),
		"logit":     drawn("logistic/mlp", []int{64}, logisticTask, [3]int{4000, 2000, 20000}),
		"logit-lin": drawn("logistic/linear", nil, logisticTask, [3]int{4000, 2000, 20000}),
	}
}

// splitOf splits the data set load returns 60/20/20 by the seed and standardises it on the
// training part (experiment.NewSplit), as cmd/roctrain does; load runs once.
func splitOf(load func() (*data.Dataset, error)) func(seed uint64) (*experiment.Split, error) {
	var ds *data.Dataset
	return func(seed uint64) (*experiment.Split, error) {
		if ds == nil {
			var err error
			if ds, err = load(); err != nil {
				return nil, err
			}
		}
		return experiment.NewSplit(ds, seed)
	}
}

// panelTask is the panel file's task, read from the folder panel.
func panelTask(panel, name, file string, hidden []int) task {
	return task{name: name, hidden: hidden, split: splitOf(func() (*data.Dataset, error) {
		return loadPanel(panel, file)
	})}
}

// loadPanel reads file from the folder panel.
func loadPanel(panel, file string) (*data.Dataset, error) {
	if panel == "" {
		return nil, fmt.Errorf("%s is a file of the panel: set -panel to its folder", file)
	}
	return data.LoadCSV(filepath.Join(panel, file), data.CSVConfig{})
}

// drawn is a synthetic task whose three parts of rows[0], rows[1] and rows[2] rows draw's
// generator gives from the seeds 3·seed+1, 3·seed+2 and 3·seed+3; they are not standardised.
func drawn(name string, hidden []int, draw func(n int, seed uint64) (*data.Dataset, error), rows [3]int) task {
	return task{name: name, hidden: hidden, split: func(seed uint64) (*experiment.Split, error) {
		sp := &experiment.Split{Seed: seed}
		for p, part := range []**data.Dataset{&sp.Train, &sp.Val, &sp.Test} {
			var err error
			if *part, err = draw(rows[p], 3*seed+uint64(p)+1); err != nil {
				return nil, err
			}
		}
		return sp, nil
	}}
}

// logisticTask is well specified for cross-entropy: n rows x ~ N(0, I₁₀) with
// P(y = 1 | x) = σ(w·x − 3.2), w = (1.5, −1, 1, 0.5, −0.5, 0.5, 0, 0, 0, 0), about 10%
// positives, drawn from seed.
func logisticTask(n int, seed uint64) (*data.Dataset, error) {
	rng := rand.New(rand.NewPCG(seed, 21))
	const d = 10
	w := []float64{1.5, -1, 1, 0.5, -0.5, 0.5, 0, 0, 0, 0}
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range n {
		z := -3.2
		for j := range d {
			x[i*d+j] = rng.NormFloat64()
			z += w[j] * x[i*d+j]
		}
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			y[i] = 1
		}
	}
	return data.New(x, y, d)
}
