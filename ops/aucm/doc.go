// Package aucm implements the AUC-M loss of Yuan, Yan, Sonka and Yang, "Large-scale robust
// deep AUC maximization: a new surrogate loss and empirical studies on medical image
// classification", ICCV 2021 (arXiv 2012.03173), the min–max margin loss that LibAUC trains
// with its PESG optimiser, as graph-free functions on slices and as a Gorgonia op.
//
// A batch has raw model scores z_k (logits) and 0/1 labels y_k; B1 = {i : y_i = 1} are its
// positives and B0 = {j : y_j = 0} its negatives. The loss sees h_k = σ(z_k) = 1/(1 + e^{−z_k}),
// the score after a sigmoid, as LibAUC applies it to the model's output, and has three
// auxiliary scalars a, b and α:
//
//	f(h; a, b, α) = E₊[(h − a)²] + E₋[(h − b)²] + 2α(m + E₋[h] − E₊[h]) − α²,
//
// where E₊ and E₋ are the means over B1 and B0 and m > 0 is the margin (Config.Margin, default
// 1). This is the formula LibAUC's AUCMLoss documents (its "v2" form; LibAUC's code for that
// version differs from its own documentation, LibAUC issue #74, and this package follows the
// documentation); a and b track the class means of h, and α the violation of the margin
// between them. Training minimises f over the
// model, a and b and maximises it over α ≥ 0 ([Optimum] is the saddle value for fixed scores).
//
// Every function here takes the raw scores z and applies the sigmoid itself: [Evaluate]
// returns f, [Gradient] ∂f/∂z together with ∂f/∂a, ∂f/∂b and ∂f/∂α, and [Loss] is the graph
// op with z, a, b and α as nodes, so a model's output node feeds it directly. [Gradient]
// reads the batch twice (a check, then one fused pass of sigmoids, class sums and
// derivatives); [Optimum] three times.
//
// a, b and α are given per output column, as slices (nodes for the graph op) of one element
// per column. On k classes or k labels (Config.Task) the loss is applied one-vs-rest, as
// LibAUC's MultiLabelAUCMLoss applies it to k labels: column c of the row-major n×k scores
// against the indicator of class c (or label c), with its own a_c, b_c and α_c, and the mean of
// the k columns' losses. Binary data is the case of one column, computed by the same code.
// docs/aucm.md derives the saddle value and describes the PESG optimiser of package train.
package aucm
