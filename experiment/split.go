package experiment

import (
	"fmt"

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
	return &Split{Seed: seed, Train: tr, Val: val, Test: te, Std: std}, nil
}

// encodes reports whether ds needs an encoder: raw columns, or text labels whose values the
// encoder records.
func encodes(ds *data.Dataset) bool { return ds.Raw() || ds.LabelValues != nil }

// NewSplitFrom is the split of parts given apart, such as the training, validation and test
// files of a table (the last two read with data.CSVConfig.Like): when any is raw (text
// columns or missing values, data.Dataset.Raw) or has text labels, an encoder fitted on the
// training part (data.FitEncoder, default settings) encodes all three; then the three are
// standardised with the training part's statistics. The parts are not changed.
func NewSplitFrom(train, val, test *data.Dataset, seed uint64) (*Split, error) {
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
