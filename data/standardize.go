package data

import (
	"fmt"
	"math"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/compensated"
	"github.com/rocops/rocops/internal/floats"
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
//
// A feature that cannot be standardised in float64 is [rocops.ErrRange], naming the feature:
// on the training rows, a spread (standard deviation) below the smallest normal float64, about
// 2.2e-308 — a column of subnormal values, which hold too few significant bits to divide by —
// or, when applying, a value that standardises beyond the float64 range (the float32 range for
// a dataset stored in float32).
type Standardizer struct {
	Mean, Std []float64 // one per feature
}

// FitStandardizer computes the mean and standard deviation of every feature of train.
//
// Any finite column is handled at any magnitude, from subnormal values to ±1.8e308: each
// column is first scaled by a power of two that brings its largest |x| into [0.5, 1) (exact
// in binary floating point), its mean is a compensated (Neumaier) sum of the scaled values,
// and its variance the corrected two-pass formula of Chan, Golub and LeVeque ("Algorithms for
// computing the sample variance", The American Statistician, 1983),
//
//	u_i = x_i·2^(−e),  ū = (1/n) Σ u_i,  d_i = u_i − ū,
//	Var u = ( Σ d_i² − (Σ d_i)²/n ) / n,
//
// where the second term removes the rounding error of ū; then Mean = ū·2^e and
// Std = √(Var u)·2^e. Sums of x or of (x − Mean)² are never formed, so nothing overflows or
// underflows, and the relative error is a few roundings. A column whose spread is below the
// normal float64 range cannot be standardised: [rocops.ErrRange] names it.
//
// A dataset stored in float32 is fitted in float64 on its values widened (exactly): the
// Standardizer equals that of the float64 dataset holding the same values.
func FitStandardizer(train *Dataset) (Standardizer, error) {
	if err := train.checkShape(); err != nil {
		return Standardizer{}, err
	}
	if train.Rows == 0 {
		return Standardizer{}, check.Errorf("data", rocops.ErrEmpty, "no rows to fit a standardizer on")
	}
	if train.Raw() {
		return Standardizer{}, fmt.Errorf("%w: raw columns (text or missing values): encode them first (FitEncoder)", ErrShape)
	}
	if train.X32 != nil {
		return fitStandardizer(train, train.X32)
	}
	return fitStandardizer(train, train.X)
}

// fitStandardizer is FitStandardizer of the features x of train.
func fitStandardizer[T floats.Float](train *Dataset, x []T) (Standardizer, error) {
	cols, n := train.Cols, float64(train.Rows)
	lo, hi := make([]float64, cols), make([]float64, cols)
	for j, v := range rowOf(x, 0, cols) {
		lo[j], hi[j] = float64(v), float64(v)
	}
	for i := range train.Rows {
		for j, v := range rowOf(x, i, cols) {
			lo[j], hi[j] = min(lo[j], float64(v)), max(hi[j], float64(v))
		}
	}
	// exp[j] scales column j: max |x| · 2^(−exp[j]) lies in [0.5, 1).
	exp := make([]int, cols)
	scale := make([]scaler, cols)
	for j := range exp {
		_, exp[j] = math.Frexp(max(math.Abs(lo[j]), math.Abs(hi[j])))
		scale[j] = newScaler(-exp[j])
	}
	sum := make([]compensated.Sum, cols) // Σu
	for i := range train.Rows {
		for j, v := range rowOf(x, i, cols) {
			sum[j].Add(scale[j].apply(float64(v)))
		}
	}
	mean := make([]float64, cols)
	for j := range mean {
		mean[j] = sum[j].Value() / n
	}
	sd, ss := make([]float64, cols), make([]float64, cols) // Σd and Σd²
	for i := range train.Rows {
		for j, v := range rowOf(x, i, cols) {
			d := scale[j].apply(float64(v)) - mean[j]
			sd[j] += d
			ss[j] += d * d
		}
	}
	s := Standardizer{Mean: make([]float64, cols), Std: make([]float64, cols)}
	for j := range cols {
		if lo[j] == hi[j] {
			s.Mean[j], s.Std[j] = lo[j], 1
			continue
		}
		s.Mean[j] = math.Ldexp(mean[j], exp[j])
		s.Std[j] = math.Ldexp(math.Sqrt(max(ss[j]-sd[j]*sd[j]/n, 0)/n), exp[j])
		if s.Std[j] < minNormal {
			return Standardizer{}, check.Errorf("data", rocops.ErrRange, "feature %q cannot be standardised: standard deviation %g on %d rows, below the normal float64 range (%g)",
				train.FeatureNames[j], s.Std[j], train.Rows, minNormal)
		}
	}
	return s, nil
}

// minNormal is the smallest positive normal float64, 2^−1022.
const minNormal = 0x1p-1022

// scaler multiplies by 2^k: by the float64 2^k when that is a normal number (exact, and much
// faster than math.Ldexp), else by math.Ldexp, for the columns of subnormals or of values
// near ±1.8e308 whose 2^k is not representable.
type scaler struct {
	k      int
	factor float64 // 2^k, or 0 when it is not a normal float64
}

func newScaler(k int) scaler {
	if k >= -1022 && k <= 1023 {
		return scaler{k: k, factor: math.Ldexp(1, k)}
	}
	return scaler{k: k}
}

func (s scaler) apply(x float64) float64 {
	if s.factor != 0 {
		return x * s.factor
	}
	return math.Ldexp(x, s.k)
}

// Apply returns a standardised copy of ds, in ds's storage: a dataset stored in float32 is
// standardised in float64 and each result rounded to float32, and a result beyond float32's
// range is [rocops.ErrRange]. ds is unchanged.
func (s Standardizer) Apply(ds *Dataset) (*Dataset, error) {
	if err := ds.checkShape(); err != nil {
		return nil, err
	}
	if err := s.check(ds.Cols); err != nil {
		return nil, err
	}
	out := &Dataset{
		Y:            slices.Clone(ds.Y),
		Rows:         ds.Rows,
		Cols:         ds.Cols,
		FeatureNames: slices.Clone(ds.FeatureNames),
		LabelName:    ds.LabelName,
		Classes:      slices.Clone(ds.Classes),
		Labels:       slices.Clone(ds.Labels),
		LabelValues:  slices.Clone(ds.LabelValues),
	}
	var err error
	if ds.X32 != nil {
		out.X32 = make([]float32, len(ds.X32))
		err = applyRows(s, out.X32, ds.X32, ds, "")
	} else {
		out.X = make([]float64, len(ds.X))
		err = applyRows(s, out.X, ds.X, ds, "")
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// applyRows standardises with s the rows of src (ds's features) into dst, which may be src itself,
// and reports the first value that standardises beyond T's range; where says which rows
// the row numbers count in the message ("" for ds's own).
func applyRows[T floats.Float](s Standardizer, dst, src []T, ds *Dataset, where string) error {
	c := ds.Cols
	orig := make([]T, c) // the row before, for the message when dst is src
	for i := range ds.Rows {
		copy(orig, rowOf(src, i, c))
		row := rowOf(dst, i, c)
		if j := transform(s, row, orig); j >= 0 {
			return check.Errorf("data", rocops.ErrRange, "row %d%s, feature %q: %g standardises to %g (mean %g, standard deviation %g)",
				i, where, ds.FeatureNames[j], float64(orig[j]), float64(row[j]), s.Mean[j], s.Std[j])
		}
	}
	return nil
}

// Transform returns a standardised copy of one row of features, for scoring new examples.
func (s Standardizer) Transform(row []float64) ([]float64, error) {
	if err := s.check(len(row)); err != nil {
		return nil, err
	}
	out := make([]float64, len(row))
	if j := transform(s, out, row); j >= 0 {
		return nil, check.Errorf("data", rocops.ErrRange, "feature %d: %g standardises to %g (mean %g, standard deviation %g)",
			j, row[j], out[j], s.Mean[j], s.Std[j])
	}
	return out, nil
}

func (s Standardizer) check(cols int) error {
	if len(s.Mean) != len(s.Std) || len(s.Mean) != cols {
		return fmt.Errorf("%w: standardizer for %d features (%d deviations) applied to %d",
			ErrShape, len(s.Mean), len(s.Std), cols)
	}
	return nil
}

// transform standardises row into dst, computing in float64 and rounding to T, and returns
// the first feature whose finite value standardises to ±Inf or NaN in T, or −1. A difference
// v − Mean beyond the float64 range (values of both signs near ±1.8e308) is formed from halves
// instead.
func transform[T floats.Float](s Standardizer, dst, row []T) int {
	bad := -1
	for j, x := range row {
		v := float64(x)
		d := v - s.Mean[j]
		if math.IsInf(d, 0) {
			dst[j] = T((v/2 - s.Mean[j]/2) / s.Std[j] * 2)
		} else {
			dst[j] = T(d / s.Std[j])
		}
		if r := float64(dst[j]); bad < 0 && !math.IsNaN(v) && !math.IsInf(v, 0) && (math.IsNaN(r) || math.IsInf(r, 0)) {
			bad = j
		}
	}
	return bad
}

// SplitStandardized splits ds as [Split] does and standardises the three parts with a
// Standardizer fitted on the training part alone, which it returns for new data: the
// preparation of every comparison in the module (cmd/roctrain, cmd/corrective and
// docs/results.md). ds is unchanged; the three parts share one new copy of its numbers
// (see [SplitStandardizedInPlace], which makes none).
func SplitStandardized(ds *Dataset, cfg SplitConfig) (train, val, test *Dataset, st Standardizer, err error) {
	if err := ds.checkShape(); err != nil {
		return nil, nil, nil, Standardizer{}, err
	}
	cp := *ds
	cp.X, cp.X32, cp.Y = slices.Clone(ds.X), slices.Clone(ds.X32), slices.Clone(ds.Y)
	return SplitStandardizedInPlace(&cp, cfg)
}

// SplitStandardizedInPlace is [SplitStandardized] without a copy: it consumes ds. The rows
// of ds are permuted in place so that the training, validation and test parts are
// contiguous, each in the order of ds, and then standardised in place; the three parts
// returned are views of ds's memory (ds.X or ds.X32, and ds.Y, hold their rows, in that order, and keep
// Rows, Cols, the names and the number of positives). The parts and the Standardizer equal
// SplitStandardized's bit for bit. On an error ds may have been permuted, and, for a value
// that standardises beyond the float64 range, partly standardised.
func SplitStandardizedInPlace(ds *Dataset, cfg SplitConfig) (train, val, test *Dataset, st Standardizer, err error) {
	order, sizes, err := splitOrder(ds, cfg)
	if err != nil {
		return nil, nil, nil, Standardizer{}, err
	}
	permuteRows(ds, order)
	var out [3]*Dataset
	lo := 0
	for k, n := range sizes {
		out[k] = ds.view(lo, lo+n)
		lo += n
	}
	if st, err = FitStandardizer(out[0]); err != nil {
		return nil, nil, nil, Standardizer{}, err
	}
	const where = " (of the parts in order)"
	if ds.X32 != nil {
		err = applyRows(st, ds.X32, ds.X32, ds, where)
	} else {
		err = applyRows(st, ds.X, ds.X, ds, where)
	}
	if err != nil {
		return nil, nil, nil, Standardizer{}, err
	}
	return out[0], out[1], out[2], st, nil
}
