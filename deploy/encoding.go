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
// the CSV fields that spell its values (data.ParquetClassReader.Fields, a null or a NaN
// missing), one row group at a time, and encoded as ScoreCSV encodes a CSV row, so that a
// Parquet file scores as the CSV of the same rows. The label column, when the file has it, is
// read as class names and mapped by the encoder's label values.
func (s *Scorer) scoreParquetEncoded(ctx context.Context, r io.ReaderAt, size int64, w io.Writer) (rows, flagged int, err error) {
	op, enc := s.sc.op, s.sc.op.Encoder
	cols := make([]*data.ParquetClassReader, len(enc.Columns))
	for j, c := range enc.Columns {
		if cols[j], err = data.NewParquetClassReader(r, size, c.Name); err != nil {
			return 0, 0, err
		}
		if cols[j] == nil {
			return 0, 0, &wrapError{fmt.Sprintf("deploy: no column %q, a column of the model", c.Name), data.ErrHeader}
		}
	}
	var labels []*data.ParquetClassReader
	for _, name := range s.labelColumns() {
		lr, err := data.NewParquetClassReader(r, size, name)
		if err != nil {
			return 0, 0, err
		}
		if lr == nil {
			labels = nil // all of a multi-label model's label columns, or none
			break
		}
		labels = append(labels, lr)
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
		n := -1
		for j, c := range cols {
			fields[j], err = c.Fields(fields[j][:0])
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return out.fail(err)
			}
			n = len(fields[j])
		}
		if errors.Is(err, io.EOF) {
			break
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
			z, err := s.sc.st.Transform(x)
			if err != nil {
				return out.fail(fmt.Errorf("deploy: row %d: %w", number, err))
			}
			if err := out.checkRange(z, x, number); err != nil {
				return out.fail(err)
			}
			k := len(out.labels)
			for c := range labels {
				name := names[c][i]
				if op.Multilabel {
					if name != "0" && name != "1" {
						out.labels = out.labels[:k]
						return out.fail(&wrapError{fmt.Sprintf("deploy: column %q, row %d: %q is not a label (want 0 or 1)", op.Classes[c], number, name), rocops.ErrLabel})
					}
					out.labels = append(out.labels, name)
					continue
				}
				y, err := enc.Label(name)
				if ce, ok := err.(*data.CSVError); ok {
					out.labels = out.labels[:k]
					return out.fail(&wrapError{fmt.Sprintf("deploy: column %q, row %d: %s", op.Label, number, ce.Reason), ce.Err})
				}
				if op.Classes == nil {
					name = strconv.Itoa(int(y))
				}
				out.labels = append(out.labels, name)
			}
			out.z = append(out.z, z...)
			out.lines = append(out.lines, number)
			if out.pending() == chunk {
				if err := out.flush(); err != nil {
					return out.rows, out.flagged, err
				}
			}
		}
		if bad != nil {
			return out.fail(bad)
		}
	}
	if err := out.flush(); err != nil {
		return out.rows, out.flagged, err
	}
	if out.rows == 0 {
		return 0, 0, &wrapError{"deploy: the Parquet file has no rows", rocops.ErrEmpty}
	}
	return out.rows, out.flagged, nil
}
