// Command roctrain trains scorers with several losses on one data set and compares them where
// they will be deployed: at a false-positive rate α (or a true-positive rate, with -recall).
// Every run is tuned alike by package experiment; the command prints the test figures with
// their intervals and paired comparisons (or one JSON object with -json), draws the ROC
// curves, and with -out saves each model and its deployed threshold through package deploy,
// which -predict applies to new rows. The deployed threshold is the lowest whose validation
// FPR is at most α, or with -confidence 1−δ the Neyman–Pearson umbrella threshold, whose FPR
// on fresh negatives stays at most α with probability 1 − δ (metrics.ThresholdNP).
//
// Bad flags and output paths fail before any training. A run that fails is named on stderr
// and the others are still reported; an interrupt or SIGTERM stops training after the current
// step and reports the runs that finished. The exit status is 0 on success, 1 when anything
// failed or was interrupted, 2 for bad flags.
//
// Usage:
//
//	roctrain [flags]
//
// "roctrain -h" lists the flags; the README's "Quick start" and "Flags and JSON" sections
// show the output, the JSON keys and the deployment files.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"
)

// main stops on an interrupt (Ctrl-C) or SIGTERM alike: training stops after the current
// step and the runs that finished are reported, with status 1.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status (0 success, 1 failure, 2 bad usage).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opt, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "roctrain:", err)
		return 2
	}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		opt.progress = f // the trainer's bar, on a terminal only
	}
	work := compare
	if opt.predict != "" {
		work = predict
	}
	if err := work(ctx, opt, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "roctrain:", strings.TrimPrefix(err.Error(), "roctrain: ")) // one prefix
		return 1
	}
	return 0
}
