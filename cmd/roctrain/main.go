// Command roctrain trains scorers with several losses on one data set and compares them where
// they will be deployed: at a false-positive rate α.
//
// With no flags it trains a multilayer perceptron (30→64→1) on the embedded Breast Cancer
// Wisconsin (Diagnostic) data with cross-entropy, the KDE-quantile recipe at α = 0.1, and the
// squared-hinge pairwise AUC loss both directly and after a cross-entropy warm-up; prints a
// table of held-out AUC, partial AUC up to α and true-positive rate at false-positive rate α,
// each with its 95% interval on the test part, the rates a threshold chosen on the validation
// part achieves on the test part ("deployed"), and training time; and draws the ROC curves of
// every run, with the deployed operating points, into roc.png.
//
// Usage:
//
//	roctrain [flags]
//
// The flags and their defaults are listed by roctrain -h; -losses lists there every loss
// name with its options, from train's registry (train.Recipes). The count flags have upper
// bounds, given there too (-epochs and -warmup 100000, -batch 1048576, -seeds 1000, -boot
// 1000000, -hidden 8 layers of 4096 units); past one, or with a -seed whose later repetitions
// would pass 2^64−1, the command stops with status 2 before reading anything.
//
// Every run starts from the same initial weights, sees the same batches and is tuned the
// same way: each learning rate in -lr is trained and the epoch and learning rate with the
// best validation partial AUC up to α (with -recall, TNR at TPR r) are kept (untuned
// comparisons between losses mislead). The deployed threshold below stays the α one.
// The data is split 60/20/20 into training, validation and test parts, stratified by label,
// and standardised with the training part's statistics. Figures are those of the test part.
//
// Intervals: with one seed, each test figure has a 95% interval on the test part: DeLong's
// for the AUC (pROC's method), a stratified percentile bootstrap for pAUC and TPR; and each
// run's AUC is compared with the first run's on the same test rows by DeLong's paired test
// (metrics.DeLongPaired: difference, 95% interval, p-value). With
// -seeds n > 1 each seed has its own split, initialisation and batches; the table shows
// the mean ± sample standard deviation of each figure over the seeds, then each run's paired
// difference from the first run on the same seeds with its 95% paired-t interval, marked *
// where that interval excludes 0. The plot then shows the first seed's curves.
//
// Operating point: for each run the threshold is the lowest score whose false-positive rate
// on the validation part is at most α (metrics.ThresholdAtFPR); "deployed FPR" and "deployed
// TPR" are the rates flagging score ≥ threshold gives on the test part.
//
// Deployment (package deploy): -out dir saves each run's model and its operating point as one
// unit, the sidecar dir/<run>.json (format "rocops-operating-point", version 2: the
// threshold, α, the validation and test rates at it, the feature names, the training part's
// standardisation) naming the content-addressed model file dir/<run>.<hash>.params; a reader
// sees the old pair or the new one whenever a save is killed. "roctrain -predict
// dir/<run>.params -data new.csv" loads and checks the pair (version 1 pairs too), reads the
// CSV by training's rules and its columns by the feature names (any order; other columns
// ignored) and prints CSV on stdout: row number, the label when the CSV has that column,
// score, and flag (1 when score ≥ threshold); the number flagged goes to stderr. It takes no
// other flag but -data, stops between rows on an interrupt, and ends quietly when stdout is
// closed.
//
// JSON (-json): {"results": [...]}, one object per run, with "loss", "warmup_epochs",
// "alpha", "seeds", with -recall "recall" and "test_fpr_at_tpr" (also in "sd",
// "paired_vs_first" and "per_seed"), the test figures "test_auc", "test_pauc", "test_tpr_at_fpr",
// "deployed_test_fpr", "deployed_test_tpr", "train_seconds", "learning_rate", "best_epoch"
// (means over the seeds), "sd" (their sample standard deviations; null for one seed),
// "paired_vs_first" ({"test_auc": {"diff": d, "ci95": [lo, hi]}, …}; null for the first run
// and for one seed), "per_seed" (one single-seed object per seed, with "seed"), and the
// single-split "test_auc_ci95", "test_pauc_ci95", "test_tpr_at_fpr_ci95" ([lo, hi]),
// "test_auc_vs_first" ({"diff": d, "ci95": [lo, hi], "p": p}, DeLong's paired test; null for
// the first run) and "deployed_threshold", which are null when there are several seeds (see per_seed) or
// cannot be computed. With -diagnose each single-seed object also holds "diagnostics": one
// object per epoch of the chosen learning rate's run, {"epoch", "phase", "misranking",
// "severe_mass", "ce_bound", "drift", "var_pos", "var_neg", "var_residual",
// "first_order_share", "severe_pairs"}, measured on a logging pool of training rows along the
// severe-error direction of a separate selection batch (train.Diagnose; null where a value
// is undefined, such as the drift of an epoch without severe pairs).
//
// Failures: the output paths (-plot, -out) are checked before any training, so a bad one
// fails at once; so does an output that names an input or another output (the -data file,
// the -plot PNG, its diagnostics PNG, a model or operating-point file -out writes), compared
// by file identity, not by name. A count flag past its upper bound is a flag error. A run that fails is named on stderr and the others are still reported. An
// interrupt (Ctrl-C) or SIGTERM stops training after the current step and reports the runs
// that finished. The exit status is 0 on success, 1 when anything failed or was
// interrupted, 2 for bad flags.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// main stops on an interrupt (Ctrl-C) or SIGTERM alike: training stops after the current
// step and the runs that finished are reported, with status 1.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
