package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocops/rocops/data"
)

// Split is one seed's data: the training, validation and test parts, standardised with the
// training part's statistics.
type Split struct {
	Seed             uint64
	Train, Val, Test *data.Dataset
	// Std is the standardisation fitted on the training part, which new rows need; the zero
	// value when the parts were prepared otherwise (such as synthetic parts drawn apart).
	Std data.Standardizer
	// Enc, for raw data (text columns, missing values, or text labels with a named positive
	// class), is the encoder fitted on the raw training part, which gives the parts' features
	// before Std; nil for numeric data, whose features are its columns.
	Enc *data.Encoder
}

// NewSplit splits ds 60/20/20, stratified by its strata (by label, by class, or for multi-label
// data by the rows' sets of labels, the rarest sets together), with the given seed and
// standardises the three parts with the training part's statistics (data.SplitStandardized).
// Raw data (see [NewSplitFrom]) is encoded first, by an encoder fitted on the training part.
// A label column of multi-label data without a 1 or without a 0 in a part, which no batch,
// validation or test figure of that part could use, is data.ErrClassTooSmall naming the
// column and the part.
func NewSplit(ds *data.Dataset, seed uint64) (*Split, error) {
	if encodes(ds) {
		tr, val, te, err := data.Split(ds, data.SplitConfig{Seed: seed})
		if err != nil {
			return nil, err
		}
		return NewSplitFrom(tr, val, te, seed)
	}
	tr, val, te, std, err := data.SplitStandardized(ds, data.SplitConfig{Seed: seed})
	if err != nil {
		return nil, err
	}
	if err := checkLabelParts(tr, val, te); err != nil {
		return nil, err
	}
	return &Split{Seed: seed, Train: tr, Val: val, Test: te, Std: std}, nil
}

// encodes reports whether ds needs an encoder: raw columns, or text labels whose values the
// encoder records.
func encodes(ds *data.Dataset) bool { return ds.Raw() || ds.LabelValues != nil }

// NewSplitFrom is the split of parts given apart, such as the training, validation and test
// files of a table (the last two read with data.CSVConfig.Like): when any is raw (text
// columns or missing values, data.Dataset.Raw) or has text labels, an encoder fitted on the
// training part (data.FitEncoder, default settings) encodes all three; then the three are
// standardised with the training part's statistics. The parts are not changed. A label column
// of multi-label parts without a 1 or without a 0 in a part is data.ErrClassTooSmall, as for
// [NewSplit].
func NewSplitFrom(train, val, test *data.Dataset, seed uint64) (*Split, error) {
	if err := checkLabelParts(train, val, test); err != nil {
		return nil, err
	}
	sp := &Split{Seed: seed, Train: train, Val: val, Test: test}
	if encodes(train) || encodes(val) || encodes(test) {
		enc, err := data.FitEncoder(train, data.EncoderConfig{})
		if err != nil {
			return nil, err
		}
		sp.Enc = enc
		for _, p := range []**data.Dataset{&sp.Train, &sp.Val, &sp.Test} {
			if *p, err = enc.Apply(*p); err != nil {
				return nil, err
			}
		}
	}
	std, err := data.FitStandardizer(sp.Train)
	if err != nil {
		return nil, err
	}
	sp.Std = std
	for k, p := range []**data.Dataset{&sp.Train, &sp.Val, &sp.Test} {
		if *p, err = std.Apply(*p); err != nil {
			return nil, fmt.Errorf("%s part: %w", [3]string{"training", "validation", "test"}[k], err)
		}
	}
	return sp, nil
}

// checkLabelParts reports, as data.ErrClassTooSmall, the first label column of multi-label
// parts (training, validation, test) that is 0 on every row of a part or 1 on every row: its
// batches (which need a 1 and a 0 of every label) or its validation or test figures (a
// column's AUC needs both) would fail after the runs before them had trained. The message
// names the column, the part and the column's 1s in every part. Other data passes, as do
// parts of different label columns (which training refuses, naming them).
func checkLabelParts(parts ...*data.Dataset) error {
	k := len(parts[0].Labels)
	for _, part := range parts {
		if k == 0 || !slices.Equal(part.Labels, parts[0].Labels) {
			return nil
		}
	}
	names := [...]string{"training", "validation", "test"}
	ones := make([][]int, len(parts))
	for p, part := range parts {
		ones[p] = make([]int, k)
		for i, y := range part.Y {
			if y == 1 {
				ones[p][i%k]++
			}
		}
	}
	for p, part := range parts {
		for c, n := range ones[p] {
			if n > 0 && n < part.Rows {
				continue
			}
			counts := make([]string, len(parts))
			for q := range parts {
				counts[q] = fmt.Sprintf("%d of %d %s rows", ones[q][c], parts[q].Rows, names[q])
			}
			return fmt.Errorf("%w: label column %q is %d on every row of the %s part (its 1s: %s); every part needs a 1 and a 0 of every label",
				data.ErrClassTooSmall, part.Labels[c], min(n, 1), names[p], strings.Join(counts, ", "))
		}
	}
	return nil
}
