// Package train fits a scoring model (package nn) to labelled data (package data) with any of
// the module's losses, and keeps the weights that score best on validation data.
//
// A Trainer runs epochs of fixed-size batches. Every batch holds a set number of positives
// and negatives — Config.PositiveFraction of the batch, by default the training data's own
// share, and never fewer than one of each, because the ROC losses need both classes. Each
// class is drawn in a fresh random order per pass; a class that runs out is reshuffled and
// drawn again, so a rare class is oversampled instead of leaving batches without positives
// (LibAUC's DualSampler works the same way).
//
// Every loss is a [Loss]: one contract for every task and both training steps, with binary data
// the task of one output (rocops.Task). The package's losses are CrossEntropy (on logits: the
// binary, softmax or per-label cross-entropy of the data's task), KDE (the KDE-quantile loss at
// a false-positive rate α, package kdequantile; binary data only), Pairwise (the pairwise AUC
// surrogates of package pairwise, one-vs-rest, one-vs-one or label-wise on k classes or
// labels), AUCM (the AUC-M loss of Deep-AUC, trained with PESG) and Weighted sums of them. A
// loss of your own implements the same four methods (docs/adding-a-loss.md).
//
// # Recipes
//
// A [Recipe] is a list of [Phase]s trained one after the other, each with its loss, epochs,
// learning-rate scale, batches and negative pool: Plain is one phase; WithWarmup runs
// cross-entropy first (Chen et al., arXiv 2610.21743: pairwise training started from a
// cross-entropy solution has few severely misranked pairs and keeps its corrective power);
// FineTune trains cross-entropy to its best validation epoch and then a second loss from there
// at a smaller learning rate, keeping the second phase only when it improves the validation
// metric (KeepIfBetter); Anneal trains the KDE loss over shrinking bandwidths. KDERecipe, the
// FineTune of the KDE loss, is the default way to train the KDE loss ("kde" in cmd/roctrain;
// "kde-plain" is the loss alone): the plain loss gives no gradient to positives far below its
// threshold and can starve or fall behind cross-entropy, while the recipe starts from
// cross-entropy and cannot end below it on validation. docs/results.md compares the three on
// real and synthetic tasks. [Names] reads the names of the registry [Recipes], as
// cmd/roctrain's -losses, cmd/results and cmd/corrective spell them, with options such as
// "kde:pool=1024" (more negatives per batch, so that the KDE loss's threshold rests on more of
// them) and the "+wu" warm-up suffix.
//
// After every epoch the model is scored on the validation data with Config.Metric (AUC,
// PartialAUC, TPRAtFPR, or TNRAtTPR for the mirrored KDE loss). The weights of the best epoch of
// the main phase are kept and put back at the end of Fit — also when Fit fails part-way, so an
// error never loses the best model — and Config.Patience stops training when the metric has not
// improved for that many epochs. Hooks observe every step and epoch and can stop training.
//
// # Multi-class and multi-label training
//
// A dataset with Classes (data.Dataset: Y holds each row's class index 0…k−1) trains a model of
// k outputs (nn.MLPConfig.Outputs = k) on any loss with a form for k classes: CrossEntropy (the
// softmax cross-entropy), Pairwise (a surrogate over the one-vs-rest comparisons, or with
// Config.OvO the ordered one-vs-one pairs) or AUCM (one-vs-rest). A dataset with Labels (Y a
// Rows×k 0/1 indicator) trains CrossEntropy (per-label sigmoid), Pairwise (the surrogate on
// every label column) or AUCM. The trainer hands the loss the task, the (B, k) score matrix to
// Build and the B·k scores to ValueGradInto. Every multi-class batch holds every class: one row of
// each plus the rest of the batch shared in the data's proportions (largest remainder), each
// class drawn in its own random order and reshuffled when used up, so a class of fewer rows
// than the epoch's batches ask of it is resampled, never left out. Every multi-label batch
// holds a positive and a negative of every label, the rest drawn from all rows. The metric is
// the validation macro AUC: AUC (the zero Metric) means MacroAUC(metrics.OvR), and
// MacroAUC(metrics.OvO) is Hand and Till's M; multi-label data takes the mean label-column AUC.
// After a softmax cross-entropy epoch it ranks the softmax probabilities of the model's outputs,
// after any other the outputs themselves (see Metric), and History.Probabilities says which the
// kept weights are scored on. Config.Diagnose runs over the binary comparisons of the trained
// loss, or the label columns (see Diagnose). Fit refuses, before any step, a model of another
// number of outputs, a loss or metric without a form for the task (Loss.Check) and the
// binary-only settings PositiveFraction and NegativePool ([ErrTask]), and a class without
// training or validation rows, a label column of one class, or a batch smaller than k (2k for
// labels) ([ErrClasses]).
//
// # Corrective-power diagnostics
//
// Config.Diagnose measures, every few epochs, whether pairwise training still corrects its
// worst mistakes (package diagnose, docs/diagnostics.md): the misranking ratio, the
// severe-misranking mass π_M and its cross-entropy bound on a logging pool of training rows,
// and the drift and the Hoeffding split of the mini-batch noise along the severe-error
// direction of a separate selection batch. History.Diagnoses holds one Diagnosis per
// diagnosed epoch. With Diagnose.Intervene, a main-phase diagnosis whose errors and corrective
// motion stopped improving and whose drift and first-order noise are weak next to the run's
// own best triggers a few cross-entropy epochs (Stage Intervention) and a recheck; every
// decision is recorded with its reason.
//
// # Keeping the score scale bounded
//
// The KDE loss with batch-chosen bandwidths is invariant to shifting and scaling all scores,
// so nothing in it holds the scale of the scores: training can grow the weights without
// bound. Use weight decay (Config.WeightDecay, decoupled, on weight matrices), a
// cross-entropy warm-up, early stopping, or fixed bandwidths (kdequantile.Config.V0 and V1),
// which fix the scale the kernels resolve.
//
// # AUC-M and PESG
//
// [AUCM] is the loss of Deep-AUC (Yuan et al., ICCV 2021): the AUC-M loss of package aucm
// trained with [optim.PESG], LibAUC's optimiser, on the model's weights and the loss's auxiliary a,
// b and α, through the trainer's batches, validation and hooks. Its PESG step replaces the
// trainer's optimiser for that loss only; [optim.PESGState] is the state it trains besides the
// weights.
//
// # The training step
//
// An nn.MLP (the linear scorer included) trained on a loss with a form on slices (every loss of
// the package, and a loss of your own whose ValueGradInto does not answer ErrNoDirect) takes a
// direct step: an nn.Pass computes the scores and, from the loss's gradient with respect to
// them, the parameter gradients with BLAS products into buffers allocated once (no graph, no
// machine, no gradient for the input rows), and the loss is computed on slices, value and
// gradient in one call. Other models and losses are compiled into a Gorgonia graph of the
// model and Loss.Build, differentiated by gorgonia.Grad, about 1.4–1.7 times slower for nn's
// networks. Both update the weights with the
// same optimiser, written in place with Gorgonia's update rules (it reproduces Gorgonia's
// solvers to the bit), and both give the same losses and gradients to float rounding.
// docs/benchmarks.md times them against each other and the step's matrix products alone.
//
// Training is deterministic: the same model initialisation, data, Config and Seed give a
// bit-identical History and identical weights, wherever the parameters are allocated, with
// one exception: a float32 model through the graph step under gonum's BLAS, whose gradients
// through a layer of 4 or more units above another can depend on where that layer's weights
// start within 16 bytes (docs/benchmarks.md, "The float32 step"); such runs agree to float32
// rounding, and bit for bit when the parameters sit at the same offsets.
package train
