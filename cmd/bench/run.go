package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// settings are the command's parsed flags.
type settings struct {
	Sizes      []int         `json:"sizes"`
	Batches    []int         `json:"batches"`
	Repeats    int           `json:"repeats"`
	MinTime    time.Duration `json:"min_time_ns"`
	TimeBudget time.Duration `json:"time_budget_ns"`
	MemBudget  int64         `json:"mem_budget_bytes"`
	// EpochRows is the number of examples per timed training epoch: ⌈EpochRows/b⌉ steps of a
	// batch of b rows, at least 4.
	EpochRows int    `json:"epoch_rows"`
	Quick     bool   `json:"quick"`
	Clock     clock  `json:"clock"` // the clock of the report's tables, plots and ratios
	Out       string `json:"-"`
	Doc       string `json:"-"`
	JSON      bool   `json:"-"`
	From      string `json:"-"`
}

const (
	defaultSizes   = "2^10..2^20"
	quickSizes     = "2^10..2^14"
	defaultBatches = "256,1024,4096"
)

func parseSettings(args []string, stderr io.Writer) (settings, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./cmd/bench [flags]   (the package documentation says what it measures)")
		fs.PrintDefaults()
	}
	sizes := fs.String("n", "", "sizes n: a comma-separated list of integers or 2^k, or a range 2^a..2^b of powers of two (default "+defaultSizes+", with -quick "+quickSizes+")")
	batches := fs.String("batch", defaultBatches, "training batch sizes, comma-separated")
	quick := fs.Bool("quick", false, "a fast, rough run: smaller sizes, 3 repeats of at least 10ms, short training epochs")
	repeats := fs.Int("repeats", 0, "repeats per figure (default 5, with -quick 3)")
	minTime := fs.Duration("min", 0, "least time of one repeat (default 50ms, with -quick 10ms)")
	timeBudget := fs.Duration("time-budget", 2*time.Second, "stop a baseline or quadratic op before the size where one call would take longer (on the -clock)")
	memBudget := fs.Float64("mem-budget", 1, "stop a baseline or quadratic op before the size where one call would allocate more GiB")
	out := fs.String("out", "", "directory for README.md, figures.json and the PNG plots")
	doc := fs.String("doc", "", "Markdown file whose part between the cmd/bench markers is replaced by the report (needs -out)")
	asJSON := fs.Bool("json", false, "print the figures as JSON on standard output")
	from := fs.String("from", "", "measure nothing: render the report and plots of this figures.json (a former run's) again, with -out and -doc")
	clk := fs.String("clock", string(wallClock), "what the report's times are: wall (time waited) or cpu (processor time of the process, summed over threads: steadier on a shared machine); both are always measured")
	if err := fs.Parse(args); err != nil {
		return settings{}, err
	}
	if fs.NArg() > 0 {
		return settings{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	s := settings{Quick: *quick, Repeats: *repeats, MinTime: *minTime, TimeBudget: *timeBudget,
		MemBudget: int64(*memBudget * (1 << 30)), Out: *out, Doc: *doc, JSON: *asJSON, Clock: clock(*clk), From: *from}
	if *sizes == "" {
		*sizes = defaultSizes
		if s.Quick {
			*sizes = quickSizes
		}
	}
	var err error
	if s.Sizes, err = parseSizes(*sizes); err != nil {
		return settings{}, fmt.Errorf("-n: %w", err)
	}
	if s.Batches, err = parseSizes(*batches); err != nil {
		return settings{}, fmt.Errorf("-batch: %w", err)
	}
	if s.Repeats == 0 {
		s.Repeats = 5
		if s.Quick {
			s.Repeats = 3
		}
	}
	if s.MinTime == 0 {
		s.MinTime = 50 * time.Millisecond
		if s.Quick {
			s.MinTime = 10 * time.Millisecond
		}
	}
	s.EpochRows = 1 << 16
	if s.Quick {
		s.EpochRows = 0
	}
	switch {
	case s.Repeats < 1:
		return settings{}, fmt.Errorf("-repeats must be at least 1, got %d", s.Repeats)
	case s.MinTime < 0 || s.TimeBudget <= 0:
		return settings{}, errors.New("-min and -time-budget must be positive")
	case !(*memBudget > 0) || math.IsInf(*memBudget, 0):
		return settings{}, fmt.Errorf("-mem-budget must be a positive number of GiB, got %v", *memBudget)
	case s.Clock != wallClock && s.Clock != cpuClock:
		return settings{}, fmt.Errorf("-clock must be wall or cpu, got %q", s.Clock)
	case s.Clock == cpuClock && !cpuAvailable():
		return settings{}, errors.New("-clock cpu: this platform reports no processor time")
	case s.Doc != "" && s.Out == "":
		return settings{}, errors.New("-doc needs -out: the report links the plots written there")
	}
	return s, nil
}

// parseSizes reads "1024,2^12" or "2^10..2^20": sizes of at least 16 (a batch needs both
// classes at 10% positives), in increasing order.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if lo, hi, ok := strings.Cut(part, ".."); ok {
			a, err := parseSize(lo)
			if err != nil {
				return nil, err
			}
			b, err := parseSize(hi)
			if err != nil {
				return nil, err
			}
			if a&(a-1) != 0 || b&(b-1) != 0 || a > b {
				return nil, fmt.Errorf("range %q: want powers of two 2^a..2^b with a ≤ b", part)
			}
			for n := a; n <= b; n *= 2 {
				out = append(out, n)
			}
			continue
		}
		n, err := parseSize(part)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	for i, n := range out {
		if n < 16 || n > 1<<26 {
			return nil, fmt.Errorf("size %d outside [16, 2^26]", n)
		}
		if i > 0 && n <= out[i-1] {
			return nil, fmt.Errorf("sizes must increase: %d after %d", n, out[i-1])
		}
	}
	return out, nil
}

func parseSize(s string) (int, error) {
	if e, ok := strings.CutPrefix(s, "2^"); ok {
		k, err := strconv.Atoi(e)
		if err != nil || k < 0 || k > 40 {
			return 0, fmt.Errorf("bad size %q", s)
		}
		return 1 << k, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n, nil
}

// run is the command: parse args, measure, write the outputs.
func run(args []string, stdout, stderr io.Writer) error {
	s, err := parseSettings(args, stderr)
	if err != nil {
		return err
	}
	if s.From != "" {
		return rerender(s, stdout)
	}
	rep := &report{Settings: s, Env: environment(args)}
	prog := newProgress(stderr)
	if err := measureKernels(rep, prog); err != nil {
		return err
	}
	if err := measureTraining(rep, prog); err != nil {
		return err
	}
	prog.done()
	rep.Env.finish()
	rep.computeRatios()
	return emit(rep, stdout)
}

// emit writes the report's outputs as its settings ask.
func emit(rep *report, stdout io.Writer) error {
	s := rep.Settings
	if s.Out != "" {
		if err := writeOutputs(rep, s.Out, s.Doc); err != nil {
			return err
		}
	}
	if s.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if s.Out == "" {
		_, err := io.WriteString(stdout, rep.markdown(""))
		return err
	}
	return nil
}

// rerender reads the figures of a former run and writes its outputs again; the settings of
// that run are kept but for the outputs.
func rerender(s settings, stdout io.Writer) error {
	b, err := os.ReadFile(s.From)
	if err != nil {
		return err
	}
	var rep report
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("%s: %w", s.From, err)
	}
	rep.Settings.Out, rep.Settings.Doc, rep.Settings.JSON = s.Out, s.Doc, s.JSON
	rep.computeRatios()
	return emit(&rep, stdout)
}

// writeOutputs writes README.md, figures.json and the plots to dir, and splices the report
// into doc when it is set.
func writeOutputs(rep *report, dir, doc string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writePlots(rep, dir); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "figures.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(rep.markdown("")), 0o644); err != nil {
		return err
	}
	if doc == "" {
		return nil
	}
	rel, err := filepath.Rel(filepath.Dir(doc), dir)
	if err != nil {
		return err
	}
	return splice(doc, rep.markdown(filepath.ToSlash(rel)+"/"))
}

// Markers delimiting the generated part of a Markdown file.
const (
	beginMarker = "<!-- BEGIN cmd/bench -->"
	endMarker   = "<!-- END cmd/bench -->"
)

// splice replaces the text between the markers in file with body.
func splice(file, body string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	text := string(b)
	i := strings.Index(text, beginMarker)
	j := strings.Index(text, endMarker)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q … %q section to replace", file, beginMarker, endMarker)
	}
	text = text[:i+len(beginMarker)] + "\n" + body + text[j:]
	return os.WriteFile(file, []byte(text), 0o644)
}
