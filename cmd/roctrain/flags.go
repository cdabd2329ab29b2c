package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/stats"
	"github.com/rocops/rocops/train"
	"gorgonia.org/tensor"
)

// options are the command's flags.
type options struct {
	data, label, losses, hidden, lrs, plot, out, predict, dtype string
	positive, missing, valid, test                              string
	lossesChosen                                                string // the task whose default -losses replaced binary data's, "" for none
	alpha, recall, confidence                                   float64
	warmup, epochs, batch, seeds, boot                          int
	seed                                                        uint64
	json, diagnose                                              bool
	progress                                                    io.Writer // the trainer's progress bar: standard error when it is a terminal, else nil (none)
	hiddenSizes                                                 []int
	learningRate                                                []float64
	modelDtype                                                  tensor.Dtype // -dtype parsed
	runs                                                        []runSpec

	// labels are -label's columns when it names several: multi-label data.
	labels []string

	// initPath, freezeFlag and adapter are -init, -freeze and -adapter, arm what they make
	// of every run's model.
	initPath, freezeFlag, adapter string
	arm                           arm
	// given are the flags set on the command line, by name without the dash: given["losses"]
	// leaves no default -losses for the task, given["hidden"] conflicts with -init.
	given map[string]bool
}

// runSpec is one training run: a recipe (a loss, possibly after a cross-entropy warm-up, or
// the KDE recipe).
type runSpec struct {
	name    string         // as given in -losses, such as "sqhinge+wu"
	label   string         // its name everywhere (experiment.RunLabel), such as "sqhinge+wu(10)"
	recipes []train.Recipe // the candidates: validation picks one, as it picks the learning rate
	warmup  int            // the warm-up epochs of a "+wu" run, for the tables
	// rates are the learning rates its search tries in place of -lr's (train.SearchRates: for
	// aucm PESG's); nil = -lr's.
	rates []float64
}

// seedList returns the seeds of the repetitions: -seed, -seed+1, …, -seed+N−1.
func (o *options) seedList() []uint64 {
	s := make([]uint64, o.seeds)
	for k := range s {
		s[k] = o.seed + uint64(k)
	}
	return s
}

// newFlagSet defines the command's flags on opt's fields, the help going to stderr. It is
// the one list of the flags: -h prints it, and the package comment (doc.go) and
// docs/reference.md are generated from it (go test -run TestFlagDocs -update-doc).
func newFlagSet(opt *options, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("roctrain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opt.data, "data", "", "training data: a CSV (header row; numeric or text features, blanks and NA imputed; a 0/1, true/false, two-valued with -positive, or class label) or a .parquet file; with -valid and -test, the training part; default: the embedded WDBC data")
	fs.StringVar(&opt.label, "label", "", "label column (0/1 or true/false, two values with -positive, or more than two classes: numbers or names); several, comma-separated, name the 0/1 columns of multi-label data; default: the one column named label, y, class or target, else the last column")
	fs.StringVar(&opt.positive, "positive", "", "the positive class of a two-valued label column, such as Yes or M")
	fs.StringVar(&opt.missing, "missing", "impute", "missing feature values (empty, NA, NaN, null): impute (the training median and a 0/1 \"was missing\" feature; a \"(missing)\" level in text columns) or error")
	fs.StringVar(&opt.valid, "valid", "", "the validation part, a file of -data's columns (with -test; -data is then the training part, and -seeds vary only the initialisation and the batches)")
	fs.StringVar(&opt.test, "test", "", "the test part, a file of -data's columns (with -valid)")
	fs.Float64Var(&opt.alpha, "alpha", 0.1, "target false-positive rate, 0 < alpha < 1")
	fs.Float64Var(&opt.recall, "recall", 0, "target true-positive rate, 0 < recall < 1: train the KDE runs with the mirrored loss (the false-positive rate at this recall), select on validation TNR@TPR=recall and report test FPR@TPR=recall; 0 = off")
	fs.Float64Var(&opt.confidence, "confidence", 0, "confidence 1−δ of the deployed threshold, 0 < confidence < 1 (such as 0.95): deploy the Neyman–Pearson threshold of the validation part, whose FPR on fresh negatives stays ≤ alpha with this probability (with -recall: TPR ≥ recall), per class on multi-class and multi-label data, with Clopper–Pearson intervals of its test rates; 0 = off, the lowest threshold whose validation FPR is ≤ alpha")
	fs.StringVar(&opt.losses, "losses", "ce,kde,sqhinge,sqhinge+wu", runsUsage())
	fs.StringVar(&opt.hidden, "hidden", "64", `hidden layer sizes of the MLP, comma-separated, at most 8 layers of 1…4096 units; "" for a linear scorer`)
	fs.StringVar(&opt.lrs, "lr", "0.001,0.003,0.01", "learning rates tried per run (Adam); validation picks one. aucm searches PESG's own, "+rateSet(train.PESGRates)+", unless aucm:lr=η fixes one")
	fs.StringVar(&opt.initPath, "init", "", "start every run from this model saved by -out (its .params or .json): the whole model when its outputs fit the data's task, else its body under a new output layer; its features must be the data's (docs/transfer.md)")
	fs.StringVar(&opt.freezeFlag, "freeze", "", `"body": train only the last layer, every other frozen (with -init, the saved body; without it, a random one)`)
	fs.StringVar(&opt.adapter, "adapter", "", "lora:r=R: train LoRA adapters of rank R on every hidden layer and the last layer, the other weights frozen")
	fs.StringVar(&opt.dtype, "dtype", "float64", "the models' parameters and arithmetic: float64 or float32")
	fs.Uint64Var(&opt.seed, "seed", 1, "seed of the split, the initialisation and the batches of the first repetition; -seed+seeds−1 must not pass 18446744073709551615")
	for _, c := range counts {
		fs.IntVar(c.field(opt), c.name[1:], c.def, fmt.Sprintf("%s, %d…%d", c.usage, c.min, c.max))
	}
	fs.StringVar(&opt.plot, "plot", "roc.png", `PNG of the ROC curves; "" for none`)
	fs.StringVar(&opt.out, "out", "", "directory to save each run's best model in: <run>.json, its operating point, and <run>.<h>.params, the model (h its SHA-256's first 16 hex digits), which -predict takes by either name; with -seeds, <run>.seed<s>.json…; an aucm run also its PESG state, <run>.pesg")
	fs.BoolVar(&opt.diagnose, "diagnose", false, "record the corrective-power diagnostics of every epoch (JSON \"diagnostics\", and <plot>-diagnostics.png beside -plot)")
	fs.StringVar(&opt.predict, "predict", "", "classify the rows of -data with this model saved by -out (and the .json beside it) instead of training")
	fs.BoolVar(&opt.json, "json", false, "print one JSON object with the results, and nothing else, on stdout")
	return fs
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	opt := &options{}
	fs := newFlagSet(opt, stderr)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	opt.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { opt.given[f.Name] = true })
	if opt.predict != "" { // the training flags do not apply: refuse them rather than ignore them
		var ignored []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "predict" && f.Name != "data" {
				ignored = append(ignored, "-"+f.Name)
			}
		})
		if len(ignored) > 0 {
			return nil, fmt.Errorf("-predict takes only -data; %s would be ignored", strings.Join(ignored, ", "))
		}
		return opt, nil
	}
	return opt, opt.check()
}

// check validates the flags and fills the parsed fields.
func (o *options) check() error {
	if !(o.alpha > 0 && o.alpha < 1) {
		return fmt.Errorf("-alpha must be in (0, 1), got %v", o.alpha)
	}
	if o.recall != 0 && !(o.recall > 0 && o.recall < 1) {
		return fmt.Errorf("-recall must be in (0, 1), or 0 for off, got %v", o.recall)
	}
	if o.confidence != 0 && !(o.confidence > 0 && o.confidence < 1) {
		return fmt.Errorf("-confidence must be in (0, 1), or 0 for off, got %v", o.confidence)
	}
	for _, c := range counts {
		if v := *c.field(o); v < c.min || v > c.max {
			return fmt.Errorf("%s must be in %d…%d, got %d", c.name, c.min, c.max, v)
		}
	}
	if uint64(o.seeds-1) > math.MaxUint64-o.seed {
		return fmt.Errorf("-seed %d with -seeds %d: the last seed would pass %d and wrap to 0", o.seed, o.seeds, uint64(math.MaxUint64))
	}
	switch o.dtype {
	case "float64":
		o.modelDtype = tensor.Float64
	case "float32":
		o.modelDtype = tensor.Float32
	default:
		return fmt.Errorf("-dtype must be float64 or float32, got %q", o.dtype)
	}
	var err error
	if o.hiddenSizes, err = parseList(o.hidden, func(s string) (int, error) {
		h, err := strconv.Atoi(s)
		if err == nil && (h < 1 || h > maxLayerSize) {
			err = fmt.Errorf("layer sizes must be in [1, %d]", maxLayerSize)
		}
		return h, err
	}); err != nil || len(o.hiddenSizes) > maxLayers {
		return fmt.Errorf("-hidden: at most %d layers of 1…%d units: %w", maxLayers, maxLayerSize,
			cmp.Or(err, fmt.Errorf("%d layers", len(o.hiddenSizes))))
	}
	if err := o.parseArm(); err != nil {
		return err
	}
	if o.learningRate, err = parseList(o.lrs, func(s string) (float64, error) {
		lr, err := strconv.ParseFloat(s, 64)
		if err == nil && (!(lr > 0) || math.IsInf(lr, 0)) {
			err = errors.New("not a positive finite learning rate")
		}
		return lr, err
	}); err != nil || len(o.learningRate) == 0 {
		return fmt.Errorf("-lr: need one or more learning rates: %w", cmp.Or(err, errors.New("none given")))
	}
	switch {
	case o.missing != "impute" && o.missing != "error":
		return fmt.Errorf("-missing must be impute or error, got %q", o.missing)
	case (o.valid == "") != (o.test == ""):
		return errors.New("-valid and -test go together: the validation and the test part, -data being the training part")
	case o.valid != "" && o.data == "":
		return errors.New("-valid and -test need -data, the training part")
	}
	if strings.Contains(o.label, ",") {
		if o.labels, err = data.ParseLabelList(o.label); err != nil {
			return fmt.Errorf("-label: %w", err)
		}
	}
	return o.parseRuns()
}

// parseRuns parses -losses into the runs.
func (o *options) parseRuns() error {
	names, err := parseList(o.losses, func(s string) (string, error) { return s, nil })
	if err != nil || len(names) == 0 {
		return errors.New("-losses: need at least one loss")
	}
	o.runs = nil
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			return fmt.Errorf("-losses: %q is listed twice", name)
		}
		seen[name] = true
		spec := runSpec{name: name}
		if spec.recipes, spec.warmup, err = o.names().Parse(name); err != nil {
			return fmt.Errorf("-losses: %w", err)
		}
		spec.label = o.names().Label(name)
		if spec.rates, err = train.SearchRates(name); err != nil {
			return fmt.Errorf("-losses: %w", err)
		}
		o.runs = append(o.runs, spec)
	}
	return o.checkIgnored()
}

// The default -losses of each task: binary data's is the flag's default.
var taskLosses = map[string]string{
	"multi-class": "ce,sqhinge,sqhinge:ovo,aucm",
	"multi-label": "ce,sqhinge,aucm",
}

// names reads the run names at the run's operating point (-recall when set, else -alpha), with
// -warmup epochs for a "+wu" name and -epochs for an annealed recipe.
func (o *options) names() train.Names {
	n := train.Names{Point: train.Point{Alpha: o.alpha}, Warmup: o.warmup, Epochs: o.epochs}
	if o.recall > 0 {
		n.Point = train.Point{Recall: o.recall}
	}
	return n
}

// metric is the validation metric that picks each run's epoch and learning rate.
func (o *options) metric() train.Metric {
	if o.recall > 0 {
		return train.TNRAtTPR(o.recall)
	}
	return train.PartialAUC(o.alpha)
}

// rateSet writes rates as "0.03, 0.1 and 0.3".
func rateSet(rates []float64) string {
	parts := make([]string, len(rates))
	for k, r := range rates {
		parts[k] = strconv.FormatFloat(r, 'g', -1, 64)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// parseList splits a comma-separated list and parses its items; "" is the empty list.
func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("bad item %q: %w", f, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// counts are the count flags with their defaults and bounds, as the flag help and docs/reference.md
// give them. Past the upper bounds a run would take days, or more memory than a machine has,
// so they are flag errors (exit status 2), reported before any data is read.
var counts = []struct {
	name          string
	def, min, max int
	usage         string
	field         func(*options) *int
}{
	{"-warmup", 10, 0, 100_000, `cross-entropy warm-up epochs of the "+wu" runs`, func(o *options) *int { return &o.warmup }},
	{"-epochs", 60, 1, 100_000, "epochs of each run's loss", func(o *options) *int { return &o.epochs }},
	{"-batch", 128, 2, 1 << 20, "rows per step", func(o *options) *int { return &o.batch }},
	{"-seeds", 1, 1, 1000, "repetitions with seeds -seed, -seed+1, …: each has its own split (unless -valid and -test give it), initialisation and batches",
		func(o *options) *int { return &o.seeds }},
	{"-boot", 1000, 0, stats.MaxBootstrapReps, "bootstrap resamples of the intervals and paired tests; 0 for none",
		func(o *options) *int { return &o.boot }},
}

// The bounds of -hidden.
const (
	maxLayers    = 8    // layers
	maxLayerSize = 4096 // units per layer
)
