package metrics

import (
	"fmt"
	"math"
	"sync"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// BootstrapPaired compares two scorers on the same rows: it returns the difference
//
//	d = stat(a, labels) − stat(b, labels)
//
// and a percentile bootstrap interval [lo, hi] for it at confidence level ∈ (0, 1), where
// each resample draws one set of rows (stratified, as [Curve.Bootstrap] draws them) and evaluates
// both scorers on those same rows: d*_k = stat(a*_k) − stat(b*_k). Pairing keeps the luck of
// the rows, which both scorers share, out of the interval, so it is much narrower than
// either scorer's own; a scorer compared with itself gets d = 0 and [0, 0]. It is the paired
// test for figures without a closed-form variance, such as [TPRAtFPR] or [PartialAUC] at a
// fixed rate (for the AUC, [Curve.DeLongPaired] is exact and faster).
//
// The resamples are those of [Curve.Bootstrap] with the same labels, reps and seed, so
// BootstrapPaired of a statistic that is linear in the scores equals the bootstrap of that
// statistic of the difference a − b. stat must be safe for concurrent use and must not keep its slices. The
// errors are Curve.Bootstrap's, and the input vocabulary's for a, b or labels (rocops.ErrLength when a and
// b differ in length).
func BootstrapPaired(a, b, labels []float64, stat func(scores, labels []float64) (float64, error),
	reps int, level float64, seed uint64) (d, lo, hi float64, err error) {
	if stat == nil {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrConfig, "bootstrap without a statistic")
	}
	if len(a) != len(b) {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrLength, "%d scores of the first scorer, %d of the second", len(a), len(b))
	}
	for _, s := range [][]float64{a, b} {
		if _, _, err := check.Batch(pkg, s, labels); err != nil {
			return 0, 0, 0, err
		}
	}
	da, err := stat(a, labels)
	if err != nil {
		return 0, 0, 0, err
	}
	db, err := stat(b, labels)
	if err != nil {
		return 0, 0, 0, err
	}
	if d = da - db; math.IsNaN(d) || math.IsInf(d, 0) {
		return 0, 0, 0, fmt.Errorf("%w: it returned %v − %v on the data", ErrStatistic, da, db)
	}
	// The bootstrap resamples row numbers: row i of a resample holds the number of the row it
	// drew, and the statistic reads both scorers' scores of those rows.
	rows := make([]float64, len(a))
	for i := range rows {
		rows[i] = float64(i)
	}
	buffers := sync.Pool{New: func() any { return &[2][]float64{make([]float64, len(a)), make([]float64, len(a))} }}
	diff := func(drawn, y []float64) (float64, error) {
		buf := buffers.Get().(*[2][]float64)
		defer buffers.Put(buf)
		sa, sb := buf[0], buf[1]
		for i, r := range drawn {
			sa[i], sb[i] = a[int(r)], b[int(r)]
		}
		va, err := stat(sa, y)
		if err != nil {
			return 0, err
		}
		vb, err := stat(sb, y)
		return va - vb, err
	}
	lo, hi, err = bootstrap(rows, labels, diff, reps, level, seed)
	if err != nil {
		return 0, 0, 0, err
	}
	return d, lo, hi, nil
}
