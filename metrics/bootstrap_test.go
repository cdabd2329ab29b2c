package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/stats"
	"github.com/stretchr/testify/require"
)

// R 4.2.2: quantile(c(3, 1, 4, 1, 5, 9, 2, 6), c(0, 0.025, 0.1, 0.5, 0.975, 1)) prints
// 1, 1, 1, 3.5, 8.475, 9.
func TestQuantile7MatchesR(t *testing.T) {
	sorted := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	slices.Sort(sorted)
	for q, want := range map[float64]float64{0: 1, 0.025: 1, 0.1: 1, 0.5: 3.5, 0.975: 8.475, 1: 9} {
		require.InDelta(t, want, quantile7(sorted, q), tolExact, "q = %v", q)
	}
	require.Equal(t, 7.0, quantile7([]float64{7}, 0.975))
}

// Every resample keeps the class counts and the labels' positions, and draws each row from its
// own class.
func TestBootstrapIsStratified(t *testing.T) {
	scores := []float64{1, 2, 3, 10, 20, 30, 40}
	labels := []float64{0, 0, 0, 1, 1, 1, 1}
	var calls atomic.Int64 // Bootstrap calls the statistic from several goroutines
	_, _, err := bootstrap(scores, labels, func(s, y []float64) (float64, error) {
		calls.Add(1)
		if !slices.Equal(y, labels) {
			return 0, fmt.Errorf("labels moved: %v", y)
		}
		for i := range s {
			if (y[i] == 1) != (s[i] >= 10) {
				return 0, fmt.Errorf("row %d drew %v from the other class", i, s[i])
			}
		}
		return s[0], nil
	}, 200, 0.95, 1)
	require.NoError(t, err)
	require.Equal(t, int64(200), calls.Load())
}

func TestBootstrapIsSeeded(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	scores, labels := binormal(rng, 30, 60, 1)
	lo1, hi1, err := bootstrap(scores, labels, AUC, 300, 0.95, 7)
	require.NoError(t, err)
	lo2, hi2, err := bootstrap(scores, labels, AUC, 300, 0.95, 7)
	require.NoError(t, err)
	require.Equal(t, [2]float64{lo1, hi1}, [2]float64{lo2, hi2}, "same seed, same interval")
	lo3, hi3, err := bootstrap(scores, labels, AUC, 300, 0.95, 8)
	require.NoError(t, err)
	require.NotEqual(t, [2]float64{lo1, hi1}, [2]float64{lo3, hi3}, "another seed, another interval")
	auc, err := AUC(scores, labels)
	require.NoError(t, err)
	require.True(t, lo1 < auc && auc < hi1, "[%v, %v] holds the sample AUC %v", lo1, hi1, auc)
	// A narrower level gives a nested interval.
	lo4, hi4, err := bootstrap(scores, labels, AUC, 300, 0.5, 7)
	require.NoError(t, err)
	require.True(t, lo1 <= lo4 && hi4 <= hi1)
}

// Coverage on the binormal model: negatives N(0, 1), positives N(1, 1). The true AUC is
// Φ(1/√2) = 0.76025 and the true TPR at FPR 0.2 is Φ(1 − Φ⁻¹(0.8)) = 0.56292. Over 200 data
// sets of 60 positives and 120 negatives, the percentile 95% interval must cover the truth
// in 90–99% of them (the binomial standard deviation of the share is 1.5%).
func TestBootstrapCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("200 bootstrap intervals of 500 resamples each")
	}
	tprAt := func(s, y []float64) (float64, error) { return TPRAtFPR(s, y, 0.2) }
	for _, c := range []struct {
		name  string
		stat  func(s, y []float64) (float64, error)
		truth float64
	}{
		{"AUC", AUC, 0.7602499389065233},
		{"TPR at FPR 0.2", tprAt, 0.5629208277335359},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(33, 34))
			covered := 0
			const trials = 200
			for k := range trials {
				scores, labels := binormal(rng, 60, 120, 1)
				lo, hi, err := bootstrap(scores, labels, c.stat, 500, 0.95, uint64(k))
				require.NoError(t, err)
				if lo <= c.truth && c.truth <= hi {
					covered++
				}
			}
			share := float64(covered) / trials
			t.Logf("coverage %.3f", share)
			require.True(t, share >= 0.9 && share <= 0.99, "coverage %v", share)
		})
	}
}

func TestBootstrapErrors(t *testing.T) {
	scores, labels := []float64{1, 2, 3, 4}, []float64{0, 1, 0, 1}
	for _, c := range []struct {
		name  string
		stat  func(s, y []float64) (float64, error)
		reps  int
		level float64
		want  error
	}{
		{"no statistic", nil, 10, 0.95, rocops.ErrConfig},
		{"no reps", AUC, 0, 0.95, rocops.ErrConfig},
		{"level 0", AUC, 10, 0, rocops.ErrConfig},
		{"level 1", AUC, 10, 1, rocops.ErrConfig},
		{"level NaN", AUC, 10, math.NaN(), rocops.ErrConfig},
		{"NaN statistic", func(s, y []float64) (float64, error) { return math.NaN(), nil }, 10, 0.95, ErrStatistic},
		{"statistic fails", func(s, y []float64) (float64, error) { return TPRAtFPR(s, y, 2) }, 10, 0.95, rocops.ErrConfig},
		{"reps past the bound", AUC, stats.MaxBootstrapReps + 1, 0.95, rocops.ErrConfig},
		{"reps MaxInt", AUC, math.MaxInt, 0.95, rocops.ErrConfig},
		{"statistic panics", func(s, y []float64) (float64, error) { panic("bad statistic") }, 10, 0.95, ErrStatistic},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := bootstrap(scores, labels, c.stat, c.reps, c.level, 1)
			require.ErrorIs(t, err, c.want)
			require.Regexp(t, "^metrics: ", err.Error())
		})
	}
	_, _, err := bootstrap(scores, []float64{1, 1, 1, 1}, AUC, 10, 0.95, 1)
	require.True(t, errors.Is(err, rocops.ErrOneClass), "%v", err)
	_, _, err = bootstrap(scores, labels[:2], AUC, 10, 0.95, 1)
	require.ErrorIs(t, err, rocops.ErrLength)
}

// The largest number of resamples is accepted.
func TestBootstrapRepsBound(t *testing.T) {
	if testing.Short() {
		t.Skip("a million resamples")
	}
	scores, labels := []float64{1, 2, 3, 4}, []float64{0, 1, 0, 1}
	first := func(s, y []float64) (float64, error) { return s[0], nil }
	lo, hi, err := bootstrap(scores, labels, first, stats.MaxBootstrapReps, 0.5, 1)
	require.NoError(t, err)
	// s[0] is a uniform draw from the negatives {1, 3}: the quartiles of a million draws.
	require.Equal(t, []float64{1, 3}, []float64{lo, hi})
}

// A statistic that panics on one resample, run on a worker goroutine, gives an ErrStatistic
// error naming that resample, which a caller sees; before, the panic killed the process.
func TestBootstrapStatisticPanics(t *testing.T) {
	scores, labels := []float64{1, 2, 3, 4}, []float64{0, 1, 0, 1}
	var calls atomic.Int64
	boom := errors.New("boom")
	stat := func(s, y []float64) (float64, error) {
		if calls.Add(1) == 7 {
			panic(boom)
		}
		return AUC(s, y)
	}
	_, _, err := bootstrap(scores, labels, stat, 200, 0.95, 1)
	require.ErrorIs(t, err, ErrStatistic)
	require.ErrorIs(t, err, boom)
	require.Regexp(t, `^metrics: bootstrap statistic failed: it panicked on resample \d+: boom$`, err.Error())
}

// pROC 1.18.0 (R 4.2.2), ci.auc(roc(aSAH$outcome, aSAH$s100b), method = "bootstrap",
// boot.n = 10000, boot.stratified = TRUE) after set.seed(1), (2), (3) prints 0.6240–0.8264,
// 0.6258–0.8255 and 0.6258–0.8264. The two bootstraps draw different resamples, so they
// agree only to their Monte Carlo error, a few thousandths with 5000 resamples.
func TestBootstrapAgreesWithPROC(t *testing.T) {
	if testing.Short() {
		t.Skip("5000 resamples")
	}
	const tolMonteCarlo = 0.01
	lo, hi, err := bootstrap(asahS100b, asahOutcome, AUC, 5000, 0.95, 1)
	require.NoError(t, err)
	require.InDelta(t, 0.6252, lo, tolMonteCarlo)
	require.InDelta(t, 0.8261, hi, tolMonteCarlo)
}
