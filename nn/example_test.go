package nn_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/nn"
)

// Build an MLP, score a batch, and save and load its parameters.
func Example() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{3}, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Architecture())
	for _, p := range m.Params() {
		fmt.Println(p.Name, p.Value.Shape())
	}

	x := []float64{ // four rows of two features
		0, 0,
		1, 0,
		0, 1,
		1, 1,
	}
	scores, err := nn.Scores(m, x, 4)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(scores), "scores")

	dir, err := os.MkdirTemp("", "nn-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.ckpt")
	if err := nn.Save(path, m); err != nil {
		log.Fatal(err)
	}
	other, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{3}, Seed: 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := nn.Load(path, other); err != nil {
		log.Fatal(err)
	}
	again, err := nn.Scores(other, x, 4)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("same scores after Load:", slices.Equal(scores, again))
	// Output:
	// MLP(in=2, hidden=[3], activation=relu)
	// layer0.weight (2, 3)
	// layer0.bias (3)
	// layer1.weight (3, 1)
	// layer1.bias (1)
	// 4 scores
	// same scores after Load: true
}

// Graphs built from one model share its parameters: a solver step taken on a training graph
// changes what everything else that reads the model computes — other graphs built from it,
// and Scores.
func ExampleModel_sharedParameters() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	// Training graph: batches of 4 rows, cost = the sum of the scores.
	train := gorgonia.NewGraph()
	x := gorgonia.NewMatrix(train, tensor.Float64, gorgonia.WithShape(4, 2),
		gorgonia.WithValue(tensor.New(tensor.WithShape(4, 2), tensor.WithBacking([]float64{1, 0, 0, 1, 1, 1, 0, 0}))))
	scores, learnables, err := m.Build(train, x)
	if err != nil {
		log.Fatal(err)
	}
	cost, err := gorgonia.Sum(scores)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := gorgonia.Grad(cost, learnables...); err != nil {
		log.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(train, gorgonia.BindDualValues(learnables...))
	defer vm.Close()

	// Evaluation on a single row, before and after one step of gradient descent. The
	// gradient of the summed scores is (2, 2) for the weights and 4 for the bias, so a step
	// of 0.1 lowers the score of the row (1, 1) by 0.1·(2 + 2 + 4) = 0.8.
	before, err := nn.Scores(m, []float64{1, 1}, 1)
	if err != nil {
		log.Fatal(err)
	}
	if err := vm.RunAll(); err != nil {
		log.Fatal(err)
	}
	solver := gorgonia.NewVanillaSolver(gorgonia.WithLearnRate(0.1))
	if err := solver.Step(gorgonia.NodesToValueGrads(learnables)); err != nil {
		log.Fatal(err)
	}
	after, err := nn.Scores(m, []float64{1, 1}, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("score change: %.3f\n", after[0]-before[0])
	// Output:
	// score change: -0.800
}

// A Scorer keeps what it builds for scoring, so that scoring again (validation after every
// epoch, serving) builds nothing again; features held in float32 are scored as they are, to
// the same scores as those values widened to float64.
func ExampleScoresWith() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 1}) // the linear scorer
	if err != nil {
		log.Fatal(err)
	}
	s, err := nn.NewScorer(m)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	x64 := []float64{0.5, -1, 2, 0.25}
	x32 := []float32{0.5, -1, 2, 0.25}
	a, err := nn.ScoresWith(s, x64, 2)
	if err != nil {
		log.Fatal(err)
	}
	b, err := nn.ScoresWith(s, x32, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Architecture(), len(a), "scores, the same from float32:", slices.Equal(a, b))
	_, err = nn.ScoresWith(s, x64, 3)
	fmt.Println(err)
	// Output:
	// Linear(in=2) 2 scores, the same from float32: true
	// nn: invalid input: 4 values for 3 rows of 2 features
}

// Start from a trained model: keep its body, frozen or with LoRA adapters, under a new head of
// one score. Params marks what training keeps as it is; a trainer optimises the rest.
func ExampleTransfer() {
	// A model of three outputs, as trained on another task (or loaded with nn.Load).
	base, err := nn.NewMLP(nn.MLPConfig{In: 4, Hidden: []int{8, 6}, Outputs: 3, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	for _, cfg := range []nn.TransferConfig{
		{Freeze: 2, Seed: 1}, // the body frozen, a new head
		{Rank: 2, Seed: 1},   // rank-2 adapters on both body layers, a new head
	} {
		m, err := nn.Transfer(base, cfg)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(m.Architecture())
		trainable := 0
		for _, p := range m.Params() {
			if !p.Frozen {
				trainable += p.Value.Len()
			}
			fmt.Printf("  %-13s %-7s frozen=%v\n", p.Name, fmt.Sprint(p.Value.Shape()), p.Frozen)
		}
		fmt.Println("  trainable scalars:", trainable)
	}

	// With fresh adapters (B = 0) on every layer, head included, a model scores as its base.
	whole, err := nn.Transfer(base, nn.TransferConfig{Body: 3, Rank: 2})
	if err != nil {
		log.Fatal(err)
	}
	x := []float64{0.5, -1, 2, 0, 1, 1, -0.5, 3}
	a, _ := nn.Scores(base, x, 2)
	b, _ := nn.Scores(whole, x, 2)
	fmt.Println("adapted model scores as its base:", slices.Equal(a, b))
	// Output:
	// MLP(in=4, hidden=[8 6], activation=relu)
	//   layer0.weight (4, 8)  frozen=true
	//   layer0.bias   (8)     frozen=true
	//   layer1.weight (8, 6)  frozen=true
	//   layer1.bias   (6)     frozen=true
	//   layer2.weight (6, 1)  frozen=false
	//   layer2.bias   (1)     frozen=false
	//   trainable scalars: 7
	// MLP(in=4, hidden=[8 6], activation=relu, lora=[0 1], rank=2, alpha=2)
	//   layer0.weight (4, 8)  frozen=true
	//   layer0.bias   (8)     frozen=true
	//   layer0.lora_a (2, 4)  frozen=false
	//   layer0.lora_b (8, 2)  frozen=false
	//   layer1.weight (8, 6)  frozen=true
	//   layer1.bias   (6)     frozen=true
	//   layer1.lora_a (2, 8)  frozen=false
	//   layer1.lora_b (6, 2)  frozen=false
	//   layer2.weight (6, 1)  frozen=false
	//   layer2.bias   (1)     frozen=false
	//   trainable scalars: 59
	// adapted model scores as its base: true
}
