package rocbeam

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rocops/rocops"
)

func init() {
	register.DoFn4x1[context.Context, fileio.FileMetadata, func(int64, Block), func(string, string), error](&countFn{})
	register.DoFn4x1[context.Context, []byte, func(*int64, *Block) bool, func(*string, *string) bool, error](&reportFn{})
	register.Combiner1[Block](&mergeFn{})
	register.Emitter2[int64, Block]()
	register.Emitter2[string, string]()
	register.Iter2[int64, Block]()
	register.Iter2[string, string]()
}

// Rows counts the rows read, a Beam counter that runners show while the job runs (the
// Dataflow and Flink consoles do) and beam.PipelineResult returns after.
var Rows = beam.NewCounter("rocbeam", "rows")

// logger writes rocbeam's own lines (progress, a note that nothing is evaluated) to standard
// error, apart from package log, through which the Beam SDK writes some of its own.
var logger = log.New(os.Stderr, "", log.LstdFlags)

// progressEvery is how many rows of a file a worker reads between two progress lines on its
// standard error (on a cluster, the worker's log): 1,000,000 (a variable so that tests can
// see the lines on small files).
var progressEvery int64 = 1_000_000

// Config says what to evaluate and where to write. The zero value of each field is its
// documented default.
type Config struct {
	// Scores is the glob of the CSV shards to evaluate, with columns "score" and Label (and
	// any others, ignored); a path on any file system the SDK knows (local files, gs://, s3://
	// with their packages imported).
	Scores string
	// Output is the directory of metrics.json and of Score's scored shards; "" means the
	// current directory.
	Output string
	// Alpha is the false-positive rate of tpr_at_fpr and pauc, in (0, 1]; 0 means 0.1.
	Alpha float64
	// Threshold, when not nil, is a deployed model's threshold: metrics.json then gives the
	// rates of flagging score ≥ *Threshold on these rows. [Score] sets it from its model.
	Threshold *float64
	// Confidence, in (0, 1), chooses the deployed threshold on these rows, in place of
	// Threshold: the Neyman–Pearson umbrella threshold at Alpha and δ = 1 − Confidence (to 15
	// significant digits, as roctrain -confidence takes it), read off the merged counts by
	// metrics.Curve.ThresholdNP, equal to metrics.ThresholdNP on the same rows; its false-positive
	// rate on fresh negatives stays at or below α with probability at least Confidence.
	// metrics.json then gives it, its rates on these rows and the confidence
	// (deployed_confidence), and too few negatives for the guarantee fail the pipeline with
	// metrics' message naming how many there are and how many it needs. 0 = none. [Score]
	// refuses it: its scored shards flag at the model's own threshold.
	Confidence float64

	// Input is the glob of the CSV shards of raw feature rows that [Score] scores, and Model
	// the deployed model it scores them with (a path deploy.Load takes).
	Input, Model string
	// Label is the name of the label column: for Evaluate, "" means "label" (and "score" is
	// refused); Score takes the model's, and scores input without it but does not evaluate it.
	Label string
}

// DefaultAlpha is the false-positive rate used when neither the flag nor a model gives one.
const DefaultAlpha = 0.1

// Evaluate adds to s the evaluation of cfg.Scores: it reads every shard, counts rows per
// distinct score (a map per bundle of work, emitted as one sorted block per bucket of scores),
// merges the blocks of each bucket, and in one last step, on one worker, computes every
// figure from the merged counts and writes metrics.json. A bad row, a shard whose columns
// differ from another's, no file matching and no row at all each fail the pipeline with an
// error naming the file (and line), before anything is written. A configuration that cannot
// work (no glob, α outside [0, 1], a path on a file system the program does not link) is an
// error here, before the pipeline runs.
func Evaluate(s beam.Scope, cfg Config) error {
	if err := check(cfg.Scores, cfg); err != nil {
		return err
	}
	s = s.Scope("rocbeam.Evaluate")
	files := beam.Reshuffle(s, fileio.MatchFiles(s, cfg.Scores, fileio.MatchEmptyDisallow()))
	label := cfg.Label
	if label == "" {
		label = "label"
	}
	blocks, headers := beam.ParDo2(s, &countFn{Label: label}, files)
	report(s, cfg, blocks, headers, "")
	return nil
}

// check validates what Evaluate and Score are given: the glob of their input, α, and the
// file systems of the input and the output.
func check(glob string, cfg Config) (err error) {
	if strings.TrimSpace(glob) == "" {
		return fmt.Errorf("rocbeam: no input glob")
	}
	if !(cfg.Alpha >= 0 && cfg.Alpha <= 1) {
		return fmt.Errorf("rocbeam: alpha = %v, want it in (0, 1] (0: the default)", cfg.Alpha)
	}
	switch c := cfg.Confidence; {
	case c != 0 && !(c > 0 && c < 1):
		return fmt.Errorf("rocbeam: confidence = %v, want it in (0, 1) (0: none)", c)
	case c != 0 && cfg.Input != "":
		return fmt.Errorf("rocbeam: a confidence chooses the threshold on scores evaluated with -scores; scoring -input flags at the model's own threshold")
	}
	if cfg.Label == "score" && cfg.Input == "" {
		return fmt.Errorf(`rocbeam: the label column "score" is the score column: name the label column`)
	}
	defer func() { // the SDK reports a file system it does not know by a panic
		if r := recover(); r != nil {
			err = fmt.Errorf("rocbeam: %v", r)
		}
	}()
	filesystem.ValidateScheme(glob)
	filesystem.ValidateScheme(join(cfg.Output, "metrics.json"))
	return nil
}

// report merges the blocks by bucket and writes metrics.json from them, after checking that
// every shard has the same columns. With optionalLabel, shards without that column are not
// evaluated.
func report(s beam.Scope, cfg Config, blocks, headers beam.PCollection, optionalLabel string) {
	merged := beam.CombinePerKey(s, &mergeFn{}, blocks)
	fn := &reportFn{Glob: cfg.Scores, Output: cfg.Output, Alpha: cfg.Alpha, Confidence: cfg.Confidence, OptionalLabel: optionalLabel}
	if cfg.Threshold != nil {
		fn.Threshold = strconv.FormatFloat(*cfg.Threshold, 'g', -1, 64) // JSON has no +Inf
	}
	beam.ParDo0(s, fn, beam.Impulse(s), beam.SideInput{Input: merged}, beam.SideInput{Input: headers})
}

// countFn reads score shards and counts their rows per distinct score.
type countFn struct {
	Label string // the label column

	t tally
}

// ProcessElement reads one shard, counting its rows into the bundle's tally, and emits its
// path and header.
func (f *countFn) ProcessElement(ctx context.Context, file fileio.FileMetadata, emit func(int64, Block), header func(string, string)) error {
	sh, err := openShard(ctx, file)
	if err != nil {
		return err
	}
	defer sh.Close()
	header(file.Path, strings.Join(sh.header, ","))
	si, err := sh.column("score")
	if err != nil {
		return err
	}
	li, err := sh.column(f.Label)
	if err != nil {
		return err
	}
	prog := progress{path: file.Path}
	defer prog.done(ctx)
	for {
		ok, err := sh.next()
		if err != nil || !ok {
			return err
		}
		x, err := sh.number(si)
		if err != nil {
			return err
		}
		y, err := sh.label(li)
		if err != nil {
			return err
		}
		f.t.add(x, y)
		if f.t.full() {
			f.t.flush(emit)
		}
		prog.row(ctx)
	}
}

// progress counts the rows of one file into the Rows counter, 4096 at a time, and logs a
// line every progressEvery rows.
type progress struct {
	path          string
	n, unreported int64
}

// row counts one row.
func (p *progress) row(ctx context.Context) {
	p.n++
	if p.unreported++; p.unreported == 4096 {
		Rows.Inc(ctx, p.unreported)
		p.unreported = 0
	}
	if p.n%progressEvery == 0 {
		logger.Printf("rocbeam: %s: %d rows", p.path, p.n)
	}
}

// done adds the rows not yet counted.
func (p *progress) done(ctx context.Context) {
	Rows.Inc(ctx, p.unreported)
	p.unreported = 0
}

// FinishBundle emits what the bundle's tally holds.
func (f *countFn) FinishBundle(emit func(int64, Block), _ func(string, string)) {
	f.t.flush(emit)
}

// reportFn computes the figures from the merged blocks and writes metrics.json. Its fields are
// exported because the SDK serialises a DoFn's exported fields to ship it to the workers.
type reportFn struct {
	Glob      string
	Output    string
	Alpha     float64
	Threshold string // "" without a model; else the threshold as strconv formats it
	// Confidence, when not 0, chooses the threshold on the merged counts (Config.Confidence).
	Confidence float64
	// OptionalLabel, with a model, is its label column: when the shards lack it, nothing is
	// evaluated.
	OptionalLabel string
}

// ProcessElement runs once, on the impulse.
func (f *reportFn) ProcessElement(ctx context.Context, _ []byte, blocks func(*int64, *Block) bool, headers func(*string, *string) bool) error {
	firstHeader, first, err := f.sameHeaders(headers)
	if err != nil {
		return err
	}
	if f.OptionalLabel != "" && !slices.Contains(strings.Split(firstHeader, ","), f.OptionalLabel) {
		logger.Printf("rocbeam: %s has no label column %q: rows scored, not evaluated (no metrics.json)", first, f.OptionalLabel)
		return nil
	}
	var all []Block
	var key int64
	var b Block
	for blocks(&key, &b) {
		all = append(all, b)
	}
	c, err := gather(all)
	if err != nil {
		if errors.Is(err, rocops.ErrEmpty) {
			return fmt.Errorf("%w in %s", ErrEmpty, f.Glob)
		}
		return fmt.Errorf("rocbeam: %s: %w", f.Glob, err)
	}
	alpha := f.Alpha
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	var threshold *float64
	if f.Threshold != "" {
		t, err := strconv.ParseFloat(f.Threshold, 64)
		if err != nil {
			return fmt.Errorf("rocbeam: threshold %q: %w", f.Threshold, err)
		}
		threshold = &t
	}
	if f.Confidence > 0 {
		t, err := c.ThresholdNP(alpha, delta(f.Confidence))
		if err != nil {
			return fmt.Errorf("rocbeam: the deployed threshold of %s at confidence %v: %w", f.Glob, f.Confidence, err)
		}
		threshold = &t
	}
	r, err := Summarize(c, alpha, threshold)
	if err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	r.DeployedConfidence = f.Confidence
	return writeJSON(ctx, f.Output, "metrics.json", r)
}

// delta is δ = 1 − c to 15 significant digits: the δ a user means by the confidence c (0.05 for
// 0.95, not the float difference 0.050000000000000044), as roctrain takes -confidence.
func delta(c float64) float64 {
	d, _ := strconv.ParseFloat(strconv.FormatFloat(1-c, 'g', 15, 64), 64)
	return d
}

// sameHeaders returns the first shard's header and path, or an error naming two shards whose
// headers differ.
func (f *reportFn) sameHeaders(headers func(*string, *string) bool) (firstHeader, first string, err error) {
	var path, header string
	for headers(&path, &header) {
		switch {
		case first == "":
			first, firstHeader = path, header
		case header != firstHeader:
			a, b := []string{first, firstHeader}, []string{path, header}
			if b[0] < a[0] {
				a, b = b, a
			}
			return "", "", fmt.Errorf("%w: %s has %q, %s has %q", ErrColumns, a[0], a[1], b[0], b[1])
		}
	}
	return firstHeader, first, nil
}

// writeJSON writes v, indented, to dir/name on dir's file system: to a temporary name first,
// renamed when complete, so that a failed write leaves no partial file of that name.
func writeJSON(ctx context.Context, dir, name string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	path := join(dir, name)
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	defer fs.Close()
	tmp := path + ".tmp"
	if err := filesystem.Write(ctx, fs, tmp, buf.Bytes()); err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	if err := filesystem.Rename(ctx, fs, tmp, path); err != nil {
		return fmt.Errorf("rocbeam: %w", err)
	}
	return nil
}

// join returns the path of file name in directory dir ("" meaning the current one), joined by
// a slash as every file system of the SDK takes it (gs://bucket/dir/name).
func join(dir, name string) string {
	if dir == "" {
		dir = "."
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}
