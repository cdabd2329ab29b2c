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
