package diagnose_test

import (
	"fmt"

	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/ops/pairwise"
)

// Scores of four positives and four negatives: two positives sit far below every negative.
func Example() {
	scores := []float64{2.0, 1.5, -3.0, -2.5, 0.5, -0.5, 1.0, 0.0}
	labels := []float64{1, 1, 1, 1, 0, 0, 0, 0}
	const m = 1 // severity: a pair is severe when f₊ < f₋ − 1

	var binary diagnose.Comparisons // the zero Comparisons: the binary task, one comparison
	_, mis, _ := binary.Misranking(scores, labels)
	_, severe, _ := binary.SevereMass(scores, labels, m)
	_, bound, _ := binary.CEBound(scores, labels, m)
	fmt.Printf("misranking %.3f, severe mass %.3f ≤ CE bound %.3f\n", mis, severe, bound)

	// Relative gradient weight on wrong margins: hinge treats all wrong pairs alike, the
	// squared hinge leans on the worst.
	edges := []float64{-4, -2, 0}
	for _, s := range []pairwise.Surrogate{pairwise.Hinge, pairwise.SquaredHinge} {
		_, w, _ := binary.WeightShares(scores, labels, pairwise.Config{Surrogate: s}, edges)
		fmt.Printf("%-7v x∈[-4,-2): %.2f  x∈[-2,0): %.2f\n", s, w[0], w[1])
	}

	// Score tangents p along some direction: it raises the two low positives.
	p := []float64{0, 0, 1, 1, 0, 0, 0, 0}
	splits, _ := binary.Project(scores, labels, p, pairwise.Config{Surrogate: pairwise.SquaredHinge})
	sp := splits[0].Split
	fmt.Printf("drift %.2f, VarPos %.2f, VarNeg %.2f, VarResidual %.2f, first-order share at B=4: %.2f\n",
		sp.Mean, sp.VarPos, sp.VarNeg, sp.VarResidual, sp.FirstOrderShare(4, 4))
	// Output:
	// misranking 0.500, severe mass 0.500 ≤ CE bound 2.415
	// hinge   x∈[-4,-2): 1.78  x∈[-2,0): 1.78
	// sqhinge x∈[-4,-2): 2.04  x∈[-2,0): 1.48
	// drift 4.00, VarPos 16.12, VarNeg 0.31, VarResidual 0.31, first-order share at B=4: 1.00
}
