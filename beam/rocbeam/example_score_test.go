package rocbeam_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/rocops/rocops/beam/rocbeam"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
)

// saveLinear saves into dir the scorer s = 2·a′ − b′ + 0.5 on a′ = (a − 10)/2 and b′ = b with
// threshold 1 (package deploy's example), or with classes its two-class twin, and returns the
// model's path.
func saveLinear(dir string, classes []string) (string, error) {
	outputs := max(len(classes), 1)
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: outputs})
	if err != nil {
		return "", err
	}
	w := m.Params()[0].Value.Data().([]float64)
	for c := range outputs {
		w[c], w[outputs+c] = 2, -1 // layer0.weight, 2×outputs
	}
	copy(m.Params()[1].Value.Data().([]float64), []float64{0.5, 0.5}[:outputs])
	op := deploy.OperatingPoint{Alpha: 0.1, Threshold: 1, ValFPR: 0.1, ValTPR: 0.8, TestFPR: 0.09, TestTPR: 0.75, Label: "y"}
	if classes != nil {
		op.Classes, op.Thresholds = classes, []float64{1, 1}
		op.ClassValFPR, op.ClassValTPR = []float64{0.1, 0.1}, []float64{0.8, 0.8}
		op.ClassTestFPR, op.ClassTestTPR = []float64{0.09, 0.09}, []float64{0.75, 0.75}
	}
	st := data.Standardizer{Mean: []float64{10, 0}, Std: []float64{2, 1}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return deploy.Save(dir, "linear", m, op, st, []string{"a", "b"})
}

// Score a shard of raw rows with a deployed model and evaluate the scores, on the default
// runner. The rows (a, b) = (12, 1), (10, 3), (14, 0), (11, 2) score 1.5, −2.5, 4.5 and −0.5; the
// flagged ones (score ≥ 1) are the two positives, and the positives' scores 1.5 and 4.5 beat
// both negatives': AUC 1.
func ExampleScore() {
	dir, err := os.MkdirTemp("", "rocbeam-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	model, err := saveLinear(filepath.Join(dir, "model"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		fmt.Println(err)
		return
	}
	os.WriteFile(filepath.Join(in, "rows.csv"), []byte("a,b,y\n12,1,1\n10,3,0\n14,0,1\n11,2,0\n"), 0o644)

	p, s := beam.NewPipelineWithRoot()
	out := filepath.Join(dir, "out")
	cfg := rocbeam.Config{Input: filepath.Join(in, "*.csv"), Model: model, Output: out}
	if err := rocbeam.Score(s, cfg); err != nil {
		fmt.Println(err)
		return
	}
	if err := beamx.Run(context.Background(), p); err != nil {
		fmt.Println(err)
		return
	}
	scored, _ := os.ReadFile(filepath.Join(out, "scored-rows.csv"))
	fmt.Print(string(scored))
	b, _ := os.ReadFile(filepath.Join(out, "metrics.json"))
	var r rocbeam.Report
	if err := json.Unmarshal(b, &r); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("n %d, AUC %v, deployed threshold %v: FPR %v, TPR %v\n", r.N, r.AUC, *r.DeployedThreshold, *r.DeployedFPR, *r.DeployedTPR)
	// Output:
	// row,y,score,flag
	// 1,1,1.5,1
	// 2,0,-2.5,0
	// 3,1,4.5,1
	// 4,0,-0.5,0
	// n 4, AUC 1, deployed threshold 1: FPR 0, TPR 1
}

// The Report of merged counts, computed in one process: the rows of ExampleEvaluate's two
// shards (AUC 7.5/9, TPR 2/3 at FPR 1/3), with a deployed threshold 0.5 that flags the
// positives at 0.9 and 0.6 and the negative at 0.5.
func ExampleSummarize() {
	c, err := metrics.NewCurveFromCounts([]metrics.ScoreCount{
		{Score: 0.9, Pos: 1}, {Score: 0.6, Pos: 1}, {Score: 0.5, Neg: 1},
		{Score: 0.4, Pos: 1, Neg: 1}, {Score: 0.1, Neg: 1},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	t := 0.5
	r, err := rocbeam.Summarize(c, 1.0/3, &t)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("n %d, positives %d, AUC %.4f, TPR at FPR 1/3 %.4f\n", r.N, r.Positives, r.AUC, r.TPRAtFPR)
	fmt.Printf("deployed at %v: FPR %.4f, TPR %.4f\n", *r.DeployedThreshold, *r.DeployedFPR, *r.DeployedTPR)
	// Output:
	// n 6, positives 3, AUC 0.8333, TPR at FPR 1/3 0.6667
	// deployed at 0.5: FPR 0.3333, TPR 0.6667
}

// Two classes a and b over four rows, (score a, score b) = (0.8, 0.2) and (0.4, 0.6) of class a,
// (0.3, 0.7) and (0.6, 0.4) of class b. Class a's scores 0.8, 0.4 against b's rows' 0.3, 0.6
// win 3 of 4 pairs; class b's 0.7, 0.4 against a's rows' 0.2, 0.6 too: AUC 0.75 each, and the
// one-vs-one AUC of two classes is the mean of the same two. The thresholds 0.5 flag one row of
// each class on each column: FPR and TPR 0.5.
func ExampleSummarizeClasses() {
	pos := func(scores ...float64) []metrics.ScoreCount {
		var out []metrics.ScoreCount
		for _, s := range scores {
			out = append(out, metrics.ScoreCount{Score: s, Pos: 1})
		}
		return out
	}
	tables := [][]metrics.ScoreCount{ // tables[i·k + l]: class l's rows by their score of class i
		pos(0.8, 0.4), pos(0.3, 0.6), // score a: rows of class a, of class b
		pos(0.2, 0.6), pos(0.7, 0.4), // score b
	}
	r, err := rocbeam.SummarizeClasses([]string{"a", "b"}, tables, 0.5, []float64{0.5, 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("n %d, macro AUC %.2f, one-vs-one %.2f\n", r.N, r.AUC, *r.AUCOvO)
	for _, c := range r.Classes {
		fmt.Printf("%s: AUC %.2f, deployed FPR %.2f, TPR %.2f\n", c.Class, c.AUC, *c.DeployedFPR, *c.DeployedTPR)
	}
	// Output:
	// n 4, macro AUC 0.75, one-vs-one 0.75
	// a: AUC 0.75, deployed FPR 0.50, TPR 0.50
	// b: AUC 0.75, deployed FPR 0.50, TPR 0.50
}

// Binary refuses a model of classes, which Evaluate's -model does not take (the temporary
// directory printed as models/).
func ExampleBinary() {
	dir, err := os.MkdirTemp("", "rocbeam-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for _, classes := range [][]string{nil, {"cat", "dog"}} {
		path, err := saveLinear(filepath.Join(dir, fmt.Sprint(len(classes))), classes)
		if err != nil {
			fmt.Println(err)
			return
		}
		sc, err := deploy.Load(path)
		if err != nil {
			fmt.Println(err)
			return
		}
		err = rocbeam.Binary(sc)
		if err != nil {
			err = errors.New(strings.ReplaceAll(err.Error(), dir, "models"))
		}
		fmt.Println(errors.Is(rocbeam.Binary(sc), rocbeam.ErrClasses), err)
		sc.Close()
	}
	// Output:
	// false <nil>
	// true rocbeam: the model is multi-class or multi-label; this takes binary models only (models/2/linear.json, 2 classes: score it with roctrain -predict or deploy.Scorer.ScoreCSV)
}

// A Block holds one bucket's counts by distinct score, ascending.
func ExampleBlock() {
	b := rocbeam.Block{Scores: []float64{0.1, 0.4, 0.9}, Pos: []int64{0, 1, 2}, Neg: []int64{3, 1, 0}}
	fmt.Println(b.Len(), "distinct scores")
	// Output:
	// 3 distinct scores
}
