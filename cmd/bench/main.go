// Command bench measures rocops's ops and training step against what a Go user would otherwise
// write and against the physical floor, and writes the benchmark report with its scaling plots.
//
//	go run ./cmd/bench -clock cpu -out docs/bench -doc docs/benchmarks.md   # the report in the docs
//	go run ./cmd/bench -quick                                                 # a fast look, Markdown on stdout
//	go run ./cmd/bench -quick -json                                           # the figures as JSON
//	go run -tags openblas ./cmd/bench -quick                                  # with the system's OpenBLAS
//
// For every size n of -n (default 2^10 … 2^20) it times, on batches of n scores with 10%
// positives (negatives N(0, 1), positives N(1.5, 1)):
//
//   - the KDE-quantile loss at α = 0.05: kdequantile.Gradient, and the kdequantile.Loss op
//     forward and backward in a graph through a TapeMachine;
//   - the five pairwise surrogates: pairwise.Gradient exact (all pairs) and sampled
//     (Pairs = 4n), and the pairwise.Loss op forward and backward in a graph;
//   - the metrics AUC, ROC and DeLong (with its variance) of metrics;
//   - the naive baselines a Go user would write from Gorgonia primitives: the KDE loss as
//     sigmoids in a graph with τ found by bisection outside it, and each pairwise loss as the
//     |B1|×|B0| broadcast matrix of margins;
//   - the floors: one pass of n logistic sigmoids, and a sort of n float64s.
//
// It also times training (train.Trainer.Fit, examples per second) of an MLP 30→64→1 with
// cross-entropy, the KDE loss, squared hinge and logistic at the batch sizes of -batch, against
// the floor of the step's matrix products at the BLAS in use, and records the heap each op
// allocates in one cold call (including building its graph), an upper bound on its peak heap.
//
// Both the wall time and the processor time of every call are measured; -clock (wall, the
// default, or cpu: the process's processor time summed over its threads, steadier on a shared
// machine) picks the one the report's tables, plots and ratios show.
//
// Every figure is the median of -repeats repeats, each timing enough calls to last -min; the
// repeats of all kernels at one n are interleaved, so that ratios taken within one run compare
// kernels measured under the same load. A kernel whose next size would exceed -time-budget per
// call or -mem-budget of heap (predicted from its last size and its cost's growth in n) is
// stopped there, and the report says so.
//
// Output: without -out and -json, the Markdown report on standard output. -out dir writes
// dir/README.md, dir/figures.json and the PNG plots; -doc file replaces the part of file
// between the markers "<!-- BEGIN cmd/bench -->" and "<!-- END cmd/bench -->" with the
// report, its links pointing at dir. -json prints the figures on standard output. A progress
// line goes to standard error. -from figures.json renders a former run's report and plots
// again without measuring (after a change to the report's layout, say).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return
	case err != nil:
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
