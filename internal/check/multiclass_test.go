package check

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rocops/rocops"
)

func TestMulticlassValidation(t *testing.T) {
	ok := []float64{1, 2, 3, 4, 5, 6}
	cases := []struct {
		name   string
		scores []float64
		k      int
		labels []int
		want   error // nil: valid, with counts [1 2] for k = 2
		says   string
		loose  bool // classIndices, which needs no two classes, accepts it
	}{
		{"valid", ok, 2, []int{1, 0, 1}, nil, "", true},
		{"k = 0", ok, 0, []int{0, 0, 0}, rocops.ErrLength, "k = 0", false},
		{"not n·k", ok, 4, []int{0, 1}, rocops.ErrLength, "6 scores are not 2 rows of k = 4", false},
		{"empty", nil, 2, nil, rocops.ErrEmpty, "", false},
		{"k overflows n·k", nil, 1 << 62, []int{0, 0, 0, 0}, rocops.ErrLength, "", false},
		{"k = 1", ok[:3], 1, []int{0, 0, 0}, rocops.ErrOneClass, "k = 1", true},
		{"NaN", []float64{1, math.NaN(), 3, 4}, 2, []int{0, 1}, rocops.ErrNonFinite, "scores[1]", false},
		{"label k", ok, 2, []int{0, 2, 1}, rocops.ErrLabel, "labels[1] = 2", false},
		{"no rows", ok, 3, []int{0, 2}, rocops.ErrOneClass, "class 1 has no rows", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			counts, err := Multiclass("p", c.scores, c.k, c.labels)
			if c.want == nil {
				if err != nil || len(counts) != 2 || counts[0] != 1 || counts[1] != 2 {
					t.Fatalf("counts %v, err %v", counts, err)
				}
			} else if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "p: ") || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err %v, want %v saying %q", err, c.want, c.says)
			}
			_, err = classIndices("p", c.scores, c.k, c.labels)
			if c.loose && err != nil {
				t.Fatalf("classIndices: %v", err)
			}
			if !c.loose && !errors.Is(err, c.want) {
				t.Fatalf("classIndices: %v, want %v", err, c.want)
			}
		})
	}
}

func TestMultilabelValidation(t *testing.T) {
	ok := []float64{1, 2, 3, 4, 5, 6}
	pos, err := Multilabel("p", ok, 2, []float64{1, 0, 0, 1, 1, 1}, true)
	if err != nil || pos[0] != 2 || pos[1] != 2 {
		t.Fatalf("%v %v", pos, err)
	}
	cases := []struct {
		name   string
		labels []float64
		k      int
		both   bool
		want   error
		says   string
	}{
		{"k = 0", []float64{1, 0, 0, 1, 1, 1}, 0, false, rocops.ErrLength, "k = 0"},
		{"ragged", []float64{1, 0, 0, 1, 1}, 2, false, rocops.ErrLength, ""},
		{"label 2", []float64{1, 0, 2, 1, 1, 1}, 2, false, rocops.ErrLabel, "labels[2]"},
		{"column of positives", []float64{1, 0, 1, 1, 1, 1}, 2, true, rocops.ErrNoNegatives, "label column 0"},
		{"column of negatives", []float64{1, 0, 0, 0, 1, 0}, 2, true, rocops.ErrNoPositives, "label column 1"},
	}
	for _, c := range cases {
		if _, err := Multilabel("p", ok, c.k, c.labels, c.both); !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want %v saying %q", c.name, err, c.want, c.says)
		}
	}
	if _, err := Multilabel("p", ok, 2, []float64{1, 0, 0, 0, 1, 0}, false); err != nil {
		t.Errorf("one-class column without both: %v", err)
	}
}

// TestColumns: the task-general validation of k-column batches gives the class counts or the
// label columns' positives, and each bad input the shared sentinel naming the element, class or
// column; without both, a class without rows or a label column of one class is accepted.
func TestColumns(t *testing.T) {
	ok := []float64{1, 2, 3, 4, 5, 6}
	cases := []struct {
		name   string
		task   rocops.Task
		scores []float64
		labels []float64
		want   error // nil: valid, with counts [1 2]
		says   string
		loose  bool // valid without both
	}{
		{"valid classes", rocops.Classes(2), ok, []float64{1, 0, 1}, nil, "", true},
		{"valid labels", rocops.Labels(2), ok, []float64{1, 0, 0, 1, 0, 1}, nil, "", true},
		{"not n·k", rocops.Classes(4), ok, []float64{0, 1}, rocops.ErrLength, "6 scores are not 2 rows of k = 4", false},
		{"empty", rocops.Classes(2), nil, nil, rocops.ErrEmpty, "", false},
		{"NaN", rocops.Classes(2), []float64{1, math.NaN(), 3, 4}, []float64{0, 1}, rocops.ErrNonFinite, "scores[1]", false},
		{"class 3", rocops.Classes(3), ok, []float64{0, 3}, rocops.ErrLabel, "labels[1] = 3", false},
		{"class -1", rocops.Classes(3), ok, []float64{0, -1}, rocops.ErrLabel, "labels[1] = -1", false},
		{"class 0.5", rocops.Classes(3), ok, []float64{0, 0.5}, rocops.ErrLabel, "labels[1] = 0.5", false},
		{"class NaN", rocops.Classes(3), ok, []float64{0, math.NaN()}, rocops.ErrLabel, "labels[1] = NaN", false},
		{"class +Inf", rocops.Classes(3), ok, []float64{0, math.Inf(1)}, rocops.ErrLabel, "labels[1] = +Inf", false},
		{"class without rows", rocops.Classes(3), ok, []float64{0, 2}, rocops.ErrOneClass, "class 1 has no rows among 2", true},
		{"label 2", rocops.Labels(2), ok, []float64{1, 0, 2, 1, 1, 1}, rocops.ErrLabel, "labels[2]", false},
		{"column of positives", rocops.Labels(2), ok, []float64{1, 0, 1, 1, 1, 1}, rocops.ErrNoNegatives, "label column 0", true},
		{"column of negatives", rocops.Labels(2), ok, []float64{1, 0, 0, 0, 1, 0}, rocops.ErrNoPositives, "label column 1", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, both := range []bool{true, false} {
				counts, err := ForTask("p", c.task, c.scores, c.labels, both)
				if c.want == nil || (!both && c.loose) {
					if err != nil {
						t.Fatalf("both = %v: %v", both, err)
					}
					if c.want == nil && (len(counts) != 2 || counts[0] != 1 || counts[1] != 2) {
						t.Fatalf("counts %v, want [1 2]", counts)
					}
					continue
				}
				if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "p: ") || !strings.Contains(err.Error(), c.says) {
					t.Fatalf("both = %v: err %v, want %v saying %q", both, err, c.want, c.says)
				}
			}
		})
	}
}
