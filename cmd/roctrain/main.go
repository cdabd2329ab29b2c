// Command roctrain trains scorers with several losses on one data set and compares them where
// they will be deployed: at a false-positive rate α.
//
// With no flags it trains a multilayer perceptron (30→64→1) on the embedded Breast Cancer
// Wisconsin (Diagnostic) data with cross-entropy, the KDE-quantile loss at α = 0.1, and the
// squared-hinge pairwise AUC loss both directly and after a cross-entropy warm-up; prints a
// table of held-out AUC, partial AUC up to α, true-positive rate at false-positive rate α and
// training time; and draws the ROC curves of every run into roc.png.
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
//	-losses list     comma-separated runs: ce, kde, logistic, exp, square, hinge, sqhinge;
//	                 a "+wu" suffix runs the loss after -warmup epochs of cross-entropy
//	                 (default "ce,kde,sqhinge,sqhinge+wu")
//	-warmup n        cross-entropy warm-up epochs of the "+wu" runs (default 10)
//	-epochs n        epochs of each run's loss (default 60)
//	-hidden list     hidden layer sizes of the MLP, "" for a linear scorer (default "64")
//	-lr list         learning rates tried per run; validation picks one (default "0.001,0.003,0.01")
//	-batch n         rows per step (default 128)
//	-seed n          seed of the split, the initialisation and the batches (default 1)
//	-plot path       PNG of the ROC curves, "" for none (default "roc.png")
//	-out dir         save each run's best model to dir/<run>.params
//	-json            print one JSON object with the results, and nothing else, on stdout
//
// Every run starts from the same initial weights, sees the same batches and is tuned the
// same way: each learning rate in -lr is trained and the epoch and learning rate with the
// best validation partial AUC up to α are kept (untuned comparisons between losses mislead).
// The data is split 60/20/20 into training, validation and test parts, stratified by label,
// and standardised with the training part's statistics. Figures are those of the test part.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
