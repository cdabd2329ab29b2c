package metrics

import (
	"fmt"
	"math"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// BootstrapRows returns a stratified percentile bootstrap interval at confidence level ∈
// (0, 1) for a statistic of a set of rows, together with its value on the rows themselves:
//
//	v    = stat(0, 1, …, n−1)
//	θ*_k = stat(rows of resample k),  k = 1 … reps
//	lo   = Q((1 − level)/2),  hi = Q((1 + level)/2)
//
// with Q the empirical quantile of [Curve.Bootstrap]. strata[i] ≥ 0 is row i's stratum (such as its
// class among k); resample k keeps every row's stratum and draws, for row i, a row of the
// same stratum uniformly with replacement, so every resample has each stratum's count of
// rows. stat receives the n row numbers drawn, in the order of the rows they replace; to
// compare two scorers by the same resamples (a paired bootstrap, as [BootstrapPaired] does
// for a binary statistic), stat reads both at those rows and returns the difference. With
// two strata, 1 for the positives and 0 for the negatives, the resamples are those of
// [Curve.Bootstrap] and [BootstrapPaired] with the same seed.
//
// stat is called concurrently, as Curve.Bootstrap calls its statistic, and must not keep the
// slice it is given. The errors are Curve.Bootstrap's, and rocops.ErrEmpty for no rows or rocops.ErrLabel for a
// negative stratum.
func BootstrapRows(strata []int, stat func(rows []int) (float64, error), reps int, level float64,
	seed uint64) (v, lo, hi float64, err error) {
	if err := checkBootstrap(stat == nil, reps, level); err != nil {
		return 0, 0, 0, err
	}
	if len(strata) == 0 {
		return 0, 0, 0, check.Errorf(pkg, rocops.ErrEmpty, "no rows")
	}
	var members [][]int
	for i, s := range strata {
		if s < 0 {
			return 0, 0, 0, check.Errorf(pkg, rocops.ErrLabel, "row %d has stratum %d, want ≥ 0", i, s)
		}
		for len(members) <= s {
			members = append(members, nil)
		}
		members[s] = append(members[s], i)
	}
	rows := make([]int, len(strata))
	for i := range rows {
		rows[i] = i
	}
	v, _, err = callStat(func(int) (float64, error) { return stat(rows) }, -1)
	if err != nil {
		return 0, 0, 0, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, 0, 0, fmt.Errorf("%w: it returned %v on the data", ErrStatistic, v)
	}
	lo, hi, err = percentile(reps, level, func() func(k int) (float64, error) {
		drawn := make([]int, len(strata)) // this worker's
		draw := drawer(strata, members, seed)
		set := func(i, from int) { drawn[i] = from }
		return func(k int) (float64, error) {
			draw(k, set)
			return stat(drawn)
		}
	})
	if err != nil {
		return 0, 0, 0, err
	}
	return v, lo, hi, nil
}
