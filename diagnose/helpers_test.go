package diagnose_test

import (
	"errors"
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// meanSevereLoss returns the mean of diagnose.SevereLoss over the parts i < n that hold
// severe pairs, part(i) giving a part's scores, its reference scores and its labels, in the
// order of i, and the number of severe pairs they hold together.
func meanSevereLoss(t *testing.T, n int, part func(i int) (f, f0, y []float64), cfg pairwise.Config, sev float64) (mean float64, pairs int) {
	t.Helper()
	var sum float64
	used := 0
	for i := range n {
		f, f0, y := part(i)
		l, p, err := diagnose.SevereLoss(f, f0, y, cfg, sev)
		if errors.Is(err, diagnose.ErrNoSevere) {
			continue
		}
		require.NoError(t, err)
		sum += l
		used++
		pairs += p
	}
	return sum / float64(used), pairs
}

// classIndices returns the indices of the positives and of the negatives, in input order.
func classIndices(labels []float64) (pos, neg []int) {
	for k, y := range labels {
		if y == 1 {
			pos = append(pos, k)
		} else {
			neg = append(neg, k)
		}
	}
	return pos, neg
}

// bruteSplit computes the Hoeffding split of the matrix h[i][j] from its definition.
func bruteSplit(h [][]float64) (mean, varPos, varNeg, varRes float64) {
	p, n := len(h), len(h[0])
	for i := range h {
		for j := range h[i] {
			mean += h[i][j]
		}
	}
	mean /= float64(p * n)
	row, col := make([]float64, p), make([]float64, n)
	for i := range h {
		for j := range h[i] {
			row[i] += h[i][j] / float64(n)
			col[j] += h[i][j] / float64(p)
		}
	}
	for i := range row {
		varPos += (row[i] - mean) * (row[i] - mean) / float64(p)
	}
	for j := range col {
		varNeg += (col[j] - mean) * (col[j] - mean) / float64(n)
	}
	for i := range h {
		for j := range h[i] {
			r := h[i][j] - row[i] - col[j] + mean
			varRes += r * r / float64(p*n)
		}
	}
	return mean, varPos, varNeg, varRes
}

// near fails unless |got − want| ≤ tol·max(1, |want|).
func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	require.LessOrEqual(t, math.Abs(got-want), tol*math.Max(1, math.Abs(want)), "%s = %.17g, want %.17g (tolerance %g)", what, got, want, tol)
}

// asFloats returns class indices as the float64 labels of a rocops.Classes task.
func asFloats[T int | float64](ys []T) []float64 {
	out := make([]float64, len(ys))
	for i, y := range ys {
		out[i] = float64(y)
	}
	return out
}

// labelTask is the task of k label columns: rocops.Labels(k), and for one column the binary
// task, which is the task of one label per row.
func labelTask(k int) rocops.Task {
	if k == 1 {
		return rocops.Task{}
	}
	return rocops.Labels(k)
}

// classCmp is the comparisons of k classes by method, one-vs-rest or one-vs-one.
func classCmp(k int, method metrics.Method) diagnose.Comparisons {
	return diagnose.Comparisons{Task: rocops.Classes(k), OvO: method == metrics.OvO}
}

// labelCmp is the comparisons of k label columns (the binary task's one for k = 1).
func labelCmp(k int) diagnose.Comparisons { return diagnose.Comparisons{Task: labelTask(k)} }

// The binary diagnostics: the zero Comparisons, whose one comparison is the whole batch.
var binary diagnose.Comparisons

// binMisranking is the misranking of the binary task.
func binMisranking(scores, labels []float64) (float64, error) {
	_, v, err := binary.Misranking(scores, labels)
	return v, err
}

// binSevereMass is the severe mass π_M of the binary task.
func binSevereMass(scores, labels []float64, m float64) (float64, error) {
	_, v, err := binary.SevereMass(scores, labels, m)
	return v, err
}

// binCEBound is the cross-entropy bound B_M of the binary task.
func binCEBound(scores, labels []float64, m float64) (float64, error) {
	_, v, err := binary.CEBound(scores, labels, m)
	return v, err
}

// binWeightShares is the relative gradient weights of the binary task.
func binWeightShares(scores, labels []float64, cfg pairwise.Config, edges []float64) ([]float64, error) {
	_, v, err := binary.WeightShares(scores, labels, cfg, edges)
	return v, err
}

// binSevereDirection is the severe direction of the binary task.
func binSevereDirection(model nn.Model, x, labels []float64, cfg pairwise.Config, m float64) (diagnose.Direction, error) {
	return binary.SevereDirection(model, x, labels, cfg, m)
}

// binProject is the Split of the one comparison of the binary task.
func binProject(scores, labels, p []float64, cfg pairwise.Config) (diagnose.Split, error) {
	s, err := binary.Project(scores, labels, p, cfg)
	if err != nil {
		return diagnose.Split{}, err
	}
	return s[0].Split, nil
}
