package diagnose_test

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
)

// Three classes' scores, one row per example. One-vs-rest: class 0's column ranks row 3
// (0.4) below row 2 (0.6), one of its four pairs; class 1's column ranks row 1 first; class
// 2's column ranks row 2 (0.1) below rows 1 and 3, two of three pairs.
func ExampleComparisons_Misranking() {
	scores := []float64{
		0.9, 0.1, 0.0, // row 0, class 0
		0.2, 0.5, 0.3, // row 1, class 1
		0.6, 0.3, 0.1, // row 2, class 2
		0.4, 0.4, 0.2, // row 3, class 0
	}
	labels := []float64{0, 1, 2, 0}                      // each row's class
	one := diagnose.Comparisons{Task: rocops.Classes(3)} // one-vs-rest
	per, macro, err := one.Misranking(scores, labels)
	if err != nil {
		panic(err)
	}
	fmt.Printf("per class %.4f, macro %.4f\n", per, macro)
	// The binary task is the one comparison: class 0 against the rest, on column 0.
	col0 := []float64{0.9, 0.2, 0.6, 0.4}
	per, macro, err = diagnose.Comparisons{}.Misranking(col0, []float64{1, 0, 0, 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("binary %.4f, macro %.4f\n", per, macro)
	// Output:
	// per class [0.2500 0.0000 0.6667], macro 0.3056
	// binary [0.2500], macro 0.2500
}
