package experiment

import "github.com/rocops/rocops/data"

// Split is one seed's data: the training, validation and test parts, standardised with the
// training part's statistics.
type Split struct {
	Seed             uint64
	Train, Val, Test *data.Dataset
	// Std is the standardisation fitted on the training part, which new rows need; the zero
	// value when the parts were prepared otherwise (such as synthetic parts drawn apart).
	Std data.Standardizer
}

// NewSplit splits ds 60/20/20, stratified by its strata (by label, by class, or for multi-label
// data by the rows' sets of labels, the rarest sets together), with the given seed and
// standardises the three parts with the training part's statistics (data.SplitStandardized).
func NewSplit(ds *data.Dataset, seed uint64) (*Split, error) {
	tr, val, te, std, err := data.SplitStandardized(ds, data.SplitConfig{Seed: seed})
	if err != nil {
		return nil, err
	}
	return &Split{Seed: seed, Train: tr, Val: val, Test: te, Std: std}, nil
}
