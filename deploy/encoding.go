package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/parquetscan"
)

// encodingJSON is the "encoding" group of a version-4 sidecar: how the raw input columns
// become the model's features (data.Encoder), and the label values of a binary model of text
// labels.
type encodingJSON struct {
	// Columns are the raw columns, in the order of the features they give.
	Columns []columnJSON `json:"columns"`
	// LabelValues are the negative and positive label values of a binary model trained on text
	// labels; null for 0/1 labels (and for a model of classes, whose values are "classes").
	LabelValues []string `json:"label_values"`
}

// columnJSON is one raw column of the encoding.
type columnJSON struct {
	Name string `json:"name"`
	// Kind is "number" (the value, a missing one replaced by median), "text" (one 0/1
	// feature per level of levels, then one for the other levels when other, then one for
	// missing values when missing) or "empty" (no value in training, no feature).
	Kind    string   `json:"kind"`
	Median  float64  `json:"median"`
	Levels  []string `json:"levels"`
	Other   bool     `json:"other"`
	Missing bool     `json:"missing"` // number: a 0/1 feature of missing values follows
}

// newEncoding is the JSON of enc; nil for none.
func newEncoding(enc *data.Encoder) *encodingJSON {
	if enc == nil {
		return nil
	}
	e := &encodingJSON{LabelValues: enc.LabelValues, Columns: make([]columnJSON, len(enc.Columns))}
	for j, c := range enc.Columns {
		kind := "number"
		switch {
		case c.Empty:
			kind = "empty"
		case c.Text:
			kind = "text"
		}
		e.Columns[j] = columnJSON{Name: c.Name, Kind: kind, Median: c.Median, Levels: c.Levels, Other: c.Other, Missing: c.Missing}
		if e.Columns[j].Levels == nil && kind == "text" {
			e.Columns[j].Levels = []string{}
		}
	}
	return e
}

// encoder returns the data.Encoder of e for a model of the given classes (nil for binary).
// Its errors wrap ErrSidecar.
func (e *encodingJSON) encoder(classes []string) (*data.Encoder, error) {
	enc := &data.Encoder{LabelValues: e.LabelValues, Classes: slices.Clone(classes),
		Columns: make([]data.EncodedColumn, len(e.Columns))}
	for j, c := range e.Columns {
		col := data.EncodedColumn{Name: c.Name, Median: c.Median, Levels: c.Levels, Other: c.Other, Missing: c.Missing}
		switch c.Kind {
		case "number":
		case "text":
			col.Text = true
			if len(col.Levels) == 0 {
				col.Levels = nil
			}
		case "empty":
			col.Empty = true
		default:
			return nil, fmt.Errorf("%w: encoding: column %q has kind %q (want number, text or empty)", ErrSidecar, c.Name, c.Kind)
		}
		enc.Columns[j] = col
	}
	if err := enc.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSidecar, err)
	}
	return enc, nil
}

// checkEncoding checks the encoder of sc against its features and label: the model's inputs
// are the encoder's features, in order, and the label column is none of its columns. Its
// errors wrap ErrSidecar.
func (sc *sidecar) checkEncoding() error {
	enc := sc.op.Encoder
	if enc == nil {
		return nil
	}
	if err := enc.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrSidecar, err)
	}
	if names := enc.Names(); !slices.Equal(names, sc.features) {
		return fmt.Errorf("%w: the encoder gives %d features, not the model's %d named in order", ErrSidecar, len(names), len(sc.features))
	}
	for _, c := range enc.Columns {
		if c.Name == sc.op.Label || sc.op.Multilabel && slices.Contains(sc.op.Classes, c.Name) {
			return fmt.Errorf("%w: encoding: column %q is the label", ErrSidecar, c.Name)
		}
	}
	if enc.LabelValues != nil && sc.op.Classes != nil {
		return fmt.Errorf("%w: encoding: label values for a model of classes", ErrSidecar)
	}
	return nil
}

// scoreParquetEncoded is ScoreParquet for a model with an encoder: each raw column is read as
// the CSV fields that spell its values (parquetscan.Classes.Fields, a null or a NaN
// missing), one row group at a time, and encoded as ScoreCSV encodes a CSV row, so that a
// Parquet file scores as the CSV of the same rows. The label column, when the file has it, is
// read as class names and mapped by the encoder's label values.
func (s *Scorer) scoreParquetEncoded(ctx context.Context, r io.ReaderAt, size int64, w io.Writer) (rows, flagged int, err error) {
	enc := s.sc.op.Encoder
	cols, labels, err := s.openEncoded(r, size)
	if err != nil {
		return 0, 0, err
	}
	out := s.newScoreWriter(w, len(labels) > 0)
	out.parquet = true
	if err := out.header(); err != nil {
		return 0, 0, err
	}
	fields := make([][]string, len(cols))
	names := make([][]string, len(labels))
	row := make([]string, len(cols))
	var x []float64
	for {
		if err := ctx.Err(); err != nil {
			return out.fail(fmt.Errorf("deploy: scoring stopped: %w", err))
		}
		n, err := nextFields(cols, fields)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out.fail(err)
		}
		var bad error // a bad label: the rows before it are scored first
		for c, lr := range labels {
			var err error
			if names[c], err = lr.Next(names[c][:0]); err != nil && bad == nil {
				bad, n = err, min(n, len(names[c]))
			}
		}
		for i := range max(n, 0) {
			number := out.rows + out.pending() + 1
			for j := range cols {
				row[j] = fields[j][i]
			}
			x, err = enc.Encode(x[:0], row)
			if ce, ok := err.(*data.CSVError); ok {
				return out.fail(&wrapError{fmt.Sprintf("deploy: column %q, row %d: %s", ce.Column, number, ce.Reason), ce.Err})
			}
			if err != nil {
				return out.fail(err)
			}
			z, err := s.transformRow(out, x, number)
			if err != nil {
				return out.fail(err)
			}
			if err := out.encodedLabels(names, i, number); err != nil {
				return out.fail(err)
			}
			if err := out.add(z, number); err != nil {
				return out.rows, out.flagged, err
			}
		}
		if bad != nil {
			return out.fail(bad)
		}
	}
	return out.finish()
}

// openEncoded opens the raw columns of the encoder of s in the Parquet file r (size bytes)
// as CSV fields (a missing one is data.ErrHeader), and its label columns as class names when
// the file has them all (labels nil otherwise).
func (s *Scorer) openEncoded(r io.ReaderAt, size int64) (cols, labels []parquetscan.Classes, err error) {
	enc := s.sc.op.Encoder
	cols = make([]parquetscan.Classes, len(enc.Columns))
	for j, c := range enc.Columns {
		if cols[j], err = parquetscan.ClassColumn(r, size, c.Name); err != nil {
			return nil, nil, err
		}
		if cols[j] == nil {
			return nil, nil, &wrapError{fmt.Sprintf("deploy: no column %q, a column of the model", c.Name), data.ErrHeader}
		}
	}
	for _, name := range s.labelColumns() {
		lr, err := parquetscan.ClassColumn(r, size, name)
		if err != nil {
			return nil, nil, err
		}
		if lr == nil {
			return cols, nil, nil // all of a multi-label model's label columns, or none
		}
		labels = append(labels, lr)
	}
	return cols, labels, nil
}

// nextFields reads the next row group of every column of cols into fields[j][:0] and returns
// the rows of the last column read (−1 for no columns); io.EOF at the end of the file.
func nextFields(cols []parquetscan.Classes, fields [][]string) (n int, err error) {
	n = -1
	for j, c := range cols {
		if fields[j], err = c.Fields(fields[j][:0]); err != nil {
			return n, err
		}
		n = len(fields[j])
	}
	return n, nil
}

// encodedLabels appends the labels of row i (number number) of a Parquet row group of a
// model with an encoder, names[c][i] of label column c, to o.labels: each 0 or 1 for a
// multi-label model (rocops.ErrLabel otherwise), else mapped by the encoder's label values,
// written as the class index of a binary model. On an error none of the row's labels is kept.
func (o *scoreWriter) encodedLabels(names [][]string, i, number int) error {
	op := o.s.sc.op
	k := len(o.labels)
	for c := range names {
		name := names[c][i]
		if op.Multilabel {
			if name != "0" && name != "1" {
				o.labels = o.labels[:k]
				return &wrapError{fmt.Sprintf("deploy: column %q, row %d: %q is not a label (want 0 or 1)", op.Classes[c], number, name), rocops.ErrLabel}
			}
			o.labels = append(o.labels, name)
			continue
		}
		y, err := op.Encoder.Label(name)
		if ce, ok := err.(*data.CSVError); ok {
			o.labels = o.labels[:k]
			return &wrapError{fmt.Sprintf("deploy: column %q, row %d: %s", op.Label, number, ce.Reason), ce.Err}
		}
		if op.Classes == nil {
			name = strconv.Itoa(int(y))
		}
		o.labels = append(o.labels, name)
	}
	return nil
}
