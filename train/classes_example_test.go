package train_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// threeClasses returns n rows of two features in three classes, class c centred at
// 3·(cos 2πc/3, sin 2πc/3) in unit noise.
func threeClasses(n int, seed uint64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 1))
	centres := [3][2]float64{{3, 0}, {-1.5, 2.6}, {-1.5, -2.6}}
	ds := &data.Dataset{Rows: n, Cols: 2, FeatureNames: []string{"u", "v"}, LabelName: "kind",
		Classes: []string{"a", "b", "c"}}
	for i := range n {
		c := i % 3
		ds.X = append(ds.X, centres[c][0]+rng.NormFloat64(), centres[c][1]+rng.NormFloat64())
		ds.Y = append(ds.Y, float64(c))
	}
	return ds
}

// Train a three-output MLP on three classes with the squared hinge, one-vs-rest on the
// Classes task, after a softmax cross-entropy warm-up, stopping early on the validation macro
// one-vs-one AUC.
func ExamplePairwise_multiclass() {
	tr, val := threeClasses(600, 1), threeClasses(300, 2)
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{8}, Outputs: 3, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	recipe := train.WithWarmup(2, train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}})
	h, err := recipe.Fit(context.Background(), m, train.Config{
		Epochs:    20,
		BatchSize: 64,
		Metric:    train.MacroAUC(metrics.OvO),
		Patience:  5,
		Progress:  io.Discard,
	}, tr, val)
	if err != nil {
		log.Fatal(err)
	}
	scores, err := nn.Scores(m, val.X, val.Rows) // 3 scores per row
	if err != nil {
		log.Fatal(err)
	}
	aucs, err := metrics.ClassAUCs(scores, val.Y, rocops.Classes(3)) // val.Y: each row's class

	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(h.Epochs[0].Stage, "then", h.Epochs[2].Stage, "epochs, judged by", train.MacroAUC(metrics.OvO))
	for c, a := range aucs {
		fmt.Printf("class %s: one-vs-rest AUC above 0.98: %v\n", val.Classes[c], a > 0.98)
	}
	// Output:
	// warmup then main epochs, judged by macro AUC (ovo)
	// class a: one-vs-rest AUC above 0.98: true
	// class b: one-vs-rest AUC above 0.98: true
	// class c: one-vs-rest AUC above 0.98: true
}
