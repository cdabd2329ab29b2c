// Command results runs the loss comparisons of docs/results.md and prints their tables: each
// recipe tuned alike by package experiment on every task, operating point and seed, one JSON
// line per run in a results log (experiment.Log), then Markdown tables of the means, standard
// deviations and paired differences read from the logs.
//
// Usage:
//
//	results run [flags]                    # binary tasks: one line per task, α, seed and recipe
//	results table [flags] [rows.jsonl …]   # their tables
//	results classes [flags]                # multi-class and multi-label tasks: per task, seed and run
//	results classes-table [flags] [mc.jsonl …]
//
// "results <command> -h" lists a command's flags. A run appends each line to its -out log as
// soon as the run finishes, and a run already in the log is skipped, so an interrupted
// comparison resumes where it stopped, and several commands with one -out add up to one log;
// the lines do not record the number of epochs or the validation metric, so continue a log
// with the flags it was started with. The panel tasks read the CSV files of -panel, the
// development panel (docs/results.md names the sources); the synthetic tasks draw their
// rows from the seed.
//
// The exit status is 0 on success, 1 when a run or a table fails, 2 for bad usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// commands are the command's subcommands by name.
var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) error{
	"run":           runBinary,
	"table":         tableBinary,
	"classes":       runClasses,
	"classes-table": tableClasses,
}

// usage is what a call without a known subcommand prints.
const usage = `usage: results run|table|classes|classes-table [flags] [files]
  run            train the binary comparisons into a results log (-out rows.jsonl)
  table          print the tables of binary logs
  classes        train the multi-class and multi-label comparisons (-out mc.jsonl)
  classes-table  print their tables
"results <command> -h" lists a command's flags.`

// run is the whole command; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || commands[args[0]] == nil {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	err := commands[args[0]](ctx, args[1:], stdout, stderr)
	var bad usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &bad):
		fmt.Fprintln(stderr, "results:", err)
		return 2
	}
	fmt.Fprintln(stderr, "results:", err)
	return 1
}

// usageError is a bad flag or argument, reported with exit status 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// parse parses args with fs, whose errors (a bad flag, -h) are usage errors.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return nil
}
