package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/rocops/rocops/data"
)

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
	work := experiment
	if opt.predict != "" {
		work = predict
	}
	if err := work(ctx, opt, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "roctrain:", strings.TrimPrefix(err.Error(), "roctrain: ")) // one prefix
		return 1
	}
	return 0
}

// dataset is the loaded data, before any split.
type dataset struct {
	name  string // "embedded WDBC" or the CSV's path
	all   *data.Dataset
	parts [3]int // rows of the training, validation and test parts (the same for every seed)
}

func loadData(o *options) (*dataset, error) {
	if o.data == "" {
		ds, err := data.WDBC()
		return &dataset{name: "embedded WDBC", all: ds}, err
	}
	ds, err := data.LoadCSV(o.data, data.CSVConfig{Label: o.label})
	return &dataset{name: o.data, all: ds}, err
}

// split is one seed's prepared data: standardised training, validation and test parts.
type split struct {
	seed             uint64
	train, val, test *data.Dataset
	std              data.Standardizer // fitted on the training part
}

// splitData splits the data 60/20/20, stratified by label, with the given seed, and
// standardises every part with the training part's statistics.
func splitData(ds *dataset, seed uint64) (*split, error) {
	s := &split{seed: seed}
	var err error
	if s.train, s.val, s.test, s.std, err = data.SplitStandardized(ds.all, data.SplitConfig{Seed: seed}); err != nil {
		return nil, err
	}
	return s, nil
}

// experiment trains every run on every seed and reports the results. A run that fails on a
// seed is named on stderr and everything else is still reported; the command then exits with
// status 1. An interrupt or SIGTERM stops training and reports the runs finished before it.
func experiment(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	if err := checkOutputs(o); err != nil {
		return err
	}
	ds, err := loadData(o)
	if err != nil {
		return err
	}
	var (
		perRun = make([][]seedResult, len(o.runs)) // perRun[r]: run r's successful seeds
		failed []error
		prog   = newProgressLine(o, stderr)
	)
seeds:
	for _, seed := range o.seedList() {
		sp, err := splitData(ds, seed)
		if err != nil {
			return err
		}
		ds.parts = [3]int{sp.train.Rows, sp.val.Rows, sp.test.Rows}
		var first *seedResult // the first run of -losses on this seed, when it succeeded
		for r, spec := range o.runs {
			prog.start(seed, spec.name)
			res, err := runOnce(ctx, o, sp, spec, stderr)
			prog.finish()
			if err == nil && r > 0 && first != nil {
				res.TestAUCVsFirst, err = compareAUC(&res, first, sp.test.Y)
			}
			if err != nil {
				failed = append(failed, fmt.Errorf("run %s, seed %d: %w", spec.name, seed, err))
				if ctx.Err() != nil {
					break seeds
				}
				continue
			}
			if r == 0 {
				first = &res
			}
			perRun[r] = append(perRun[r], res)
			perRun[r][len(perRun[r])-1].testScores = nil // only the first run's are needed
		}
	}
	results := summarise(o, perRun)
	if len(results) > 0 {
		if err := report(o, ds, results, stdout); err != nil {
			failed = append(failed, err)
		}
	}
	return errors.Join(failed...)
}

// checkOutputs makes -out and checks that -out and the directory of -plot take new files,
// so that a bad output path fails before training rather than after it: each gets a
// temporary file, removed at once; -plot (and its diagnostics PNG) must not be a directory.
func checkOutputs(o *options) error {
	if o.out != "" {
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return fmt.Errorf("-out: %w", err)
		}
		if err := probeDir(o.out); err != nil {
			return fmt.Errorf("-out: %w", err)
		}
	}
	if err := checkDistinctFiles(o); err != nil {
		return err
	}
	if o.plot == "" {
		return nil
	}
	paths := []string{o.plot}
	if o.diagnose {
		paths = append(paths, diagnosticsPath(o.plot))
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return fmt.Errorf("-plot: %s is a directory", p)
		}
	}
	if err := probeDir(filepath.Dir(o.plot)); err != nil {
		return fmt.Errorf("-plot %s: %w", o.plot, err)
	}
	return nil
}

// probeDir checks that dir takes a new file by creating and removing one.
func probeDir(dir string) error {
	f, err := os.CreateTemp(dir, ".roctrain-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// report prints the table or the JSON object, then draws the plot, so that a plot that
// cannot be written loses none of the figures.
func report(o *options, ds *dataset, results []result, stdout io.Writer) error {
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Results []result `json:"results"`
		}{results}); err != nil {
			return err
		}
	} else {
		printTable(stdout, o, ds, results)
	}
	if o.plot != "" {
		runs, note := plotted(o, results)
		if err := plotROC(o.plot, runs, o.alpha, note); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
		if o.diagnose {
			if err := plotDiagnostics(diagnosticsPath(o.plot), runs, note); err != nil {
				return fmt.Errorf("-plot: %w", err)
			}
		}
	}
	return nil
}

// plotted picks the runs to draw: those of the first seed the most runs finished (every run,
// unless some failed), and a note naming that seed when there are several.
func plotted(o *options, results []result) ([]seedResult, string) {
	var best []seedResult
	var bestSeed uint64
	for _, seed := range o.seedList() {
		var runs []seedResult
		for _, r := range results {
			for _, s := range r.PerSeed {
				if s.Seed == seed {
					runs = append(runs, s)
				}
			}
		}
		if len(runs) > len(best) {
			best, bestSeed = runs, seed
		}
	}
	if o.seeds == 1 || len(best) == 0 {
		return best, ""
	}
	return best, fmt.Sprintf("seed %d of seeds %d–%d", bestSeed, o.seed, o.seed+uint64(o.seeds)-1)
}

// progressLine tells the user on stderr which seed and run are being trained and how long
// the rest should take — always on a terminal, and otherwise unless -json; the trainer draws
// its own bar for each run.
type progressLine struct {
	w           io.Writer // nil: silent
	total, done int
	begin       time.Time
}

func newProgressLine(o *options, stderr io.Writer) *progressLine {
	p := &progressLine{total: o.seeds * len(o.runs), begin: time.Now()}
	if f, ok := stderr.(*os.File); !o.json || ok && term.IsTerminal(int(f.Fd())) {
		p.w = stderr
	}
	return p
}

func (p *progressLine) start(seed uint64, run string) {
	if p.w == nil {
		return
	}
	left := ""
	if p.done > 0 {
		per := time.Since(p.begin) / time.Duration(p.done)
		left = fmt.Sprintf(", about %v left", (per * time.Duration(p.total-p.done)).Round(time.Second))
	}
	fmt.Fprintf(p.w, "[%d/%d] seed %d: training %s…%s\n", p.done+1, p.total, seed, run, left)
}

func (p *progressLine) finish() { p.done++ }
