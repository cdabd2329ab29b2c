package metrics

import (
	"errors"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// With the positives as stratum 1 and the negatives as stratum 0, BootstrapRows draws the
// resamples of Bootstrap: the AUC of the drawn rows gives Bootstrap's interval to the bit.
func TestBootstrapRowsIsBootstrapWithTwoStrata(t *testing.T) {
	scores := []float64{0.9, 0.1, 0.8, 0.4, 0.35, 0.7, 0.2, 0.6, 0.55, 0.3, 0.05, 0.65}
	labels := []float64{1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1}
	strata := make([]int, len(labels))
	for i, y := range labels {
		strata[i] = int(y)
	}
	stat := func(rows []int) (float64, error) {
		s, y := make([]float64, len(rows)), make([]float64, len(rows))
		for i, r := range rows {
			s[i], y[i] = scores[r], labels[r]
		}
		return AUC(s, y)
	}
	v, lo, hi, err := BootstrapRows(strata, stat, 300, 0.95, 7)
	require.NoError(t, err)
	wantLo, wantHi, err := bootstrap(scores, labels, AUC, 300, 0.95, 7)
	require.NoError(t, err)
	auc, err := AUC(scores, labels)
	require.NoError(t, err)
	require.Equal(t, auc, v)
	require.Equal(t, [2]float64{wantLo, wantHi}, [2]float64{lo, hi})
	require.Less(t, lo, hi)
}

// Every resample keeps each row's stratum: with three strata, the count of each stratum's
// rows drawn from that stratum is its size, on every resample.
func TestBootstrapRowsKeepsStrata(t *testing.T) {
	strata := []int{2, 0, 1, 2, 2, 0, 1, 1, 2, 0}
	stat := func(rows []int) (float64, error) {
		for i, r := range rows {
			if strata[r] != strata[i] {
				return 0, errors.New("a row drawn from another stratum")
			}
		}
		return float64(rows[0]), nil
	}
	_, lo, hi, err := BootstrapRows(strata, stat, 200, 0.9, 1)
	require.NoError(t, err)
	require.Less(t, lo, hi, "row 0 draws different rows of stratum 2")
}

func TestBootstrapRowsErrors(t *testing.T) {
	ok := func([]int) (float64, error) { return 0, nil }
	for _, c := range []struct {
		name   string
		strata []int
		stat   func([]int) (float64, error)
		reps   int
		want   error
	}{
		{"no rows", nil, ok, 10, rocops.ErrEmpty},
		{"negative stratum", []int{0, -1}, ok, 10, rocops.ErrLabel},
		{"no statistic", []int{0, 1}, nil, 10, rocops.ErrConfig},
		{"no reps", []int{0, 1}, ok, 0, rocops.ErrConfig},
		{"infinite", []int{0, 1}, func([]int) (float64, error) { return 1 / zero(), nil }, 10, ErrStatistic},
		// A panic on the data themselves, before any resample, is ErrStatistic as on a resample.
		{"panics", []int{0, 1}, func([]int) (float64, error) { panic("bad statistic") }, 10, ErrStatistic},
	} {
		_, _, _, err := BootstrapRows(c.strata, c.stat, c.reps, 0.95, 1)
		require.ErrorIs(t, err, c.want, c.name)
	}
}

func zero() float64 { return 0 }

// BootstrapRows returns an error or an interval around the statistic's range for any strata.
func FuzzBootstrapRows(f *testing.F) {
	f.Add([]byte{0, 1, 2, 1, 0}, uint64(1))
	f.Add([]byte{}, uint64(2))
	f.Fuzz(func(t *testing.T, b []byte, seed uint64) {
		strata := make([]int, len(b))
		for i, x := range b {
			strata[i] = int(int8(x)) // negative strata too
		}
		mean := func(rows []int) (float64, error) {
			var s float64
			for _, r := range rows {
				s += float64(r)
			}
			return s / float64(len(rows)), nil
		}
		_, lo, hi, err := BootstrapRows(strata, mean, 20, 0.9, seed)
		if err != nil {
			return
		}
		require.LessOrEqual(t, lo, hi, "[%v, %v] for %d rows", lo, hi, len(b))
		require.GreaterOrEqual(t, lo, 0.0, "[%v, %v] for %d rows", lo, hi, len(b))
		require.LessOrEqual(t, hi, float64(len(b)-1), "[%v, %v] for %d rows", lo, hi, len(b))
	})
}
