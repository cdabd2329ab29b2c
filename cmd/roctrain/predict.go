package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
)

// predictChunk is the number of rows scored at once, which bounds -predict's memory.
const predictChunk = 4096

// predict is -predict model.params -data new.csv: it scores every row of the CSV with the
// model, standardised as in training, and prints one CSV line per row on stdout — its
// 1-based row number, the score and the flag, 1 when score ≥ the sidecar's threshold — with
// the label column copied when the CSV has one. The CSV needs a header naming at least the
// model's feature columns, in any order; other columns are ignored.
func predict(o *options, stdout, stderr io.Writer) error {
	m, sc, err := loadDeployment(o.predict)
	if err != nil {
		return err
	}
	if o.data == "" {
		return errors.New("-predict needs -data: the CSV of the rows to classify")
	}
	f, err := os.Open(o.data)
	if err != nil {
		return err
	}
	defer f.Close()
	rr := data.NewRowReader(f, data.CSVConfig{}) // -data's limits on fields, rows and columns
	header, _, err := rr.Read()
	if err != nil {
		return fmt.Errorf("%s: reading the header: %w", o.data, err)
	}
	cols := make(map[string]int, len(header))
	for j, name := range header {
		cols[strings.TrimSpace(name)] = j
	}
	feature := make([]int, len(sc.Features)) // feature k is column feature[k]
	for k, name := range sc.Features {
		j, ok := cols[name]
		if !ok {
			return fmt.Errorf("%s: no column %q, a feature of the model", o.data, name)
		}
		feature[k] = j
	}
	labelCol, hasLabel := cols[sc.Label]

	threshold := math.Inf(1) // nothing is flagged when no threshold kept validation FPR ≤ α
	if sc.Threshold != nil {
		threshold = *sc.Threshold
	}
	std := sc.standardizer()
	w := csv.NewWriter(stdout)
	head := []string{"row", "score", "flag"}
	if hasLabel {
		head = []string{"row", sc.Label, "score", "flag"}
	}
	if err := w.Write(head); err != nil {
		return err
	}
	var (
		x      []float64 // standardised features of the pending rows
		labels []string
		rows   int
		flags  int
	)
	flush := func() error {
		if len(x) == 0 {
			return nil
		}
		n := len(x) / len(feature)
		scores, err := nn.Scores(m, x, n)
		if err != nil {
			return err
		}
		for i, s := range scores {
			flag := "0"
			if s >= threshold {
				flag, flags = "1", flags+1
			}
			out := []string{strconv.Itoa(rows - n + i + 1), strconv.FormatFloat(s, 'g', -1, 64), flag}
			if hasLabel {
				out = []string{out[0], labels[i], out[1], out[2]}
			}
			if err := w.Write(out); err != nil {
				return err
			}
		}
		x, labels = x[:0], labels[:0]
		return nil
	}
	raw := make([]float64, len(feature))
	for {
		rec, line, err := rr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", o.data, err)
		}
		for k, j := range feature {
			if j >= len(rec) {
				return fmt.Errorf("%s: line %d: %d fields, column %q missing", o.data, line, len(rec), sc.Features[k])
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(rec[j]), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s: line %d, column %q: %q is not a finite number", o.data, line, sc.Features[k], rec[j])
			}
			raw[k] = v
		}
		z, err := std.Transform(raw)
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", o.data, line, err)
		}
		x = append(x, z...)
		if hasLabel {
			if labelCol >= len(rec) {
				return fmt.Errorf("%s: line %d: %d fields, column %q missing", o.data, line, len(rec), sc.Label)
			}
			labels = append(labels, strings.TrimSpace(rec[labelCol]))
		}
		rows++
		if rows%predictChunk == 0 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if w.Flush(); w.Error() != nil {
		return w.Error()
	}
	if rows == 0 {
		return fmt.Errorf("%s: no rows to classify", o.data)
	}
	fmt.Fprintf(stderr, "roctrain: flagged %d of %d rows: score ≥ %v, the threshold that kept validation FPR ≤ α = %g (%s, seed %d)\n",
		flags, rows, threshold, sc.Alpha, sc.Model, sc.Seed)
	return nil
}
