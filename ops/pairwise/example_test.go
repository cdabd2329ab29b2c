package pairwise_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/ops/pairwise"
)

// Two positives (scores 2 and 0.5) and two negatives (1 and 0) make four pairs with margins
// x = f_pos − f_neg of 1, 2, −0.5 and 0.5. With m = 1 the hinge terms are 0, 0, 1.5 and 0.5,
// so the hinge loss is 2/4 = 0.5; the squared hinge terms 0, 0, 2.25, 0.25 give 0.625.
func ExampleEvaluate() {
	scores := []float64{2, 0.5, 1, 0}
	labels := []float64{1, 1, 0, 0}
	for _, s := range pairwise.Surrogates() {
		loss, err := pairwise.Evaluate(scores, labels, pairwise.Config{Surrogate: s})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-8v %.4f\n", s, loss)
	}
	// Output:
	// logistic 0.4721
	// exp      0.6896
	// square   0.8750
	// hinge    0.5000
	// sqhinge  0.6250
}

// The squared hinge as a graph node, differentiated by gorgonia.Grad. Of the four pairs of
// ExampleEvaluate only (0.5, 1) and (0.5, 0) are active, with weights 2(1 − x) = 3 and 1, so
// the gradient is (0, −(3+1)/4, 3/4, 1/4).
func ExampleLoss() {
	g := gorgonia.NewGraph()
	scores := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("scores"),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{2, 0.5, 1, 0}))))
	labels := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("labels"),
		gorgonia.WithValue(tensor.New(tensor.WithBacking([]float64{1, 1, 0, 0}))))
	loss, err := pairwise.Loss(scores, labels, pairwise.Config{Surrogate: pairwise.SquaredHinge})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := gorgonia.Grad(loss, scores); err != nil {
		fmt.Println(err)
		return
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		fmt.Println(err)
		return
	}
	grad, err := scores.Grad()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("loss:", loss.Value())
	fmt.Println("gradient:", grad.Data())
	// Output:
	// loss: 0.625
	// gradient: [0 -1 0.75 0.25]
}

// The weight w(x) = −ℓ′(x) each surrogate gives a pair misranked by 2 (x = −2) and a pair
// ranked correctly by 2 (x = 2), with the default margin m = 1 (Chen et al., arXiv 2610.21743,
// appendix E.1).
func ExampleWeight() {
	for _, s := range pairwise.Surrogates() {
		fmt.Printf("%-8v w(-2) = %6.3f   w(2) = %6.3f\n", s, pairwise.Weight(s, 0, -2), pairwise.Weight(s, 0, 2))
	}
	// Output:
	// logistic w(-2) =  0.881   w(2) =  0.119
	// exp      w(-2) =  7.389   w(2) =  0.135
	// square   w(-2) =  6.000   w(2) = -2.000
	// hinge    w(-2) =  1.000   w(2) =  0.000
	// sqhinge  w(-2) =  6.000   w(2) =  0.000
}

// The partial AUC of the squared hinge. Positives 2 and 0.5, negatives 1, 0, −1, −2: of the
// eight pairs only (0.5, 1) and (0.5, 0) are active, with terms 2.25 and 0.25, so the full
// loss is 2.5/8. MaxFPR = 0.5 keeps the top ⌈0.5·4⌉ = 2 negatives (1 and 0): 2.5/4. MinTPR =
// 0.5 as well keeps the lowest ⌈0.5·2⌉ = 1 positive (0.5): 2.5/2.
func ExampleConfig_partialAUC() {
	scores := []float64{2, 0.5, 1, 0, -1, -2}
	labels := []float64{1, 1, 0, 0, 0, 0}
	for _, cfg := range []pairwise.Config{
		{Surrogate: pairwise.SquaredHinge},
		{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.5},
		{Surrogate: pairwise.SquaredHinge, MaxFPR: 0.5, MinTPR: 0.5},
	} {
		loss, err := pairwise.Evaluate(scores, labels, cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("MaxFPR %.1f MinTPR %.1f: %.4f\n", cfg.MaxFPR, cfg.MinTPR, loss)
	}
	// Output:
	// MaxFPR 0.0 MinTPR 0.0: 0.3125
	// MaxFPR 0.5 MinTPR 0.0: 0.6250
	// MaxFPR 0.5 MinTPR 0.5: 1.2500
}

// The loss ℓ(x) each surrogate charges a pair misranked by 2 (x = −2), a tie (x = 0) and a
// pair ranked correctly by 2 (x = 2), with the default margin m = 1: log(1 + e²) ≈ 2.127,
// e² ≈ 7.389, (1 + 2)² = 9, 1 + 2 = 3 and 9 for the misranked pair, and at the tie log 2, 1,
// 1, 1 and 1.
func ExamplePairLoss() {
	for _, s := range pairwise.Surrogates() {
		fmt.Printf("%-8v ℓ(-2) = %5.3f   ℓ(0) = %5.3f   ℓ(2) = %5.3f\n", s,
			pairwise.PairLoss(s, 0, -2), pairwise.PairLoss(s, 0, 0), pairwise.PairLoss(s, 0, 2))
	}
	// Output:
	// logistic ℓ(-2) = 2.127   ℓ(0) = 0.693   ℓ(2) = 0.127
	// exp      ℓ(-2) = 7.389   ℓ(0) = 1.000   ℓ(2) = 0.135
	// square   ℓ(-2) = 9.000   ℓ(0) = 1.000   ℓ(2) = 1.000
	// hinge    ℓ(-2) = 3.000   ℓ(0) = 1.000   ℓ(2) = 0.000
	// sqhinge  ℓ(-2) = 9.000   ℓ(0) = 1.000   ℓ(2) = 0.000
}

// Surrogates lists every surrogate in order, by the names ParseSurrogate reads.
func ExampleSurrogates() {
	for _, s := range pairwise.Surrogates() {
		back, err := pairwise.ParseSurrogate(s.String())
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(int(s), s, back == s)
	}
	// Output:
	// 0 logistic true
	// 1 exp true
	// 2 square true
	// 3 hinge true
	// 4 sqhinge true
}

// ParseSurrogate reads a name in any case, as flags and configuration files give it; a
// Surrogate reads and writes itself by name in JSON too.
func ExampleParseSurrogate() {
	s, err := pairwise.ParseSurrogate("SqHinge")
	fmt.Println(s == pairwise.SquaredHinge, err)
	_, err = pairwise.ParseSurrogate("ranknet")
	fmt.Println(errors.Is(err, rocops.ErrConfig))

	var cfg struct{ Surrogate pairwise.Surrogate }
	if err := json.Unmarshal([]byte(`{"Surrogate": "hinge"}`), &cfg); err != nil {
		fmt.Println(err)
		return
	}
	out, err := json.Marshal(cfg)
	fmt.Println(cfg.Surrogate == pairwise.Hinge, string(out), err)
	// Output:
	// true <nil>
	// true
	// true {"Surrogate":"hinge"} <nil>
}

// GradientInto overwrites one buffer reused from step to step, with the gradient of
// ExampleLoss: of the four pairs only (0.5, 1) and (0.5, 0) are active, weights 3 and 1.
func ExampleGradientInto() {
	grad := make([]float64, 4)
	for range 2 { // a step's buffer, reused
		loss, err := pairwise.GradientInto(grad, []float64{2, 0.5, 1, 0}, []float64{1, 1, 0, 0},
			pairwise.Config{Surrogate: pairwise.SquaredHinge})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(loss, grad)
	}
	// Output:
	// 0.625 [0 -1 0.75 0.25]
	// 0.625 [0 -1 0.75 0.25]
}
