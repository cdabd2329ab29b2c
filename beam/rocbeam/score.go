package rocbeam

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
)

func init() {
	register.DoFn4x1[context.Context, fileio.FileMetadata, func(int64, Block), func(string, string), error](&scoreFn{})
}

// Score adds to s the scoring of every row of the CSV shards cfg.Input with the deployed model
// cfg.Model, and then the evaluation of those scores as [Evaluate] does.
//
// Each input shard dir/…/name.csv gives the scored shard cfg.Output/scored-name.csv (two
// shards of one name, in two directories, are refused here, before the pipeline runs: the
// launching program lists the glob), written by [deploy.Scorer.ScoreCSV]: the header
// "row,<label>,score,flag", then one line per row in
// the shard's order, the score in Go's shortest float formatting, the flag 1 when score ≥ the
// model's threshold. The rows are counted by distinct score as they are written. When the
// input has the model's label column, metrics.json follows, with the model's threshold as the
// deployed point and its α when cfg.Alpha is 0; without labels the shards are scored and
// nothing is evaluated.
//
// The input shards' columns may come in any order and include columns the model does not
// read; shards with the label column and shards without it in one run fail with ErrColumns
// once scored.
//
// The model is loaded here, in the launching program, to check it and read its operating
// point, and again by every worker, from the same path: on a cluster, give a path every
// worker can read (a shared file system, or the worker image). Bad rows fail the pipeline
// with deploy's error naming the file, line and column, after which the scored shard of that
// file is removed (shards of other files that completed stay). A scored shard is written as
// name.csv.tmp and renamed name.csv once complete, so that a run stopped midway (killed, say)
// leaves no partial shard under the final name. A multi-class model's shards are
// "row,<label>,score_<class>…,flag_<class>…" and its rows are counted in k×k tables, from which
// metrics.json gets each class's one-vs-rest figures, their macro means and the one-vs-one AUC
// ([SummarizeClasses]); a multi-label model is refused before the pipeline runs ([ErrClasses]),
// and so is a model whose label column is named row, score or flag, as a column of the scored
// shards. A model with an encoder (a raw table's) scores raw rows as deploy does.
func Score(s beam.Scope, cfg Config) error {
	if err := check(cfg.Input, cfg); err != nil {
		return err
	}
	sc, err := deploy.Load(cfg.Model)
	if err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	defer sc.Close()
	if err := scoreable(sc); err != nil {
		return err
	}
	op := sc.OperatingPoint()
	switch l := op.Label; l {
	case "row", "score", "flag":
		return fmt.Errorf("rocbeam: the model's label column %q is a column of the scored shards (row,%s,score,flag): "+
			"its scores could not be told from its labels; name the label column otherwise in the data and train again", l, l)
	}
	if err := distinctNames(cfg); err != nil {
		return err
	}
	if cfg.Alpha == 0 {
		cfg.Alpha = op.Alpha
	}
	if cfg.Threshold == nil && op.Classes == nil {
		t := op.Threshold
		cfg.Threshold = &t
	}
	cfg.Label = op.Label
	classes := op.Classes
	cfg.Scores = cfg.Input
	s = s.Scope("rocbeam.Score")
	files := beam.Reshuffle(s, fileio.MatchFiles(s, cfg.Input, fileio.MatchEmptyDisallow()))
	blocks, headers := beam.ParDo2(s, &scoreFn{Model: cfg.Model, Output: cfg.Output, Classes: classes}, files)
	if cfg.Label == "" {
		logger.Printf("rocbeam: %s names no label column: rows scored, not evaluated (no metrics.json)", cfg.Model)
		return nil
	}
	if classes != nil {
		reportClasses(s, cfg, blocks, headers, classes, op.Thresholds)
		return nil
	}
	report(s, cfg, blocks, headers, cfg.Label)
	return nil
}

// scoreable returns an error wrapping ErrClasses for a multi-label model, which Score does
// not evaluate; binary and multi-class models are scored.
func scoreable(sc *deploy.Scorer) error {
	if sc.OperatingPoint().Multilabel {
		return fmt.Errorf("%w (%s, a multi-label model of %d labels: score it with roctrain -predict or deploy.Scorer.ScoreCSV)",
			ErrClasses, sc.SidecarPath(), len(sc.OperatingPoint().Classes))
	}
	return nil
}

// distinctNames lists the input shards of cfg and refuses two of one base name, which would
// be scored into one output file.
func distinctNames(cfg Config) error {
	ctx := context.Background()
	fsys, err := filesystem.New(ctx, cfg.Input)
	if err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	defer fsys.Close()
	files, err := fsys.List(ctx, cfg.Input)
	if err != nil {
		return fmt.Errorf("rocbeam: listing %s: %w", cfg.Input, err)
	}
	slices.Sort(files)
	seen := make(map[string]string, len(files))
	for _, f := range files {
		base := path.Base(f)
		if other, ok := seen[base]; ok {
			return fmt.Errorf("rocbeam: %s and %s would both be scored into %s: give the input shards distinct names",
				other, f, join(cfg.Output, "scored-"+base))
		}
		seen[base] = f
	}
	return nil
}

// testBeforeRename, when tests set it, is called when a scored shard is complete under its
// temporary name tmp, before it is renamed final.
var testBeforeRename func(tmp, final string)

// scoreFn scores input shards with a deployed model, writes the scored shards and counts their
// rows per distinct score.
type scoreFn struct {
	Model, Output string
	// Classes are a multi-class model's classes, whose rows are counted in k×k tables (see
	// classTally); nil for a binary model.
	Classes []string

	scorer *deploy.Scorer
	t      tally
	ct     *classTally
}

// Setup loads the model, once per worker.
func (f *scoreFn) Setup() error {
	sc, err := deploy.Load(f.Model)
	if err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	if err := scoreable(sc); err != nil {
		sc.Close()
		return err
	}
	f.scorer = sc
	if f.Classes != nil {
		f.ct = newClassTally(f.Classes)
	}
	return nil
}

// ErrClasses: the deployed model is multi-label, which Score does not evaluate, or of classes
// where a binary model is needed (Evaluate's -model, one score a row and one threshold).
var ErrClasses = errors.New("rocbeam: the model is multi-class or multi-label; this takes binary models only")

// Binary returns an error wrapping ErrClasses, naming the model's classes, unless sc is a
// binary model (no classes in its deploy.OperatingPoint).
func Binary(sc *deploy.Scorer) error {
	if classes := sc.OperatingPoint().Classes; classes != nil {
		return fmt.Errorf("%w (%s, %d classes: score it with roctrain -predict or deploy.Scorer.ScoreCSV)",
			ErrClasses, sc.SidecarPath(), len(classes))
	}
	return nil
}

// Teardown releases the model.
func (f *scoreFn) Teardown() {
	if f.scorer != nil {
		f.scorer.Close()
	}
}

// ProcessElement scores one shard.
func (f *scoreFn) ProcessElement(ctx context.Context, file fileio.FileMetadata, emit func(int64, Block), header func(string, string)) error {
	in, err := openRead(ctx, file)
	if err != nil {
		return err
	}
	defer in.Close()
	br := bufio.NewReaderSize(in, 1<<20)
	first, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return fmt.Errorf("rocbeam: %s: %w", file.Path, err)
	}
	if _, err := csv.NewReader(strings.NewReader(first)).Read(); err != nil {
		return fmt.Errorf("%w: %s has no header row", ErrEmpty, file.Path)
	}

	// The scored shard is written under a temporary name and renamed once complete, so that a
	// run stopped midway leaves no partial shard under the final name.
	outPath := join(f.Output, "scored-"+path.Base(file.Path))
	tmp := outPath + ".tmp"
	fs, err := filesystem.New(ctx, outPath)
	if err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	defer fs.Close()
	out, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	tee := &scoredTee{ctx: ctx, t: &f.t, ct: f.ct, emit: emit, prog: progress{path: file.Path}}
	_, _, err = f.scorer.ScoreCSVContext(ctx, io.MultiReader(strings.NewReader(first), br), io.MultiWriter(out, tee))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = tee.finish()
	}
	if err == nil && testBeforeRename != nil {
		testBeforeRename(tmp, outPath)
	}
	if err == nil {
		err = filesystem.Rename(ctx, fs, tmp, outPath)
	}
	if err != nil {
		if rm, ok := fs.(filesystem.Remover); ok {
			rm.Remove(ctx, tmp)
		}
		if ce, ok := errors.AsType[*data.CSVError](err); ok {
			ce.File = file.Path
		}
		return fmt.Errorf("rocbeam: %w", err)
	}
	// The shards' columns, compared by the report: the scored header, the same whatever the
	// order of the input's columns, and with the label column or without it.
	header(file.Path, tee.header)
	return nil
}

// FinishBundle emits what the bundle's tally holds.
func (f *scoreFn) FinishBundle(emit func(int64, Block), _ func(string, string)) {
	f.t.flush(emit)
	if f.ct != nil {
		f.ct.flush(emit)
	}
}

// scoredTee reads the scored CSV deploy writes, as it is written, and counts its rows: the
// header "row,<label>,score,flag" or "row,score,flag", then lines of numbers (nothing quoted).
// It takes the columns by their place in that header, not by name; rows are counted only when
// the header has the label.
type scoredTee struct {
	ctx  context.Context
	t    *tally
	ct   *classTally // a multi-class model's tables, nil for a binary model
	emit func(int64, Block)
	prog progress

	header             string // the scored header, once read
	headerDone         bool
	scoreCol, labelCol int // labelCol −1: no label column
	partial            []byte
}

func (w *scoredTee) Write(p []byte) (int, error) {
	n := len(p)
	if len(w.partial) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			return n, nil
		}
		w.partial = append(w.partial, p[:i]...)
		if err := w.line(w.partial); err != nil {
			return 0, err
		}
		w.partial = w.partial[:0]
		p = p[i+1:]
	}
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			return n, nil
		}
		if err := w.line(p[:i]); err != nil {
			return 0, err
		}
		p = p[i+1:]
	}
}

// line takes one line of the scored CSV, without its newline.
func (w *scoredTee) line(l []byte) error {
	l = bytes.TrimSuffix(l, []byte{'\r'})
	if !w.headerDone {
		names, err := csv.NewReader(bytes.NewReader(l)).Read()
		if err != nil {
			return fmt.Errorf("rocbeam: reading the scored header: %w", err)
		}
		w.headerDone, w.header = true, strings.Join(names, ",")
		if w.ct != nil {
			return w.ct.header(names, &w.labelCol)
		}
		switch {
		case len(names) == 4 && names[0] == "row" && names[2] == "score" && names[3] == "flag":
			w.labelCol, w.scoreCol = 1, 2
		case len(names) == 3 && names[0] == "row" && names[1] == "score" && names[2] == "flag":
			w.labelCol, w.scoreCol = -1, 1
		default:
			return fmt.Errorf("rocbeam: the scored header %q is not row,<label>,score,flag", l)
		}
		return nil
	}
	w.prog.row(w.ctx)
	if w.labelCol < 0 {
		return nil
	}
	if w.ct != nil {
		if err := w.ct.line(l, w.labelCol); err != nil {
			return err
		}
		if w.ct.full() {
			w.ct.flush(w.emit)
		}
		return nil
	}
	fields := bytes.Split(l, []byte{','})
	if len(fields) <= max(w.scoreCol, w.labelCol) {
		return fmt.Errorf("rocbeam: scored line %q has too few fields", l)
	}
	x, err := strconv.ParseFloat(string(fields[w.scoreCol]), 64)
	if err != nil {
		return fmt.Errorf("rocbeam: scored line %q: %w", l, err)
	}
	y := 0
	if string(fields[w.labelCol]) == "1" {
		y = 1
	}
	w.t.add(x, y)
	if w.t.full() {
		w.t.flush(w.emit)
	}
	return nil
}

// finish checks that the scored CSV ended with a newline and reports the last rows counted.
func (w *scoredTee) finish() error {
	w.prog.done(w.ctx)
	if len(w.partial) > 0 {
		return fmt.Errorf("rocbeam: the scored CSV ends in a partial line %q", w.partial)
	}
	return nil
}
