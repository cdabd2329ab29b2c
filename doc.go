// Package rocops trains classifiers for the ROC operating point they are deployed at.
//
// The module's packages, in the order data flows through them:
//
//   - train/data: CSV loading, the embedded WDBC data, stratified splits, standardisation.
//   - nn: scoring models (Linear, MLP), initialisation, checkpoints.
//   - ops/kdequantile: the KDE-quantile loss — the smoothed false-negative rate at a target
//     false-positive rate α — as Gorgonia ops with an exact, stable backward pass.
//   - ops/pairwise: pairwise AUC surrogates (logistic, exponential, square, hinge, squared
//     hinge) with exact all-pairs algorithms in O(n) or O(n log n), and unbiased sampled pairs.
//   - train: the trainer (batching with both classes in every batch, cross-entropy warm-up,
//     optimisers, early stopping, hooks); train/metrics: AUC, partial AUC, TPR at FPR, ROC.
//   - graph, graph/gradcheck: graph inputs and a numerical gradient checker for any Gorgonia
//     graph, including graphs with custom ops.
//   - cmd/roctrain: train and compare losses on a CSV or the embedded data.
//
// This package itself holds no code; its example is the README's minimal program.
package rocops
