package diagnose

import (
	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// The multi-label diagnostics run the binary diagnostic on every label column: scores and
// labels are row-major n×k (s_ic = scores[i·k + c], Y_ic = labels[i·k + c] ∈ {0, 1}), and with
// D(f, P, N) as in the multi-class diagnostics (see [MulticlassMisranking]), label c's value is
//
//	D_c = D(s_·c, {i : Y_ic = 1}, {i : Y_ic = 0}),
//
// one comparison per column over all n rows, and the macro value is (1/k) Σ_c D_c: the
// comparisons of metrics.MultilabelAUC and of package pairwise on a Labels task, so the macro
// MultilabelMisranking is 1 − the macro label-wise AUC. Cost: k binary diagnostics on n rows.
//
// Errors: len(scores) or len(labels) not n·k, or k < 1 (rocops.ErrLength); no rows (rocops.ErrEmpty); a NaN
// or infinite score (rocops.ErrNonFinite); a label other than 0 or 1 (rocops.ErrLabel); a column of one
// class (rocops.ErrNoPositives or rocops.ErrNoNegatives, naming the column); and the binary diagnostic's own,
// naming the column.

// MultilabelMisranking returns [Misranking] of each label column and their macro mean (see the
// multi-label diagnostics above).
func MultilabelMisranking(scores []float64, k int, labels []float64) (perLabel []float64, macro float64, err error) {
	return scalarComparisons(labelComparer(scores, k, labels), k, Misranking)
}

// MultilabelSevereMass returns [SevereMass] π_M at severity m of each label column and their
// macro mean (see [MultilabelMisranking]).
func MultilabelSevereMass(scores []float64, k int, labels []float64, m float64) (perLabel []float64, macro float64, err error) {
	if err := checkSeverity(m); err != nil {
		return nil, 0, err
	}
	return scalarComparisons(labelComparer(scores, k, labels), k, func(f, y []float64) (float64, error) {
		return SevereMass(f, y, m)
	})
}

// MultilabelCEBound returns [CEBound] B_M at severity m of each label column and their macro
// mean (see [MultilabelMisranking]); π_M ≤ B_M column by column and for the means.
func MultilabelCEBound(scores []float64, k int, labels []float64, m float64) (perLabel []float64, macro float64, err error) {
	if err := checkSeverity(m); err != nil {
		return nil, 0, err
	}
	return scalarComparisons(labelComparer(scores, k, labels), k, func(f, y []float64) (float64, error) {
		return CEBound(f, y, m)
	})
}

// MultilabelWeightShares returns [WeightShares] ρ of each label column, one share per margin
// interval of edges, and their macro mean over the columns whose share is a number (see
// [MultilabelMisranking] and [MulticlassWeightShares]).
func MultilabelWeightShares(scores []float64, k int, labels []float64, cfg pairwise.Config, edges []float64) (
	perLabel [][]float64, macro []float64, err error) {
	if _, err := margin(cfg); err != nil {
		return nil, nil, err
	}
	if err := checkEdges(edges); err != nil {
		return nil, nil, err
	}
	return comparisons(labelComparer(scores, k, labels), k, func(f, y []float64) ([]float64, error) {
		return WeightShares(f, y, cfg, edges)
	})
}

// MultilabelSevereDirection is [MulticlassSevereDirection] over the label columns (see
// [MultilabelMisranking]): the steepest-descent direction of the mean over the columns with a
// severe pair of each column's severe-pair loss, for a model of k outputs. labels is the
// row-major n×k indicator of the n rows of x.
func MultilabelSevereDirection(model nn.Model, x []float64, k int, labels []float64, cfg pairwise.Config, m float64) (Direction, error) {
	if k < 1 {
		return Direction{}, check.Errorf(pkg, rocops.ErrLength, "k = %d label columns", k)
	}
	return severeDirection(model, x, len(labels)/k, k, func(scores []float64) comparer {
		return labelComparer(scores, k, labels)
	}, cfg, m)
}

// MultilabelProject is [MulticlassProject] over the label columns (see [MultilabelMisranking]):
// the Split of each column's projected pair term, in column order, whose mean drift is the
// rate −⟨∇θ L, v⟩ of the multi-label pairwise loss (package pairwise on a Labels task).
func MultilabelProject(scores []float64, k int, labels, tangents []float64, cfg pairwise.Config) ([]ComparisonSplit, error) {
	return project(scores, k, tangents, labelComparer(scores, k, labels), cfg)
}

// labelComparer validates k-label input and calls f for every label column, over all rows.
func labelComparer(scores []float64, k int, labels []float64) comparer {
	return func(f func(cmp Comparison, rows []int, s, y []float64) error) error {
		if _, err := check.Multilabel(pkg, scores, k, labels, true); err != nil {
			return err
		}
		n := len(labels) / k
		rows, s, y := make([]int, n), make([]float64, n), make([]float64, n)
		for i := range rows {
			rows[i] = i
		}
		for c := range k {
			for i := range n {
				s[i], y[i] = scores[i*k+c], labels[i*k+c]
			}
			cmp := Comparison{Class: c, Other: -1, label: true}
			if err := f(cmp, rows, s, y); err != nil {
				return wrapComparison(err, cmp)
			}
		}
		return nil
	}
}
