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
// Flags:
//
//	-data file.csv   training data (header row, numeric features, 0/1 label); default: the embedded WDBC data
//	-label name      label column; default: the last column
//	-alpha a         target false-positive rate, 0 < a < 1 (default 0.1)
//	-recall r        target true-positive rate, 0 < r < 1: the KDE runs train the mirrored loss
//	                 (the false-positive rate at recall r), every run is selected on validation
//	                 TNR@TPR=r, and the tables add test FPR@TPR=r (default 0: off)
//	-losses list     comma-separated runs: ce, kde, kde-plain, ce+kde, logistic, exp, square,
//	                 hinge, sqhinge; "kde" is the KDE recipe (cross-entropy, then KDE fine-tuning
//	                 at a tenth of the learning rate, kept only when it improves validation; see
//	                 train.KDERecipe), "kde-plain" the KDE loss alone, "ce+kde" cross-entropy plus
//	                 λ·KDE with λ in {0.1, 0.3, 1, 3} chosen on validation like the learning rate
//	                 (the JSON's chosen_recipe names it). The KDE runs take options after
//	                 colons: tail, widen=w, pool=n (n more negatives per KDE batch), for kde
//	                 also lr=s, batch=n and pos=p of its fine-tuning phase, for ce+kde a fixed
//	                 w=λ; for example kde:pool=1024 or kde-plain:tail (train.ParseRecipe). A
//	                 "+wu" suffix runs a plain loss after -warmup epochs of cross-entropy
//	                 (default "ce,kde,sqhinge,sqhinge+wu")
//	-warmup n        cross-entropy warm-up epochs of the "+wu" runs (default 10)
//	-epochs n        epochs of each run's loss (default 60)
//	-hidden list     hidden layer sizes of the MLP, "" for a linear scorer (default "64")
//	-lr list         learning rates tried per run; validation picks one (default "0.001,0.003,0.01")
//	-batch n         rows per step (default 128)
//	-seed n          seed of the split, the initialisation and the batches (default 1)
//	-seeds n         repeat everything with seeds -seed, -seed+1, …, -seed+n−1 (default 1)
//	-boot n          bootstrap resamples of the pAUC and TPR intervals; 0 for none (default 1000)
//	-plot path       PNG of the ROC curves, "" for none (default "roc.png")
//	-out dir         save each run's best model to dir/<run>.params (dir/<run>.seed<s>.params with -seeds;
//	                 <run> is the -losses name with ":" and "=" as "_", such as kde_pool_1024)
//	-json            print one JSON object with the results, and nothing else, on stdout
//	-predict m       classify the rows of -data with model m saved by -out instead of training
//	-diagnose        record the corrective-power diagnostics of every epoch (docs/diagnostics.md)
//	                 and draw them into <plot>-diagnostics.png beside the -plot file
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
// Deployment: -out dir saves each run's model as dir/<run>.params and beside it
// dir/<run>.json, a versioned operating-point file (format "rocops-operating-point",
// version 1) with the threshold, α, the validation and test rates at it, the feature names,
// the training part's standardisation and the SHA-256 of the model file; both are written
// atomically. "roctrain -predict dir/<run>.params -data new.csv" loads the pair, reads the
// CSV's columns by the feature names (any order; other columns ignored) and prints CSV on
// stdout: row number, the label when the CSV has that column, score, and flag (1 when
// score ≥ threshold); the number flagged goes to stderr.
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
// fails at once. A run that fails is named on stderr and the others are still reported. An
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
