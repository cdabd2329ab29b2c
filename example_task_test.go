package rocops_test

import (
	"errors"
	"fmt"

	"github.com/rocops/rocops"
)

// The three tasks and the batch shape each gives: a batch of n rows holds n·K scores and
// n·LabelsPerRow labels.
func ExampleTask() {
	for _, t := range []rocops.Task{{}, rocops.Classes(4), rocops.Labels(3)} {
		fmt.Printf("%-9v kind %-11v K = %d, labels per row %d\n", t, t.Kind(), t.K(), t.LabelsPerRow())
	}
	// Output:
	// binary    kind binary      K = 1, labels per row 1
	// 4 classes kind multi-class K = 4, labels per row 1
	// 3 labels  kind multi-label K = 3, labels per row 3
}

// Four classes: one class index 0…3 per row, four scores per row. One class is no task.
func ExampleClasses() {
	t := rocops.Classes(4)
	fmt.Println(t, t.K(), t.Kind() == rocops.Multiclass, t.Validate())
	err := rocops.Classes(1).Validate()
	fmt.Println(errors.Is(err, rocops.ErrConfig))
	// Output:
	// 4 classes 4 true <nil>
	// true
}

// Three 0/1 labels per row; a batch of two rows holds 6 scores and 6 labels, row-major.
func ExampleLabels() {
	t := rocops.Labels(3)
	rows := 2
	fmt.Println(t, rows*t.K(), "scores,", rows*t.LabelsPerRow(), "labels")
	fmt.Println(rocops.Labels(0).Validate())
	// Output:
	// 3 labels 6 scores, 6 labels
	// rocops: invalid setting: a multi-label task of k = 0; classes need k ≥ 2, labels k ≥ 1
}

func ExampleKind() {
	for _, k := range []rocops.Kind{rocops.Binary, rocops.Multiclass, rocops.Multilabel} {
		fmt.Println(int(k), k)
	}
	// Output:
	// 0 binary
	// 1 multi-class
	// 2 multi-label
}
