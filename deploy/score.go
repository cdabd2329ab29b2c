package deploy

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/floats"
	"github.com/rocops/rocops/internal/parquetscan"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
)

// Scorer is a loaded deployed model: it standardises raw feature rows as in training, scores
// them and flags those at or above the threshold (of each class, for a multi-class or
// multi-label model). Its methods are safe for concurrent use;
// scoring calls run one at a time (Load one Scorer per worker to score in parallel).
type Scorer struct {
	mu       sync.Mutex
	scorer   *nn.Scorer
	model    nn.Model
	sc       *sidecar
	sidecar  string
	modelRef string
}

// chunk is the number of rows ScoreCSV scores at once, which bounds its memory.
const chunk = 4096

func newScorer(m nn.Model, sc *sidecar, sidecarPath, modelPath string) (*Scorer, error) {
	s, err := nn.NewScorer(m)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	return &Scorer{scorer: s, model: m, sc: sc, sidecar: sidecarPath, modelRef: modelPath}, nil
}

// Features returns the names of the model's input columns, in the order Score takes them.
func (s *Scorer) Features() []string { return slices.Clone(s.sc.features) }

// OperatingPoint returns (a copy of) the whole operating point the sidecar records.
func (s *Scorer) OperatingPoint() OperatingPoint { return s.sc.op.clone() }

// Spec returns the model's architecture and dtype.
func (s *Scorer) Spec() ModelSpec { return s.sc.spec }

// Standardizer returns a copy of the standardisation applied to raw features before scoring.
func (s *Scorer) Standardizer() data.Standardizer {
	return data.Standardizer{Mean: slices.Clone(s.sc.st.Mean), Std: slices.Clone(s.sc.st.Std)}
}

// Version returns the format version of the sidecar that was loaded: 1, 2, or 3 for a
// multi-class or multi-label model, or 4 for thresholds chosen with a confidence
// ([OperatingPoint.Confidence]) or a model of raw columns ([OperatingPoint.Encoder]).
func (s *Scorer) Version() int { return s.sc.version }

// SidecarPath returns the path of the sidecar that was loaded.
func (s *Scorer) SidecarPath() string { return s.sidecar }

// Model returns the loaded model, for programs that evaluate it themselves (nn.Scores takes
// standardised rows and returns the outputs, before any softmax of Probabilities). Changing
// its parameters changes what the Scorer returns.
func (s *Scorer) Model() nn.Model { return s.model }

// ModelPath returns the path of the model file that was loaded, the one the sidecar names.
func (s *Scorer) ModelPath() string { return s.modelRef }

// Flag reports whether a score is flagged: score ≥ Threshold(). A multi-class or multi-label
// model flags nothing by it (its Threshold() is +Inf): use FlagClass.
func (s *Scorer) Flag(score float64) bool { return score >= s.sc.op.Threshold }

// FlagClass reports whether the score of class c (0 ≤ c < Outputs()) is flagged: score ≥
// Thresholds()[c]. For a binary model class 0 is its one score, and FlagClass(0, s) is Flag(s).
// A class out of range flags nothing.
func (s *Scorer) FlagClass(c int, score float64) bool {
	if s.sc.op.Classes == nil {
		return c == 0 && s.Flag(score)
	}
	return c >= 0 && c < len(s.sc.op.Thresholds) && score >= s.sc.op.Thresholds[c]
}

// Score returns the model's scores of rows raw (unstandardised) feature rows, held in x one
// row after the other, each row's values in the order of Features() (for a model with an
// Encoder, its features: Encoder().Encode gives them from a row's raw columns): one score per row for a
// binary model, and for a model of k = Outputs() classes or labels, k per row, row-major (the
// score of row i and class c at i·k + c), the softmax of the outputs when Probabilities(). It
// standardises the rows with the training part's statistics, as ScoreCSV does, so the same
// row gets the same scores bit for bit. A wrong length, a non-finite value (an error naming
// the row and the feature), a value that standardises beyond float64 or a score that overflows
// (both rocops.ErrRange) is an error, and then no score is returned.
func (s *Scorer) Score(x []float64, rows int) ([]float64, error) {
	in := len(s.sc.features)
	if rows < 1 || rows > len(x)/max(in, 1) || len(x) != rows*in { // rows·in cannot overflow past the second test
		return nil, fmt.Errorf("deploy: %d values for %d rows of %d features", len(x), rows, in)
	}
	z := make([]float64, len(x))
	for i := range rows {
		row := x[i*in : (i+1)*in]
		for j, v := range row {
			if !finite(v) {
				return nil, fmt.Errorf("deploy: row %d, feature %q is %v", i, s.sc.features[j], v)
			}
		}
		t, err := s.sc.st.Transform(row)
		if err != nil {
			return nil, fmt.Errorf("deploy: row %d: %w", i, err)
		}
		copy(z[i*in:], t)
	}
	return s.scoreStandardized(z, rows)
}

func (s *Scorer) scoreStandardized(z []float64, rows int) ([]float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scorer == nil {
		return nil, errors.New("deploy: the scorer is closed")
	}
	scores, err := nn.ScoresWith(s.scorer, z, rows)
	if err != nil || !s.sc.op.Probabilities {
		return scores, err
	}
	return crossentropy.Softmax(scores, s.sc.net.out)
}

// Close releases what the scorer built for scoring; it must not be used afterwards.
func (s *Scorer) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scorer != nil {
		s.scorer.Close()
		s.scorer = nil
	}
}

// ScoreCSV scores the rows of CSV text r and writes CSV to w: a header, then one line per
// data row in the order of r. For a binary model the header is "row,<label>,score,flag" and a
// line holds the row's 1-based number, its label (0 or 1) when r has a column named Label()
// (else no label field), the score in Go's shortest float formatting, and the flag, 1 when
// score ≥ Threshold(), else 0. It returns the number of rows written and of those flagged.
//
// For a model of k classes or labels c₁…c_k (Classes()) the header is
//
//	row,<label>,score_c₁,…,score_c_k,flag_c₁,…,flag_c_k
//
// and a line holds the row number, the label fields, the k scores (Score's, probabilities
// when Probabilities()) and the k flags, flag_c 1 when score_c ≥ Thresholds()[c]. A class
// name that needs quoting (a comma, a quote) is quoted by CSV's rules. The label fields of a
// multi-class model are the one field <label> = Label() when r has that column: the row's
// class name as written there (trimmed of spaces; a value that is none of Classes(), such as
// a class new since training, is written all the same, as read). Those of a multi-label
// model are its label columns c₁…c_k, each 0 or 1, when r has every one of them (else none).
// flagged counts the rows with at least one class flagged.
//
// r needs a header naming at least Features() (for a model with an Encoder, its raw columns,
// each row encoded as data.Encoder.Encode encodes it, and a label, when present, among the
// training data's values), in any order; other columns are ignored. It
// is read by the rules of [data.ReadCSV], through [data.TableReader]: its limits on fields,
// rows and columns, no duplicate column name, exactly the header's number of fields in every
// row, no missing or non-finite feature, a 0/1 label (of a binary model, and each label
// column of a multi-label one) and a class name neither empty nor a missing-value marker (of
// a multi-class one, [data.ClassName]); each fault is a *data.CSVError naming the line and
// column, after the rows before it have been written. So are a feature that standardises
// beyond a float32 model's range and a row whose score overflows the model's dtype (wrapping
// rocops.ErrRange; the row, not its column, is named then). No data row is rocops.ErrEmpty. It
// streams: it holds at most 4096 rows at a time, and writes them before reading on. A
// failure to write (such as a closed pipe) is returned wrapped.
func (s *Scorer) ScoreCSV(r io.Reader, w io.Writer) (rows, flagged int, err error) {
	return s.ScoreCSVContext(context.Background(), r, w)
}

// ScoreCSVContext is ScoreCSV stopping between rows once ctx is done: it then scores and
// writes the rows it has read and returns ctx's error, wrapped. (A read blocked on r returns
// only when r does: to stop a blocked pipe, close it when ctx is done.)
func (s *Scorer) ScoreCSVContext(ctx context.Context, r io.Reader, w io.Writer) (rows, flagged int, err error) {
	tr, err := data.NewTableReader(r, data.CSVConfig{})
	if err != nil {
		return 0, 0, err
	}
	col := make(map[string]int, len(tr.Names()))
	for j, name := range tr.Names() {
		col[name] = j
	}
	features := s.inputs()
	feature := make([]int, len(features)) // feature k (raw column k, with an encoder) is column feature[k]
	for k, name := range features {
		j, ok := col[name]
		if !ok {
			return 0, 0, &data.CSVError{Line: tr.HeaderLine(), Err: data.ErrHeader,
				Reason: fmt.Sprintf("no column %q, a feature of the model", name)}
		}
		feature[k] = j
	}
	var labels []int // the columns of the label fields
	for _, name := range s.labelColumns() {
		j, ok := col[name]
		if !ok {
			labels = nil // all of a multi-label model's label columns, or none
			break
		}
		labels = append(labels, j)
	}

	out := s.newScoreWriter(w, len(labels) > 0)
	if err := out.header(); err != nil {
		return 0, 0, err
	}
	raw := make([]float64, len(s.sc.features))
	for {
		if err := ctx.Err(); err != nil {
			if ferr := out.flush(); ferr != nil {
				return out.rows, out.flagged, ferr
			}
			return out.rows, out.flagged, fmt.Errorf("deploy: scoring stopped: %w", err)
		}
		line, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			err = out.read(tr, feature, labels, raw, line)
		}
		if err != nil {
			if ferr := out.flush(); ferr != nil {
				return out.rows, out.flagged, ferr
			}
			return out.rows, out.flagged, err
		}
		if out.pending() == chunk {
			if err := out.flush(); err != nil {
				return out.rows, out.flagged, err
			}
		}
	}
	if err := out.flush(); err != nil {
		return out.rows, out.flagged, err
	}
	if out.rows == 0 {
		return 0, 0, &data.CSVError{Reason: "no data rows after the header", Err: rocops.ErrEmpty}
	}
	return out.rows, out.flagged, nil
}

// inputs returns the input columns a row needs: the encoder's raw columns, or the features.
func (s *Scorer) inputs() []string {
	enc := s.sc.op.Encoder
	if enc == nil {
		return s.sc.features
	}
	names := make([]string, len(enc.Columns))
	for j, c := range enc.Columns {
		names[j] = c.Name
	}
	return names
}

// labelColumns returns the input columns whose values ScoreCSV copies: Label() (none when
// ""), or a multi-label model's label columns.
func (s *Scorer) labelColumns() []string {
	switch {
	case s.sc.op.Multilabel:
		return s.sc.op.Classes
	case s.sc.op.Label != "":
		return []string{s.sc.op.Label}
	}
	return nil
}

// ScoreParquet is [Scorer.ScoreCSV] for a Parquet file r of size bytes: it reads the feature
// columns by name and the label columns when the file has them, ignoring every other column
// (package data's Parquet reader, with its checks of every value), one row group at a time, and
// writes the same CSV as ScoreCSV, rows numbered from 1 in file order. The label column of a
// binary model, and each label column of a multi-label one, is numeric or boolean, each value
// 0 or 1 (else rocops.ErrLabel); that of a multi-class model is text or numeric, its class names
// written as [data.ClassName] reads them from text (trimmed; empty, a missing-value marker or
// null is data.ErrMissing), integers in decimal and floating-point numbers in Go's shortest
// formatting. A bad value is an error naming its column and row, after the rows before it
// have been written, as ScoreCSV does; it stops between row groups once ctx is done, after
// writing every row read. A file without rows is rocops.ErrEmpty.
func (s *Scorer) ScoreParquet(ctx context.Context, r io.ReaderAt, size int64, w io.Writer) (rows, flagged int, err error) {
	op := s.sc.op
	if op.Encoder != nil {
		return s.scoreParquetEncoded(ctx, r, size, w)
	}
	pr, classes, hasLabels, err := s.openParquet(r, size)
	if err != nil {
		return 0, 0, err
	}
	out := s.newScoreWriter(w, hasLabels)
	out.parquet = true
	if err := out.header(); err != nil {
		return 0, 0, err
	}
	in, width := len(s.sc.features), len(pr.FeatureNames())
	var x, y []float64
	var names []string
	for {
		if err := ctx.Err(); err != nil {
			return out.fail(fmt.Errorf("deploy: scoring stopped: %w", err))
		}
		// A bad value comes back with the rows of its row group before it (data's Next; the
		// class column's reader likewise), which are written before the error is returned.
		x, y, err = pr.Next(x, y)
		if errors.Is(err, io.EOF) {
			break
		}
		rows := len(y)
		if classes != nil && (err == nil || rows > 0) {
			var cerr error
			names, cerr = classes.next(names[:0])
			if cerr != nil && (err == nil || len(names) < rows) { // the class column's bad row comes first
				rows, err = min(rows, len(names)), cerr
			}
		}
		for i := range rows {
			row := out.rows + out.pending() + 1
			xi := x[i*width : (i+1)*width]
			z, err := s.transformRow(out, xi[:in], row)
			if err != nil {
				return out.fail(err)
			}
			switch {
			case !hasLabels:
			case classes != nil:
				out.labels = append(out.labels, names[i])
			default:
				if err := out.numericLabels(xi[in:], y[i], row); err != nil {
					return out.fail(err)
				}
			}
			if err := out.add(z, row); err != nil {
				return out.rows, out.flagged, err
			}
		}
		if err != nil {
			return out.fail(err)
		}
	}
	return out.finish()
}

// openParquet opens the columns ScoreParquet reads of the Parquet file r (size bytes) for a
// model without an encoder: the features, and the label columns when the file has them
// (hasLabels) — a multi-label model's read as more numeric columns after the features, a
// multi-class model's as class names (classes).
func (s *Scorer) openParquet(r io.ReaderAt, size int64) (pr parquetscan.Rows, classes *classColumn, hasLabels bool, err error) {
	op := s.sc.op
	switch {
	case op.Classes == nil:
		pr, err = parquetscan.Columns(r, size, s.sc.features, op.Label)
		hasLabels = err == nil && pr.HasLabel()
	case op.Multilabel: // the label columns read as more numeric columns, when all are there
		pr, err = parquetscan.Columns(r, size, append(slices.Clone(s.sc.features), op.Classes...), "")
		hasLabels = err == nil
		if errors.Is(err, data.ErrHeader) { // a column missing: a label column, or a feature this names
			pr, err = parquetscan.Columns(r, size, s.sc.features, "")
		}
	default:
		if pr, err = parquetscan.Columns(r, size, s.sc.features, ""); err == nil && op.Label != "" {
			classes, err = openClassColumn(r, size, op.Label)
			hasLabels = classes != nil
		}
	}
	return pr, classes, hasLabels, err
}

// numericLabels appends the labels of Parquet row number row of a binary or multi-label
// model to o.labels: the values v of a multi-label model's label columns, each 0 or 1
// (rocops.ErrLabel naming the column otherwise, with none of the row's labels kept), or the
// binary label y.
func (o *scoreWriter) numericLabels(v []float64, y float64, row int) error {
	if !o.s.sc.op.Multilabel {
		o.labels = append(o.labels, strconv.Itoa(int(y)))
		return nil
	}
	for c, l := range v {
		if l != 0 && l != 1 {
			o.labels = o.labels[:len(o.labels)-c]
			return &wrapError{fmt.Sprintf("deploy: column %q, row %d: %v is not a label (want 0 or 1)",
				o.s.sc.op.Classes[c], row, l), rocops.ErrLabel}
		}
		o.labels = append(o.labels, strconv.Itoa(int(l)))
	}
	return nil
}

// transformRow standardizes the features x of row number row and checks that the
// standardized values are finite (checkRange), naming the row.
func (s *Scorer) transformRow(o *scoreWriter, x []float64, row int) ([]float64, error) {
	z, err := s.sc.st.Transform(x)
	if err != nil {
		return nil, fmt.Errorf("deploy: row %d: %w", row, err)
	}
	if err := o.checkRange(z, x, row); err != nil {
		return nil, err
	}
	return z, nil
}

// add appends the standardized features z of row number row, whose labels are appended
// already, to the pending rows, and writes them when a chunk is full; the error is flush's.
func (o *scoreWriter) add(z []float64, row int) error {
	o.z = append(o.z, z...)
	o.lines = append(o.lines, row)
	if o.pending() == chunk {
		return o.flush()
	}
	return nil
}

// finish writes the pending rows of a Parquet file and returns the rows written and flagged;
// a file without rows is rocops.ErrEmpty.
func (o *scoreWriter) finish() (rows, flagged int, err error) {
	if err := o.flush(); err != nil {
		return o.rows, o.flagged, err
	}
	if o.rows == 0 {
		return 0, 0, &wrapError{"deploy: the Parquet file has no rows", rocops.ErrEmpty}
	}
	return o.rows, o.flagged, nil
}

// wrapError is an error that says msg and wraps err, whose own message it leaves out.
type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

// fail writes the pending rows and returns err, with the rows written and flagged; a failure
// to write them is returned in its place.
func (o *scoreWriter) fail(err error) (rows, flagged int, _ error) {
	if ferr := o.flush(); ferr != nil {
		return o.rows, o.flagged, ferr
	}
	return o.rows, o.flagged, err
}

// scoreWriter holds ScoreCSV's pending rows and writes them.
type scoreWriter struct {
	s             *Scorer
	w             *csv.Writer
	k             int       // scores per row
	hasLabels     bool      // whether each row has label fields
	z             []float64 // the pending rows' standardised features
	labels        []string  // their label fields, row after row
	lines         []int
	rows, flagged int  // written so far
	parquet       bool // the rows are a Parquet file's, numbered as rows, not lines
}

func (s *Scorer) newScoreWriter(w io.Writer, hasLabels bool) *scoreWriter {
	return &scoreWriter{s: s, w: csv.NewWriter(w), k: s.sc.net.out, hasLabels: hasLabels}
}

func (o *scoreWriter) pending() int { return len(o.lines) }

// header writes the header: row, the label columns, then score and flag, or score_c… and
// flag_c… for a model of classes.
func (o *scoreWriter) header() error {
	head := []string{"row"}
	if o.hasLabels {
		head = append(head, o.s.labelColumns()...)
	}
	if classes := o.s.sc.op.Classes; classes == nil {
		head = append(head, "score", "flag")
	} else {
		for _, prefix := range []string{"score_", "flag_"} {
			for _, c := range classes {
				head = append(head, prefix+c)
			}
		}
	}
	if err := o.w.Write(head); err != nil {
		return fmt.Errorf("deploy: writing scores: %w", err)
	}
	return nil
}

// read appends the current row of tr: its features from the columns feature, its label
// fields from the columns labels.
func (o *scoreWriter) read(tr *data.TableReader, feature, labels []int, raw []float64, line int) error {
	enc := o.s.sc.op.Encoder
	if enc != nil {
		var err error
		if raw, err = tr.Encode(enc, feature, raw[:0]); err != nil {
			return err
		}
	}
	for k, j := range feature {
		if enc != nil {
			break
		}
		v, err := tr.Feature(j)
		if err != nil {
			return err
		}
		raw[k] = v
	}
	z, err := o.s.sc.st.Transform(raw)
	if err != nil {
		return &data.CSVError{Line: line, Reason: strings.TrimPrefix(err.Error(), "data: "), Err: err}
	}
	if err := o.checkRange(z, raw, line); err != nil {
		return err
	}
	n := len(o.labels)
	for _, j := range labels {
		if enc != nil && !o.s.sc.op.Multilabel { // by the training data's label values
			name, err := tr.Class(j)
			var y float64
			if err == nil {
				y, err = enc.Label(name)
			}
			if ce, ok := err.(*data.CSVError); ok && ce.Line == 0 {
				ce.Line, ce.Column = line, o.s.sc.op.Label
			}
			if err != nil {
				o.labels = o.labels[:n]
				return err
			}
			if o.s.sc.op.Classes == nil {
				name = strconv.Itoa(int(y))
			}
			o.labels = append(o.labels, name)
			continue
		}
		if o.s.sc.op.Classes != nil && !o.s.sc.op.Multilabel {
			name, err := tr.Class(j)
			if err != nil {
				o.labels = o.labels[:n]
				return err
			}
			o.labels = append(o.labels, name)
			continue
		}
		y, err := tr.Label(j)
		if err != nil {
			o.labels = o.labels[:n]
			return err
		}
		o.labels = append(o.labels, strconv.Itoa(int(y)))
	}
	o.z = append(o.z, z...)
	o.lines = append(o.lines, line)
	return nil
}

// flush scores and writes the pending rows, then flushes w. When a row's score overflows,
// it writes the rows before it and returns an error naming its line (its row, for Parquet).
func (o *scoreWriter) flush() error {
	var overflow error
	if n := len(o.lines); n > 0 {
		nl := len(o.labels) / n // label fields per row
		scores, err := o.s.scoreStandardized(o.z, n)
		if errors.Is(err, rocops.ErrRange) {
			// The first row whose score overflows: the shortest prefix of the rows that fails.
			in := len(o.z) / n
			ok, bad := 0, n
			for bad-ok > 1 {
				mid := (ok + bad) / 2
				if _, err := o.s.scoreStandardized(o.z[:mid*in], mid); err == nil {
					ok = mid
				} else {
					bad = mid
				}
			}
			overflow = o.rowError(o.lines[bad-1], "", rocops.ErrRange, "the row's score overflows %v, the model's dtype", o.s.sc.spec.Dtype)
			scores, err, n = nil, nil, ok
			if n > 0 {
				scores, err = o.s.scoreStandardized(o.z[:n*in], n)
			}
		}
		if err != nil {
			return fmt.Errorf("deploy: the rows of lines %d to %d: %w", o.lines[0], o.lines[n-1], err)
		}
		rec := make([]string, 0, 1+nl+2*o.k)
		for i := range n {
			rec = append(rec[:0], strconv.Itoa(o.rows+1))
			rec = append(rec, o.labels[i*nl:(i+1)*nl]...)
			row := scores[i*o.k : (i+1)*o.k]
			for _, score := range row {
				rec = append(rec, strconv.FormatFloat(score, 'g', -1, 64))
			}
			some := false
			for c, score := range row {
				flag := "0"
				if o.s.FlagClass(c, score) {
					flag, some = "1", true
				}
				rec = append(rec, flag)
			}
			if err := o.w.Write(rec); err != nil {
				return fmt.Errorf("deploy: writing scores: %w", err)
			}
			o.rows++
			if some {
				o.flagged++
			}
		}
		o.z, o.labels, o.lines = o.z[:0], o.labels[:0], o.lines[:0]
	}
	if o.w.Flush(); o.w.Error() != nil {
		return fmt.Errorf("deploy: writing scores: %w", o.w.Error())
	}
	return overflow
}

// rowError is the error of line (of row, for Parquet), in column when not "", wrapping err.
func (o *scoreWriter) rowError(line int, column string, err error, format string, args ...any) error {
	reason := fmt.Sprintf(format, args...)
	if !o.parquet {
		return &data.CSVError{Line: line, Column: column, Reason: reason, Err: err}
	}
	where := fmt.Sprintf("row %d", line)
	if column != "" {
		where = fmt.Sprintf("column %q, row %d", column, line)
	}
	return &wrapError{fmt.Sprintf("deploy: %s: %s", where, reason), err}
}

// checkRange returns an error naming the feature when a standardised row z has a value beyond
// a float32 model's range, which the model would refuse (rocops.ErrRange); raw is the row.
func (o *scoreWriter) checkRange(z, raw []float64, line int) error {
	if o.s.sc.spec.Dtype != tensor.Float32 {
		return nil
	}
	for k, v := range z {
		if !floats.Fits[float32](v) {
			return o.rowError(line, o.s.sc.features[k], rocops.ErrRange, "%g standardises to %g, beyond the range of the model's float32", raw[k], v)
		}
	}
	return nil
}
