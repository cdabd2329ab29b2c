package diagnose

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// MulticlassSevereDirection is [SevereDirection] for a model of k outputs over the binary
// comparisons γ of method (see [MulticlassMisranking]): with S_γ the severe pairs of γ, its
// positives i and negatives j whose margin s_ic − s_jc on γ's column c is below −M, and Γ the
// comparisons with S_γ ≠ ∅, it returns V = −∇θ L_M/‖∇θ L_M‖ of
//
//	L_M(θ) = (1/|Γ|) Σ_{γ∈Γ} (1/|S_γ|) Σ_{(i,j)∈S_γ} ℓ(s_ic(θ) − s_jc(θ)),
//
// the mean over the comparisons of the binary severe-pair loss, as the multi-class pairwise
// loss is the mean of the binary losses (package pairwise on a Classes task; Chen et al., arXiv
// 2610.21743, appendix C.1, aggregate over the binary comparisons). Direction.Severe is
// Σ_γ |S_γ|. x holds len(labels) rows of model.InputSize() features, row-major.
//
// Errors: ErrNoSevere when no comparison has a severe pair or L_M has a zero gradient; those of
// MulticlassMisranking for the model's scores and labels (also when the model does not give k
// scores per row: rocops.ErrLength); ErrSeverity, ErrSurrogate, ErrPartial; nn.ErrInput for x;
// ErrOverflow as SevereDirection. Cost O(Σ_γ n₊n₋) pair visits and one gradient of the model.
func MulticlassSevereDirection(model nn.Model, x []float64, k int, labels []int, method metrics.Method,
	cfg pairwise.Config, m float64) (Direction, error) {
	return severeDirection(model, x, len(labels), k, func(scores []float64) comparer {
		return classComparer(scores, k, labels, method)
	}, cfg, m)
}

// severeDirection is MulticlassSevereDirection over the comparisons of rows rows of x, which
// comparerOf returns for the model's scores.
func severeDirection(model nn.Model, x []float64, rows, k int, comparerOf func(scores []float64) comparer,
	cfg pairwise.Config, m float64) (Direction, error) {
	if err := checkSeverity(m); err != nil {
		return Direction{}, err
	}
	mg, err := margin(cfg)
	if err != nil {
		return Direction{}, err
	}
	if model == nil {
		return Direction{}, fmt.Errorf("%w: nil model", nn.ErrInput)
	}
	if rows == 0 {
		return Direction{}, check.Errorf(pkg, rocops.ErrEmpty, "no rows")
	}
	scores, err := nn.Scores(model, x, rows)
	if err != nil {
		return Direction{}, err
	}
	c := make([]float64, len(scores))
	var parts [][]float64 // each comparison's ∂/∂s of its severe-pair loss, with its rows
	var partRows [][]int
	var cols []int
	severe := 0
	err = comparerOf(scores)(func(cmp Comparison, rs []int, f, y []float64) error {
		g, n := severeScoreGradient(f, y, cfg.Surrogate, mg, m)
		if n > 0 {
			parts, partRows, cols = append(parts, g), append(partRows, append([]int(nil), rs...)), append(cols, cmp.Class)
			severe += n
		}
		return nil
	})
	if err != nil {
		return Direction{}, err
	}
	if severe == 0 {
		return Direction{}, fmt.Errorf("%w: no comparison of the %d rows has a pair of margin below −%v", ErrNoSevere, rows, m)
	}
	inv := 1 / float64(len(parts))
	for p, g := range parts {
		for r, row := range partRows[p] {
			c[row*k+cols[p]] += g[r] * inv
		}
	}
	g, err := weightedScoreGradient(model, x, rows, c)
	if err != nil {
		return Direction{}, err
	}
	return unitDirection(g, severe)
}

// ComparisonSplit is the Split of one binary comparison's projected pair term, with the
// comparison.
type ComparisonSplit struct {
	Comparison
	Split
}

// MulticlassProject returns [Project] of every binary comparison γ of method (see
// [MulticlassMisranking]), in their order (by class, then by the class compared with): the
// Split of h(i, j) = w(s_ic − s_jc)·(p_ic − p_jc) over γ's positives i and negatives j on its
// column c, where tangents p (row-major n×k, p_ic = ⟨∇θ s_ic, v⟩, from ScoreTangents on a
// model of k outputs) are the scores' derivatives along v. The multi-class pairwise loss, the
// mean of the comparisons' binary losses, therefore has directional derivative −(mean over γ of
// Split.Mean) along v. cfg.Pairs and cfg.Seed are ignored.
//
// Errors: those of MulticlassMisranking for scores and labels; rocops.ErrLength when tangents and
// scores differ in length; those of Project, naming the comparison.
func MulticlassProject(scores []float64, k int, labels []int, tangents []float64, method metrics.Method,
	cfg pairwise.Config) ([]ComparisonSplit, error) {
	return project(scores, k, tangents, classComparer(scores, k, labels, method), cfg)
}

// project is MulticlassProject over the comparisons of each.
func project(scores []float64, k int, tangents []float64, each comparer, cfg pairwise.Config) ([]ComparisonSplit, error) {
	if _, err := margin(cfg); err != nil {
		return nil, err
	}
	if len(tangents) != len(scores) {
		return nil, check.Errorf(pkg, rocops.ErrLength, "%d scores, %d projected gradients", len(scores), len(tangents))
	}
	var out []ComparisonSplit
	var p []float64
	err := each(func(cmp Comparison, rs []int, f, y []float64) error {
		p = p[:0]
		for _, r := range rs {
			p = append(p, tangents[r*k+cmp.Class])
		}
		s, err := Project(f, y, p, cfg)
		if err != nil {
			return err
		}
		out = append(out, ComparisonSplit{Comparison: cmp, Split: s})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
