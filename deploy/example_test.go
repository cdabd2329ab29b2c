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
	m, err := nn.NewLinear(nn.LinearConfig{In: 2})
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
	fmt.Printf("%d of %d rows flagged at score ≥ %g (α = %g)\n", flagged, rows, s.Threshold(), s.Alpha())

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
