// Package diagnose measures whether pairwise AUC training still corrects its worst mistakes:
// the corrective-power diagnostics of Chen et al., "Pairwise AUC Optimization Needs Corrective
// Power", arXiv 2610.21743. docs/diagnostics.md derives every quantity and proves the
// cross-entropy bound.
//
// # From scores alone
//
// For scores f and 0/1 labels, P the positives and N the negatives, a pair (i, j) ∈ P×N has
// margin x = f_i − f_j; it is misranked when x < 0 and severely misranked when x < −M for a
// severity M > 0.
//
// [Comparisons] is the task as a value (rocops.Task: binary, k classes or k labels, and OvO for
// the one-vs-one pairs of classes; the zero Comparisons is the binary task). Its methods
//
//   - [Comparisons.Misranking]: the share of misranked pairs, ties counting ½ (1 − AUC);
//   - [Comparisons.SevereMass]: π_M, the share of severely misranked pairs;
//   - [Comparisons.CEBound]: (R₊ + R₋)/log(1 + e^{M/2}) with R₊, R₋ the classes' mean
//     cross-entropies of the scores read as logits; always ≥ π_M, so a cross-entropy warm-up
//     that drives the risk down also bounds the severe mass;
//   - [Comparisons.WeightShares]: for margin intervals, each interval's share of the
//     surrogate's total gradient weight w(x) = −ℓ′(x) divided by its share of pairs
//
// measure each binary comparison of the task's row-major n×K scores and float64 labels —
// the one comparison of the binary task, one-vs-rest, the ordered one-vs-one pairs, or each
// label column over all rows — and return each output's mean over its comparisons and the
// macro mean over the outputs. For the binary task both are the comparison's own figure; the
// macro misranking is 1 − the macro AUC of the same task and method (metrics.TaskAUC).
//
// Each comparison is O(n log n) in its rows (one sort and binary searches), without a pair
// matrix, except WeightShares for the logistic surrogate, which visits all pairs.
//
// # Along a direction
//
// [Comparisons.SevereDirection] gives V, the unit steepest-descent direction in parameter
// space of the surrogate loss over the severe pairs of a selection batch. [ScoreTangents]
// projects every example's score gradient on it, p_k = ⟨∇θ f_k, V⟩, exactly by forward mode
// for nn.MLP (the linear scorer included). [Comparisons.Project] forms the pair term
// h(i, j) = w(f_i − f_j)·(p_i − p_j) on an independent logging pool, whose mean is the projected drift (how fast a gradient step moves along V),
// and splits its variance into the first-order parts VarPos, VarNeg (noise ∝ 1/B) and the
// pair interaction VarResidual (noise ∝ 1/B²): [Split], [Split.BatchVariance],
// [Split.FirstOrderShare]. [Hoeffding] does the same for any pair function and [BatchSlope]
// measures the variance's decay with the batch size by resampling.
//
// A run is in a weakly corrective region when severe misrankings persist while the drift and
// the first-order share are small: the mini-batch noise along V then decays like 1/B² and
// escapes take much longer. Comparisons.Project costs O(n₊n₋) on the logging pool: a pool of
// 2000 examples takes milliseconds (BenchmarkProject).
//
// For a model of K outputs, Comparisons.SevereDirection is the direction of the mean over the
// binary comparisons of their severe-pair losses, and Comparisons.Project the Split of every
// comparison's pair term on its column's scores and tangents ([ComparisonSplit]); the mean of
// their drifts is the rate at which the task's pairwise loss moves along V.
//
// # Errors
//
// Bad (scores, labels) input gives the module's shared errors: rocops.ErrEmpty, rocops.ErrLength,
// rocops.ErrNonFinite, rocops.ErrLabel, rocops.ErrNoPositives and rocops.ErrNoNegatives (both match rocops.ErrOneClass).
//
// A bad setting — a severity M that is not finite and positive, interval edges, a surrogate or
// margin pairwise refuses, batch sizes, a Comparisons that does not validate — is
// rocops.ErrConfig naming it. Every function that takes a pairwise.Config uses only its
// Surrogate and Margin and weighs every (positive, negative) pair, so it refuses a partial-AUC
// cut (MaxFPR ≠ 0 or MinTPR ≠ 0) with rocops.ErrConfig naming the cut rather than report the
// full loss's diagnostics for a run that trains the cut one; [CheckSurrogate] gives that error,
// or pairwise's own wrapped in rocops.ErrConfig, for a configuration alone.
//
// Scores and pair terms of any finite magnitude are taken: where a sum or a square would
// leave float64's range on the way to a result that is within it, the computation runs on
// the inputs divided by a power of two near their largest magnitude and scales back. A result
// that is itself beyond the range, or that cancels below its rounding error, is
// rocops.ErrRange, and so are counts past 2^27 of a class or 2^40 pair evaluations (batch sizes
// past 2^20, or more evaluations, are rocops.ErrConfig); no function returns NaN or ±Inf for
// them. [ErrNoSevere] and [ErrDegenerate] are the package's own: a batch that defines no
// correction direction, and batch means that do not vary.
package diagnose
