package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/internal/outpath"
	"github.com/rocops/rocops/internal/runname"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// dataset is the loaded data, before any split.
type dataset struct {
	name          string // "embedded WDBC" or the CSV's path
	all           *data.Dataset
	parts         [3]int // rows of the training, validation and test parts (the same for every seed)
	testPositives int    // the test part's positives (the same for every seed: the split is stratified)
	// val and test are the -valid and -test parts, nil without them; all is then -data, the
	// training part, and fixed their split, prepared once.
	val, test *data.Dataset
	fixed     *experiment.Split
	rows      int // the rows of all the data given
	// encoded is the number of features the models take (the encoder's, of the first split,
	// for raw data; else the columns), enc that encoder (nil for none).
	encoded int
	enc     *data.Encoder
	// labelWhy says how the label column was chosen.
	labelWhy string
}

// dataGCPercent is the garbage collector's percent while roctrain holds a data file: the
// heap may grow to 1.05× its live size between collections instead of the default 2×. The
// numbers are one long-lived allocation without pointers, so a collection marks only the
// small rest of the heap and stays cheap however large the data.
const dataGCPercent = 5

// loadData loads -data (the embedded WDBC data without it), showing the rows read and the
// rate on stderr when it is a terminal and -json is off.
func loadData(o *options) (*dataset, error) {
	if o.data == "" {
		ds, err := data.WDBC()
		if err != nil {
			return nil, err
		}
		return &dataset{name: "embedded WDBC", all: ds, rows: ds.Rows, labelWhy: "the embedded data's"}, nil
	}
	debug.SetGCPercent(dataGCPercent)
	prog := &loadProgress{Name: o.data, Begin: time.Now()}
	if !o.json && term.IsTerminal(int(os.Stderr.Fd())) {
		prog.W = os.Stderr
	}
	cfg := data.CSVConfig{Label: o.label, Progress: prog.update, Float32: o.dtype == "float32",
		Positive: o.positive, Text: true, Missing: o.missing != "error"}
	if o.labels != nil {
		cfg.Label, cfg.Labels = "", o.labels
	}
	ds, err := data.Load(o.data, cfg)
	prog.done()
	if err != nil {
		return nil, err
	}
	out := &dataset{name: o.data, all: ds, rows: ds.Rows, labelWhy: labelWhy(o, ds)}
	if o.valid == "" {
		return out, nil
	}
	cfg.Like, cfg.Progress = ds, nil
	for _, part := range []struct {
		flag, path string
		ds         **data.Dataset
	}{{"-valid", o.valid, &out.val}, {"-test", o.test, &out.test}} {
		if *part.ds, err = data.Load(part.path, cfg); err != nil {
			return nil, fmt.Errorf("%s: %w", part.flag, err)
		}
		out.rows += (*part.ds).Rows
	}
	return out, nil
}

// labelWhy says how the label column of ds was chosen: by -label, by its name, or as the
// last column.
func labelWhy(o *options, ds *data.Dataset) string {
	switch {
	case o.label != "":
		return "-label"
	case o.data == "":
		return "the embedded data's"
	}
	switch strings.ToLower(ds.LabelName) {
	case "label", "y", "class", "target":
		return "the column named " + ds.LabelName
	}
	return "the last column"
}

// split is seed's split of ds; the last seed's consumes ds instead of copying it, since no
// later split needs the original.
func (o *options) split(ds *data.Dataset, seed uint64) (*experiment.Split, error) {
	if seed == o.seed+uint64(o.seeds-1) {
		return splitInPlace(ds, seed)
	}
	return experiment.NewSplit(ds, seed)
}

// splitInPlace is experiment.NewSplit consuming ds (data.SplitStandardizedInPlace) instead of
// copying it, for the last split roctrain makes of ds: ds is not usable afterwards. A
// multi-label ds is split as experiment.NewSplit splits it, with a copy.
func splitInPlace(ds *data.Dataset, seed uint64) (*experiment.Split, error) {
	if ds.Labels != nil || ds.LabelValues != nil || ds.Raw() { // raw data: encoded into new parts anyway
		return experiment.NewSplit(ds, seed)
	}
	tr, val, te, std, err := data.SplitStandardizedInPlace(ds, data.SplitConfig{Seed: seed})
	if err != nil {
		return nil, err
	}
	return &experiment.Split{Seed: seed, Train: tr, Val: val, Test: te, Std: std}, nil
}

// compare trains every run on every seed and reports the results. A run that fails on a
// seed is named on stderr and everything else is still reported; the command then exits with
// status 1. An interrupt or SIGTERM stops training and reports the runs finished before it.
func compare(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	if err := checkOutputs(o); err != nil {
		return err
	}
	ds, err := loadData(o)
	if err != nil {
		return err
	}
	if err := o.prepare(ds); err != nil {
		return err
	}
	split, err := o.splitter(ds)
	if err != nil {
		return err
	}
	prog := &experiment.Progress{Total: o.seeds * len(o.runs)}
	if f, ok := stderr.(*os.File); !o.json || ok && term.IsTerminal(int(f.Fd())) {
		prog.W = stderr // always on a terminal, otherwise unless -json; the trainer adds its bar
	}
	var started time.Time
	g := &experiment.Grid{
		Seeds:    o.seedList(),
		Split:    split,
		Searches: make([]*experiment.Search, len(o.runs)),
		Hooks: experiment.GridHooks{
			Split: func(sp *experiment.Split) error {
				if err := o.armFor(sp, ds.all.Task().K()); err != nil {
					return err
				}
				if ds.encoded == 0 {
					ds.encoded, ds.enc = sp.Train.Cols, sp.Enc
				}
				ds.parts, ds.testPositives = [3]int{sp.Train.Rows, sp.Val.Rows, sp.Test.Rows}, sp.Test.Positives()
				return nil
			},
			Start: func(sp *experiment.Split, r int) bool {
				prog.Start(fmt.Sprintf("seed %d: training %s…", sp.Seed, o.runs[r].label))
				started = time.Now()
				return true
			},
			Done: func(*experiment.Split, int, *experiment.Best, error) error { prog.Finish(); return nil },
		},
	}
	for r, spec := range o.runs {
		g.Searches[r] = o.search(spec, ds.all, stderr)
	}
	cfg := experiment.MeasureConfig{Alpha: o.alpha, Recall: o.recall, Boot: o.boot, Confidence: o.confidence}
	perRun, failed, err := experiment.Compare(ctx, g, cfg,
		func(sp *experiment.Split, r int, best *experiment.Best, res *seedResult) error {
			return o.finish(sp, o.runs[r], best, res, time.Since(started).Seconds())
		})
	if failed, err = o.compareFailed(ctx, failed, err); err != nil {
		return err
	}
	results := experiment.Summarise(perRun)
	if len(results) > 0 {
		if err := report(o, ds, results, stdout); err != nil {
			failed = append(failed, err)
		}
	}
	return errors.Join(failed...)
}

// prepare sets the options that depend on the data ds: the task's losses (checking the
// outputs of their runs again), the settings for its task, and -init, whose features must be
// the data's (raw data: checked once encoded, by the split).
func (o *options) prepare(ds *dataset) error {
	if o.taskLosses(ds.all) {
		if err := o.parseRuns(); err != nil {
			return err
		}
		if err := checkOutputs(o); err != nil { // again, for the runs of the task's losses
			return err
		}
	}
	if err := o.forData(ds.all); err != nil {
		return err
	}
	if err := o.loadInit(ds.all); err != nil {
		return err
	}
	if o.arm.init != nil && !ds.all.Raw() { // raw data: once encoded, by the split
		if err := o.arm.init.checkFeatures(ds.all.FeatureNames); err != nil {
			return err
		}
	}
	return nil
}

// splitter returns the split of ds for a seed: its own split of the data, or with -valid and
// -test the fixed parts (ds.fixed, prepared here once) under the seed.
func (o *options) splitter(ds *dataset) (func(seed uint64) (*experiment.Split, error), error) {
	if ds.val == nil {
		return func(seed uint64) (*experiment.Split, error) { return o.split(ds.all, seed) }, nil
	}
	var err error
	if ds.fixed, err = experiment.NewSplitFrom(ds.all, ds.val, ds.test, o.seed); err != nil {
		return nil, err
	}
	return func(seed uint64) (*experiment.Split, error) {
		sp := *ds.fixed
		sp.Seed = seed
		return &sp, nil
	}, nil
}

// compareFailed sorts the error err of experiment.Compare, whose failed runs are failed: an
// error no run's says stops the command (a -confidence the test part cannot meet, data that
// cannot be split) unless it is the interrupt's, which joins failed. It returns failed and
// the error that stops the command, nil to report the runs.
func (o *options) compareFailed(ctx context.Context, failed []error, err error) ([]error, error) {
	if err == nil || errors.Is(errors.Join(failed...), err) {
		return failed, nil
	}
	if errors.Is(err, metrics.ErrTooFewNegatives) || errors.Is(err, metrics.ErrTooFewPositives) {
		return nil, fmt.Errorf("-confidence %g: %w", o.confidence, err) // before any training
	}
	if ctx.Err() == nil {
		return nil, err // the data cannot be split
	}
	return append(failed, err), nil // unless a run's error says it already
}

// taskLosses sets -losses to the default of the data's task (the map taskLosses) when
// -losses was not given and the data is not binary, and reports whether it did.
func (o *options) taskLosses(all *data.Dataset) bool {
	kind := all.Task().Kind().String()
	list, ok := taskLosses[kind]
	if o.given["losses"] || !ok {
		return false
	}
	o.losses, o.lossesChosen = list, kind
	return true
}

// search is the learning-rate (and recipe) search of one run; a learning rate that fails is
// named on stderr.
func (o *options) search(spec runSpec, all *data.Dataset, stderr io.Writer) *experiment.Search {
	cfg := train.Config{Epochs: o.epochs, BatchSize: o.batch, Progress: o.progress,
		Metric: train.MetricFor(spec.recipes, all.Task(), o.metric())}
	if o.diagnose {
		cfg.Diagnose = &train.Diagnose{} // every epoch, M = 1, the sets drawn with the split's seed
	}
	rates := o.learningRate
	if spec.rates != nil {
		rates = spec.rates // aucm: PESG's, not Adam's
	}
	s := &experiment.Search{
		Name: spec.label, Recipes: spec.recipes, LearningRates: rates,
		Model: nn.MLPConfig{Hidden: o.hiddenSizes, Dtype: o.modelDtype, Outputs: all.Task().K()}, Config: cfg,
		Hooks: experiment.Hooks{Done: logFailures(stderr, spec.name)},
	}
	if o.arm.active() {
		s.Init = func(sp *experiment.Split) (nn.Model, error) { return o.model(sp, all.Task().K()) }
	}
	return s
}

// armFor checks -init's features against the split's (encoded, for raw data) before anything
// trains on it, and counts the parameters of the arm's model.
func (o *options) armFor(sp *experiment.Split, outputs int) error {
	if !o.arm.active() {
		return nil
	}
	if in := o.arm.init; in != nil {
		if err := in.checkFeatures(sp.Train.FeatureNames); err != nil {
			return err
		}
	}
	m, err := o.model(sp, outputs)
	if err != nil {
		return err
	}
	o.arm.count(m)
	return nil
}

// forData checks every run's recipes against the data's task (train.Recipe.Check: on k classes
// or labels, ce is their cross-entropy and a pairwise loss one-vs-rest or label-wise, and the
// KDE loss has no form), and refuses the settings of other data, before any training.
func (o *options) forData(all *data.Dataset) error {
	if o.recall > 0 && (all.Classes != nil || all.Labels != nil) || o.diagnose && all.Labels != nil {
		return errors.New("-recall applies to binary data and -diagnose to binary and multi-class data; this data has classes or labels")
	}
	if err := o.checkBatch(all.Task()); err != nil {
		return err
	}
	for _, run := range o.runs {
		for _, r := range run.recipes {
			if err := r.Check(all.Task()); err != nil {
				return fmt.Errorf("-losses %s: %w", run.name, err)
			}
		}
	}
	return nil
}

// checkOutputs makes -out, and checks that -out and -plot (with its diagnostics PNG) take new
// files and that no output overwrites -data, a saved model file (savedModel) or another output
// (by file identity, package outpath), so that a bad output path fails before training rather
// than after it.
func checkOutputs(o *options) error {
	var inputs, plots, saved []outpath.File
	if o.data != "" {
		inputs = append(inputs, outpath.Identify("the -data file", o.data))
	}
	if o.valid != "" {
		inputs = append(inputs, outpath.Identify("the -valid file", o.valid), outpath.Identify("the -test file", o.test))
	}
	if o.initPath != "" {
		inputs = append(inputs, outpath.Identify("the -init model", o.initPath),
			outpath.Identify("the -init model's operating-point file", runname.SidecarPath(o.initPath)))
	}
	if o.out != "" {
		if err := outpath.Dir(o.out); err != nil {
			return fmt.Errorf("-out: %w", err)
		}
		for _, seed := range o.seedList() {
			for _, spec := range o.runs {
				m := modelPath(o, spec, seed)
				side := runname.SidecarPath(m)
				saved = append(saved, outpath.Identify("-out's model "+filepath.Base(m), m),
					outpath.Identify("-out's operating-point file "+filepath.Base(side), side))
				if trainsPESG(spec) {
					st := pesgPath(m)
					saved = append(saved, outpath.Identify("-out's PESG state "+filepath.Base(st), st))
				}
			}
		}
	}
	if o.plot != "" {
		plots = append(plots, outpath.Identify("-plot", o.plot))
		if o.diagnose {
			plots = append(plots, outpath.Identify("-plot's diagnostics PNG", diagnosticsPath(o.plot)))
		}
	}
	for _, p := range plots { // a model file saved before, as <run>.<h>.params, is an input too
		if what := savedModel(p.Path, saved); what != "" {
			inputs = append(inputs, outpath.Identify(what, p.Path))
		}
	}
	if err := outpath.Distinct(inputs, plots, saved); err != nil {
		return err
	}
	for _, p := range plots {
		if err := outpath.Writable(p.Path); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
	}
	return nil
}

// savedModel says what the file at path is when it is a model file of a saved model: its name
// is one a sidecar gives its model (<name>.<h>.params, or <name>.params of version 1), and the
// sidecar <name>.json beside it names it (or cannot be read to say otherwise), or is one of
// the sidecars -out writes (saved), whose run then saves a model under such a name. Else it
// returns "".
func savedModel(path string, saved []outpath.File) string {
	side := runname.SidecarPath(path)
	if side == path || filepath.Ext(path) != ".params" {
		return ""
	}
	id, sideID := outpath.Identify("", path), outpath.Identify("", side)
	for _, f := range saved {
		if f.Same(id) { // -out writes it: Distinct names it so
			return ""
		}
	}
	for _, f := range saved {
		if f.Same(sideID) {
			return "a model file name of the run whose operating-point file is " + side
		}
	}
	if _, err := os.Stat(side); err != nil {
		return ""
	}
	if named := sidecarModel(side); named == "" || named == filepath.Base(path) {
		return "the model file that " + side + " names"
	}
	return ""
}

// sidecarModel returns the model file the sidecar at path names, "" when it cannot tell (the
// sidecar's own checks are deploy.Load's).
func sidecarModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var side struct {
		Model json.RawMessage `json:"model"`
	}
	if json.NewDecoder(io.LimitReader(f, 64<<20)).Decode(&side) != nil {
		return ""
	}
	var name string // version 1: "model": "<name>.params"; later: "model": {"file": …}
	if json.Unmarshal(side.Model, &name) == nil {
		return name
	}
	var ref struct {
		File string `json:"file"`
	}
	if json.Unmarshal(side.Model, &ref) == nil {
		return ref.File
	}
	return ""
}

// report prints the table or the JSON object, then draws the plot, so that a plot that
// cannot be written loses none of the figures.
func report(o *options, ds *dataset, results []experiment.Summary, stdout io.Writer) error {
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := struct {
			Data dataJSON `json:"data"`
			// RunsChosenFor names the task whose default runs ran, -losses not given.
			RunsChosenFor string    `json:"runs_chosen_for,omitempty"`
			Classes       []string  `json:"classes,omitempty"` // multi-class: the classes; multi-label: the labels
			Multilabel    bool      `json:"multilabel,omitempty"`
			Init          *initJSON `json:"init,omitempty"` // -init's model
			Results       any       `json:"results"`
		}{Data: ds.json(), RunsChosenFor: o.lossesChosen, Results: results}
		if t := classTablesOf(o, ds); t != nil {
			out.Classes, out.Multilabel = t.Names, t.Multilabel
		}
		if o.arm.active() { // each run says how many of its parameters trained
			runs := make([]armSummary, len(results))
			for k, r := range results {
				runs[k] = armSummary{Summary: r, TrainableParams: o.arm.trainable}
			}
			out.Results = runs
		}
		if in := o.arm.init; in != nil {
			out.Init = &initJSON{Model: in.path, SHA256: in.sha256, Head: map[bool]string{true: "kept", false: "new"}[in.whole]}
		}
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		printTable(stdout, o, ds, results)
	}
	if o.plot != "" {
		f, draw := plotted(o, results), func(path string, f figure, alpha float64) error { return plotROC(path, f, alpha, ds.testPositives) }
		if classTablesOf(o, ds) != nil {
			draw = plotClassROC
		}
		if err := draw(o.plot, f, o.alpha); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
		if o.diagnose {
			if err := plotDiagnostics(diagnosticsPath(o.plot), f); err != nil {
				return fmt.Errorf("-plot: %w", err)
			}
		}
	}
	return nil
}

// armSummary is a run's entry of the JSON's "results" with -init, -freeze or -adapter: its
// summary and how many of its model's parameters it trained.
type armSummary struct {
	experiment.Summary
	TrainableParams int `json:"trainable_params"`
}

// initJSON is the JSON's "init": -init's model, its model file's SHA-256, and whether its
// output layer was kept ("kept") or a new one trained under its body ("new").
type initJSON struct {
	Model  string `json:"model"`
	SHA256 string `json:"sha256"`
	Head   string `json:"head"`
}

// dataJSON is the JSON's "data": the rows and features given, the features the models take
// (encoded, for raw data), the label column, and the split's rows.
type dataJSON struct {
	Rows            int    `json:"rows"`
	Features        int    `json:"features"`
	EncodedFeatures int    `json:"encoded_features"`
	Label           string `json:"label"`
	Split           struct {
		Train      int `json:"train"`
		Validation int `json:"validation"`
		Test       int `json:"test"`
	} `json:"split"`
}

func (ds *dataset) json() dataJSON {
	d := dataJSON{Rows: ds.allRows(), EncodedFeatures: ds.width()}
	d.Split.Train, d.Split.Validation, d.Split.Test = ds.parts[0], ds.parts[1], ds.parts[2]
	if ds.all == nil {
		return d
	}
	d.Features, d.Label = ds.all.Cols, ds.all.LabelName
	if ds.all.Labels != nil {
		d.Label = strings.Join(ds.all.Labels, ",")
	}
	return d
}

// plotted picks the runs to draw: those of the first seed the most runs finished (every run,
// unless some failed), grouped by merge, and a note naming that seed when there
// are several.
func plotted(o *options, results []experiment.Summary) figure {
	best, bestSeed := mostFinished(results, o.seedList())
	f := figure{groups: merge(best)}
	if o.seeds > 1 && len(best) > 0 {
		f.note, f.seeds = fmt.Sprintf("seed %d of seeds %d–%d", bestSeed, o.seed, o.seed+uint64(o.seeds)-1), true
	}
	return f
}

// logFailures is a Hooks.Done that writes each candidate of run name that failed to w as
// "roctrain: <name>: <error> (…)", saying whether the candidate is skipped (no epoch
// finished) or competes with its best epoch, which it names.
func logFailures(w io.Writer, name string) func(experiment.Candidate, *train.History, error) {
	return func(_ experiment.Candidate, h *train.History, err error) {
		switch {
		case err == nil:
		case h == nil || h.Best < 0:
			fmt.Fprintf(w, "roctrain: %s: %v (no epoch finished; skipped)\n", name, err)
		default:
			fmt.Fprintf(w, "roctrain: %s: %v (keeping its best epoch, %d)\n", name, err, h.Epochs[h.Best].Index)
		}
	}
}
