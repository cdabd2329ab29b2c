package data

import (
	"fmt"
	"math"
	"slices"
)

// A Standardizer rescales each feature to zero mean and unit variance on the data it was
// fitted on:
//
//	x′_ij = (x_ij − Mean_j) / Std_j
//
// with Mean_j and Std_j the mean and population standard deviation (dividing by the number
// of rows, as scikit-learn's StandardScaler does) of feature j over the training rows. Fit it
// on the training part only, then apply it to every part, so that no statistic of the
// validation or test rows leaks into training.
//
// A feature constant on the training rows has Std_j = 1 (not 0) and Mean_j equal to its
// value, so it becomes 0 there instead of NaN.
type Standardizer struct {
	Mean, Std []float64 // one per feature
}

// FitStandardizer computes the mean and standard deviation of every feature of train.
func FitStandardizer(train *Dataset) (Standardizer, error) {
	if err := train.checkShape(); err != nil {
		return Standardizer{}, err
	}
	if train.Rows == 0 {
		return Standardizer{}, fmt.Errorf("%w: no rows to fit a standardizer on", ErrEmpty)
	}
	cols, n := train.Cols, float64(train.Rows)
	s := Standardizer{Mean: make([]float64, cols), Std: make([]float64, cols)}
	lo, hi := slices.Clone(train.Row(0)), slices.Clone(train.Row(0))
	for i := range train.Rows {
		for j, v := range train.Row(i) {
			s.Mean[j] += v
			lo[j], hi[j] = min(lo[j], v), max(hi[j], v)
		}
	}
	for j := range s.Mean {
		s.Mean[j] /= n
	}
	// Second pass over the deviations: no cancellation, unlike Σx² − n·mean².
	for i := range train.Rows {
		for j, v := range train.Row(i) {
			d := v - s.Mean[j]
			s.Std[j] += d * d
		}
	}
	for j := range s.Std {
		if lo[j] == hi[j] {
			s.Mean[j], s.Std[j] = lo[j], 1
			continue
		}
		s.Std[j] = math.Sqrt(s.Std[j] / n)
	}
	return s, nil
}

// Apply returns a standardised copy of ds; ds is unchanged.
func (s Standardizer) Apply(ds *Dataset) (*Dataset, error) {
	if err := ds.checkShape(); err != nil {
		return nil, err
	}
	if err := s.check(ds.Cols); err != nil {
		return nil, err
	}
	out := &Dataset{
		X:            make([]float64, len(ds.X)),
		Y:            slices.Clone(ds.Y),
		Rows:         ds.Rows,
		Cols:         ds.Cols,
		FeatureNames: slices.Clone(ds.FeatureNames),
		LabelName:    ds.LabelName,
	}
	for i := range ds.Rows {
		s.transform(out.Row(i), ds.Row(i))
	}
	return out, nil
}

// Transform returns a standardised copy of one row of features, for scoring new examples.
func (s Standardizer) Transform(row []float64) ([]float64, error) {
	if err := s.check(len(row)); err != nil {
		return nil, err
	}
	out := make([]float64, len(row))
	s.transform(out, row)
	return out, nil
}

func (s Standardizer) check(cols int) error {
	if len(s.Mean) != len(s.Std) || len(s.Mean) != cols {
		return fmt.Errorf("%w: standardizer for %d features (%d deviations) applied to %d",
			ErrShape, len(s.Mean), len(s.Std), cols)
	}
	return nil
}

func (s Standardizer) transform(dst, row []float64) {
	for j, v := range row {
		dst[j] = (v - s.Mean[j]) / s.Std[j]
	}
}
