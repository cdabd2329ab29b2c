// Command roctrain trains scorers with several losses on one data set and compares them where
// they will be deployed: at a false-positive rate α (or a true-positive rate, with -recall).
//
// Every run is tuned the same way (package experiment): the data is split 60/20/20 into
// training, validation and test parts, stratified by label and standardised on the training
// part; each learning rate is trained from the same initial weights on the same batches, and
// the epoch and learning rate with the best validation metric are kept. The command prints a
// table of the test figures with their 95% intervals and each run's paired comparison with the
// first (the mean ± sd over the seeds with -seeds, or one JSON object with -json), draws the
// ROC curves into a PNG, and with -out saves each run's model and its deployed threshold, which
// -predict applies to new rows.
//
// Bad flags (a count past its bound included) and bad output paths (one that cannot be
// written, or that names an input or another output, compared by file identity) fail before
// any training. A run that fails is named on stderr and the others are still reported; an
// interrupt (Ctrl-C) or SIGTERM stops training after the current step and reports the runs
// that finished. The exit status is 0 on success, 1 when anything failed or was interrupted,
// 2 for bad flags.
//
// Usage:
//
//	roctrain [flags]
//
// "roctrain -h" lists the flags, their defaults and the count flags' upper bounds, and under
// -losses every loss name with its options, from train's registry (train.Recipes); the
// README's "Quick start" and "Flags and JSON" sections show the output, the JSON keys and the
// deployment files. -out saves through package deploy, whose documentation gives the on-disk
// guarantee: a reader sees the old model and operating point or the new ones, whenever a save
// is killed.
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
