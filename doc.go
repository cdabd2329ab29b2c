// Package rocops trains classifiers for the ROC operating point they are deployed at.
//
// The module's packages, in the order data flows through them:
//
//   - data: CSV and Parquet loading (0/1, class-name or class-number labels), the embedded WDBC
//     data, stratified splits, standardisation.
//   - nn: scoring models (MLP with one or k outputs, the linear scorer among them),
//     initialisation, the direct pass, checkpoints.
//   - ops/kdequantile: the KDE-quantile loss — the smoothed false-negative rate at a target
//     false-positive rate α — as Gorgonia ops with an exact, stable backward pass.
//   - ops/pairwise: pairwise AUC surrogates (logistic, exponential, square, hinge, squared
//     hinge) with exact all-pairs algorithms in O(n) or O(n log n), unbiased sampled pairs,
//     one-way and two-way partial AUC, and multi-class and multi-label averages.
//   - ops/aucm: the AUC-M loss of Deep-AUC (Yuan et al., ICCV 2021), its a, b, α as nodes.
//   - ops/crossentropy: binary and softmax cross-entropy on logits, as ops beside the ROC losses.
//   - graph, graph/gradcheck: graph inputs and runs, and a numerical gradient checker for any
//     Gorgonia graph, including graphs with custom ops.
//   - train: the trainer (batching with every class in every batch, the one Loss contract of
//     every task, recipes as phases with a cross-entropy warm-up or fine-tuning, the registry of
//     their names, early stopping, hooks).
//   - optim: the optimisers the trainer steps with, PESG and its state file included.
//   - metrics: AUC, partial AUC, TPR at FPR, ROC, DeLong's intervals and tests, the bootstrap;
//     a Curve that ranks the scores once, or reads counts per distinct score, and reads every
//     figure off it; the AUC of k classes or labels; the Neyman–Pearson threshold.
//   - diagnose: the corrective-power diagnostics of pairwise training, binary and per class.
//   - experiment: what the comparisons share: the recipe × learning-rate search over seeds,
//     the split, measuring a model once into every test figure, summaries over seeds.
//   - deploy: the deployable artifact — a model and its operating point saved as one unit,
//     loaded with every part checked, and rows scored in a stream.
//   - cmd/roctrain: train and compare losses on a CSV or the embedded data; cmd/bench: the
//     benchmark report; cmd/corrective: the corrective-power experiments; cmd/docplots: the
//     docs' weight plot.
//   - beam/ (a module of its own, github.com/rocops/rocops/beam): rocbeam, scoring with a
//     deployed model and exact evaluation at scale on Apache Beam.
//   - internal/...: what the packages share (batch validation, the op adapter, float
//     helpers, the worker pool, atomic writes, plot helpers, the embedded data).
//
// This package holds what every other shares: the [Task] (binary, k classes or k labels),
// which fixes the shape of every batch of scores and labels, and the one error vocabulary for
// such batches ([ErrLength], [ErrOneClass] and the rest) with [ErrRange] and [ErrConfig]. Its
// example is the minimal program the README points to.
package rocops
