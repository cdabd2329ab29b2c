package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/internal/parallel"
	"github.com/rocops/rocops/internal/stats"
)

// ErrStatistic reports a bootstrap statistic that returned NaN or ±Inf, or that panicked: the
// error names the resample (or the data themselves) and, for a panic, gives the panic value,
// which it also wraps when that is an error.
var ErrStatistic = errors.New("metrics: bootstrap statistic failed")

// bootstrap is the percentile bootstrap of Curve.Bootstrap for a statistic of (scores,
// labels): the same stratified resamples, each handed to stat as slices, with the same
// settings and errors (and the input vocabulary's for scores and labels).
func bootstrap(scores, labels []float64, stat func(scores, labels []float64) (float64, error),
	reps int, level float64, seed uint64) (lo, hi float64, err error) {
	if err := checkBootstrap(stat == nil, reps, level); err != nil {
		return 0, 0, err
	}
	if _, _, err := check.Batch(pkg, scores, labels); err != nil {
		return 0, 0, err
	}
	isPos := make([]bool, len(labels))
	for i, y := range labels {
		isPos[i] = y == 1
	}
	return percentile(reps, level, func() func(k int) (float64, error) {
		s, y := make([]float64, len(scores)), make([]float64, len(labels)) // this worker's
		draw := classDrawer(isPos, seed)
		set := func(i, from int) { s[i], y[i] = scores[from], labels[i] }
		return func(k int) (float64, error) {
			draw(k, set)
			return stat(s, y)
		}
	})
}

// checkBootstrap validates the settings of a bootstrap.
func checkBootstrap(noStat bool, reps int, level float64) error {
	switch {
	case noStat:
		return check.Errorf(pkg, rocops.ErrConfig, "bootstrap without a statistic")
	case reps < 1 || reps > stats.MaxBootstrapReps:
		return check.Errorf(pkg, rocops.ErrConfig, "bootstrap reps = %d, want it in [1, %d]", reps, stats.MaxBootstrapReps)
	case !(level > 0 && level < 1):
		return check.Errorf(pkg, rocops.ErrConfig, "bootstrap level = %v, want it in (0, 1)", level)
	}
	return nil
}

// drawer returns the stratified draws of one worker for rows of the strata given, row i of
// stratum strata[i] ≥ 0 and members[s] the rows of stratum s in order: draw(k, set) calls
// set(i, from) for every row i of resample k, from being the row it draws. Resample k has its
// own stream, so the draws do not depend on which worker takes it; row i keeps its stratum
// and draws a row of that stratum.
func drawer(strata []int, members [][]int, seed uint64) func(k int, set func(i, from int)) {
	src := rand.NewPCG(0, 0)
	rng := rand.New(src)
	return func(k int, set func(i, from int)) {
		src.Seed(seed, uint64(k))
		for i, s := range strata {
			from := members[s]
			set(i, from[rng.IntN(len(from))])
		}
	}
}

// classDrawer is drawer for rows of two classes, isPos[i] marking the positives (stratum 1,
// the negatives stratum 0).
func classDrawer(isPos []bool, seed uint64) func(k int, set func(i, from int)) {
	strata, members := make([]int, len(isPos)), make([][]int, 2)
	for i, p := range isPos {
		if p {
			strata[i] = 1
		}
		members[strata[i]] = append(members[strata[i]], i)
	}
	return drawer(strata, members, seed)
}

// percentile computes the statistic of resamples 0 … reps−1 on up to GOMAXPROCS workers,
// each with its own state from newWorker, and returns their percentile interval at level.
func percentile(reps int, level float64, newWorker func() func(k int) (float64, error)) (lo, hi float64, err error) {
	values := make([]float64, reps)
	errs := make([]error, reps)
	workers := min(reps, runtime.GOMAXPROCS(0))
	perr := parallel.For(workers, workers, func(w int) {
		stat := newWorker()
		for k := w; k < reps; k += workers {
			v, panicked, err := callStat(stat, k)
			switch {
			case panicked:
				errs[k] = err
			case err != nil:
				errs[k] = fmt.Errorf("metrics: bootstrap resample %d: %w", k, err)
			case math.IsNaN(v) || math.IsInf(v, 0):
				errs[k] = fmt.Errorf("%w: it returned %v on resample %d", ErrStatistic, v, k)
			}
			values[k] = v
		}
	})
	if perr != nil { // not the statistic's (callStat recovers those): a bug of the loop itself
		return 0, 0, fmt.Errorf("metrics: bootstrap: %w", perr)
	}
	for _, err := range errs { // the first failing resample, whatever the scheduling
		if err != nil {
			return 0, 0, err
		}
	}
	slices.Sort(values)
	return quantile7(values, (1-level)/2), quantile7(values, (1+level)/2), nil
}

// callStat returns stat(k), the statistic of resample k (k = −1: of the data themselves),
// turning a panic into an ErrStatistic error naming the resample.
func callStat(stat func(k int) (float64, error), k int) (v float64, panicked bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			where := fmt.Sprintf(": it panicked on resample %d", k)
			if k < 0 {
				where = ": it panicked on the data"
			}
			panicked, err = true, parallel.PanicError(ErrStatistic, where, r)
		}
	}()
	v, err = stat(k)
	return v, false, err
}

// quantile7 returns the q-quantile of the sorted values, R's type 7: the order statistic at
// 1-based position h = (n − 1)·q + 1, interpolated linearly between its neighbours.
func quantile7(sorted []float64, q float64) float64 {
	h := float64(len(sorted)-1) * q
	lo := math.Floor(h)
	k := int(lo)
	if k+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[k] + (h-lo)*(sorted[k+1]-sorted[k])
}
