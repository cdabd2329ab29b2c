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

// NewSplit splits ds 60/20/20 by label (stratified) with the given seed and standardises the
// three parts with the training part's statistics (data.SplitStandardized). A multi-label
// ds (Labels set), which data.Split does not take, is stratified by its rows' label patterns
// instead, the rarest patterns together.
func NewSplit(ds *data.Dataset, seed uint64) (*Split, error) {
	if ds.Labels != nil {
		return splitMultilabel(ds, seed)
	}
	tr, val, te, std, err := data.SplitStandardized(ds, data.SplitConfig{Seed: seed})
	if err != nil {
		return nil, err
	}
	return &Split{Seed: seed, Train: tr, Val: val, Test: te, Std: std}, nil
}
