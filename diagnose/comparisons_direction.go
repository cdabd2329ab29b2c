package diagnose

import (
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// SevereDirection returns the steepest correction direction of the severe pairs of a selection
// batch, for a model of K = Task.K() outputs over the binary comparisons γ of cs (see
// [Comparisons]): with S_γ the severe pairs of γ, its positives i and negatives j whose margin
// s_ic − s_jc on γ's column c is below −M at the current parameters θ (S_γ held fixed), and Γ
// the comparisons with S_γ ≠ ∅, it returns V = −∇θ L_M/‖∇θ L_M‖ and the norm of
//
//	L_M(θ) = (1/|Γ|) Σ_{γ∈Γ} (1/|S_γ|) Σ_{(i,j)∈S_γ} ℓ(s_ic(θ) − s_jc(θ)),
//
// the mean over the comparisons of the binary severe-pair loss, as the pairwise loss of k
// classes or labels is the mean of the binary losses (pairwise.Config; Chen et al., "Pairwise
// AUC Optimization Needs Corrective Power", arXiv 2610.21743, §2 and appendix C.1, aggregate
// over the binary comparisons). For the binary task Γ is the one comparison and L_M the mean
// surrogate loss over its severe pairs. Moving θ along V decreases L_M at the rate Norm;
// Direction.Severe is Σ_γ |S_γ|. ℓ is cfg's surrogate and M = m > 0 the severity.
//
// x holds the rows of labels (n rows: len(labels) for the binary and Classes tasks,
// len(labels)/k for Labels(k)), model.InputSize() features each, row-major. The gradient comes
// from an ordinary Gorgonia graph and gorgonia.Grad: the cost Σ c·s with c = ∂L_M/∂s at θ has
// the same gradient in θ. The norm is formed on the gradient divided by a power of two near its
// largest entry, so that it is found whenever it is within float64's range. Finding S_γ visits
// every pair, O(Σ_γ n₊n₋): keep selection batches to a few thousand rows.
//
// Errors: ErrNoSevere when no comparison has a severe pair or L_M has a zero gradient; those of
// [Comparisons] for the model's scores and labels (also when the model does not give K scores
// per row: rocops.ErrLength); rocops.ErrConfig for a bad severity, surrogate or partial-AUC
// cut; nn.ErrInput for x; rocops.ErrRange when an entry of the gradient or its norm is beyond
// float64's range.
func (cs Comparisons) SevereDirection(model nn.Model, x, labels []float64, cfg pairwise.Config, m float64) (Direction, error) {
	if err := cs.Validate(); err != nil {
		return Direction{}, err
	}
	if cs.Task.Kind() == rocops.Binary {
		return binarySevereDirection(model, x, labels, cfg, m)
	}
	k := cs.Task.K()
	return severeDirection(model, x, len(labels)/cs.Task.LabelsPerRow(), k, func(scores []float64) comparer {
		return cs.comparer(scores, labels)
	}, cfg, m)
}

// severeDirection is Comparisons.SevereDirection over the comparisons of rows rows of x, which
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

// Project returns, for every binary comparison γ of cs (see [Comparisons]) in their order (by
// class, then by the class compared with), the Split of the projected pair term
//
//	h(i, j) = w(s_ic − s_jc)·(p_ic − p_jc)
//
// over γ's positives i and negatives j on its column c, each class in input order, where
// w = −ℓ′ is the weight of cfg's surrogate (pairwise.Weight) and the tangents p (row-major n×K,
// p_ic = ⟨∇θ s_ic, v⟩, from ScoreTangents on a model of K outputs) are the scores' derivatives
// along a direction v in parameter space. A comparison's pairwise loss L = mean ℓ(x_ij) has
// directional derivative ⟨∇θ L, v⟩ = −mean h, so a gradient step θ ← θ − η∇L moves along v by
// η·Split.Mean, and a mini-batch step by η times the batch mean of h, whose variance is
// Split.BatchVariance. The pairwise loss of the task, the mean of the comparisons' binary
// losses, therefore has directional derivative −(mean over γ of Split.Mean) along v. For the
// binary task it is one ComparisonSplit. cfg.Pairs and cfg.Seed are ignored. Cost: 2·n₊n₋
// evaluations of w a comparison, O(n) memory.
//
// Errors: those of [Comparisons] for scores and labels; rocops.ErrLength when tangents and
// scores differ in length; rocops.ErrNonFinite for a NaN or infinite tangent, or a weight or
// difference of tangents that overflows; rocops.ErrConfig for a bad cfg or a partial-AUC cut;
// those of Hoeffding for the sizes and rocops.ErrRange for a result beyond float64's range,
// naming the comparison.
func (cs Comparisons) Project(scores, labels, tangents []float64, cfg pairwise.Config) ([]ComparisonSplit, error) {
	if err := cs.Validate(); err != nil {
		return nil, err
	}
	if cs.Task.Kind() == rocops.Binary {
		s, err := binaryProject(scores, labels, tangents, cfg)
		if err != nil {
			return nil, err
		}
		return []ComparisonSplit{{Comparison: Comparison{Other: -1}, Split: s}}, nil
	}
	return project(scores, cs.Task.K(), tangents, cs.comparer(scores, labels), cfg)
}

// project is Comparisons.Project over the comparisons of each.
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
		s, err := binaryProject(f, y, p, cfg)
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
