package deploy_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/nn"
)

// Save a linear scorer s = 2·a′ − b′ + 0.5 on standardised features a′ = (a − 10)/2 and
// b′ = b, with the threshold 1, then load it and score CSV rows: (12, 1) gives s = 2·1 − 1 +
// 0.5 = 1.5, flagged; (10, 3) gives −2.5; (14, 0) gives 4.5.
func Example() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2})
	if err != nil {
		log.Fatal(err)
	}
	copy(m.Params()[0].Value.Data().([]float64), []float64{2, -1}) // layer0.weight
	copy(m.Params()[1].Value.Data().([]float64), []float64{0.5})   // layer0.bias

	dir, err := os.MkdirTemp("", "deploy-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	op := deploy.OperatingPoint{Alpha: 0.1, Threshold: 1, ValFPR: 0.1, ValTPR: 0.8, TestFPR: 0.09, TestTPR: 0.75, Label: "y"}
	st := data.Standardizer{Mean: []float64{10, 0}, Std: []float64{2, 1}}
	if _, err := deploy.Save(dir, "linear", m, op, st, []string{"a", "b"}); err != nil {
		log.Fatal(err)
	}

	s, err := deploy.Load(dir + "/linear.params")
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	rows, flagged, err := s.ScoreCSV(strings.NewReader("b,a,y\n1,12,1\n3,10,0\n0,14,1\n"), os.Stdout)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d rows flagged at score ≥ %g (α = %g)\n", flagged, rows, s.OperatingPoint().Threshold, s.OperatingPoint().Alpha)

	scores, err := s.Score([]float64{12, 1}, 1) // a, b in the order of s.Features()
	fmt.Println(s.Features(), scores, err)
	// Output:
	// row,y,score,flag
	// 1,1,1.5,1
	// 2,0,-2.5,0
	// 3,1,4.5,1
	// 2 of 3 rows flagged at score ≥ 1 (α = 0.1)
	// [a b] [1.5] <nil>
}

// Save a linear model of three classes cat, dog and fox, with the scores s_cat = a′,
// s_dog = b′ − a′ and s_fox = 0.5 − b′ on the standardised features a′ = (a − 10)/2 and
// b′ = b, and the per-class thresholds 1, 0.5 and 1; load it and score CSV rows. The row
// (12, 1) gives s = (1, 0, −0.5), flagged cat; (10, 3) gives (0, 3, −2.5), flagged dog;
// (8, −2) gives (−1, −1, 2.5), flagged fox; (10, 0) gives (0, 0, 0.5), flagged nothing, and
// its label owl, a class the model does not know, is copied as it is.
func Example_multiclass() {
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Outputs: 3})
	if err != nil {
		log.Fatal(err)
	}
	copy(m.Params()[0].Value.Data().([]float64), []float64{ // layer0.weight, 2×3: row a′, row b′
		1, -1, 0,
		0, 1, -1,
	})
	copy(m.Params()[1].Value.Data().([]float64), []float64{0, 0, 0.5}) // layer0.bias

	dir, err := os.MkdirTemp("", "deploy-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	op := deploy.OperatingPoint{
		Alpha: 0.1, Label: "y", Classes: []string{"cat", "dog", "fox"}, Thresholds: []float64{1, 0.5, 1},
		ClassValFPR: []float64{0.1, 0.1, 0.05}, ClassValTPR: []float64{0.8, 0.7, 0.9},
		ClassTestFPR: []float64{0.08, 0.1, 0.06}, ClassTestTPR: []float64{0.75, 0.7, 0.85},
		ValFPR: 0.25 / 3, ValTPR: 0.8, TestFPR: 0.08, TestTPR: 2.3 / 3, // the macro means
	}
	st := data.Standardizer{Mean: []float64{10, 0}, Std: []float64{2, 1}}
	if _, err := deploy.Save(dir, "animals", m, op, st, []string{"a", "b"}); err != nil {
		log.Fatal(err)
	}

	s, err := deploy.Load(dir + "/animals.params")
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	fmt.Println("version", s.Version(), s.OperatingPoint().Classes, s.OperatingPoint().Thresholds)
	rows, flagged, err := s.ScoreCSV(strings.NewReader("b,a,y\n1,12,cat\n3,10,dog\n-2,8,fox\n0,10,owl\n"), os.Stdout)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d rows flagged for at least one class\n", flagged, rows)

	scores, err := s.Score([]float64{12, 1}, 1) // a, b in the order of s.Features()
	fmt.Println(scores, s.FlagClass(0, scores[0]), err)
	// Output:
	// version 3 [cat dog fox] [1 0.5 1]
	// row,y,score_cat,score_dog,score_fox,flag_cat,flag_dog,flag_fox
	// 1,cat,1,0,-0.5,1,0,0
	// 2,dog,0,3,-2.5,0,1,0
	// 3,fox,-1,-1,2.5,0,0,1
	// 4,owl,0,0,0.5,0,0,0
	// 3 of 4 rows flagged for at least one class
	// [1 0 -0.5] true <nil>
}
