package metrics_test

import (
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/metrics"
	"github.com/stretchr/testify/require"
)

// positiveMean is the mean score of the positives: linear in the scores, so a paired
// difference of it is the statistic of the difference of the scores.
func positiveMean(s, y []float64) (float64, error) {
	var sum, n float64
	for i, yi := range y {
		sum += yi * s[i]
		n += yi
	}
	return sum / n, nil
}

func pairedData(n int, seed uint64) (a, b, y []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	a, b, y = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range a {
		if rng.Float64() < 0.3 {
			y[i] = 1
		}
		a[i] = y[i] + rng.NormFloat64()
		b[i] = a[i] + 0.5*rng.NormFloat64() // correlated with a, as two models of one task are
	}
	return a, b, y
}

// TestBootstrapPairedIsBootstrapOfTheDifference: for a statistic linear in the scores, the
// paired interval is Bootstrap's interval of a − b, because both draw the same rows.
func TestBootstrapPairedIsBootstrapOfTheDifference(t *testing.T) {
	const tol = 1e-12 // two roundings of sums of order 1
	a, b, y := pairedData(300, 4)
	diff := make([]float64, len(a))
	for i := range a {
		diff[i] = a[i] - b[i]
	}
	d, lo, hi, err := metrics.BootstrapPaired(a, b, y, positiveMean, 500, 0.95, 7)
	require.NoError(t, err)
	wantD, _ := positiveMean(diff, y)
	wantLo, wantHi, err := metrics.Bootstrap(diff, y, positiveMean, 500, 0.95, 7)
	require.NoError(t, err)
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"d", d, wantD}, {"lo", lo, wantLo}, {"hi", hi, wantHi}} {
		diff := c.got - c.want
		require.LessOrEqual(t, diff, tol, "%s = %v, want %v", c.name, c.got, c.want)
		require.GreaterOrEqual(t, diff, -tol, "%s = %v, want %v", c.name, c.got, c.want)
	}
	require.Less(t, lo, hi, "interval [%v, %v] is empty", lo, hi)
}

// TestBootstrapPairedSelf: a scorer against itself, or against any increasing transform of
// itself for a rank statistic, differs by exactly 0 on every resample.
func TestBootstrapPairedSelf(t *testing.T) {
	a, _, y := pairedData(200, 5)
	shifted := make([]float64, len(a))
	for i, s := range a {
		shifted[i] = 3*s + 1
	}
	tpr := func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, 0.1) }
	pauc := func(s, y []float64) (float64, error) { return metrics.PartialAUC(s, y, 0.1) }
	for _, c := range []struct {
		name string
		b    []float64
		stat func(s, y []float64) (float64, error)
	}{{"self/tpr", a, tpr}, {"self/pauc", a, pauc}, {"transform/tpr", shifted, tpr}, {"transform/pauc", shifted, pauc}} {
		t.Run(c.name, func(t *testing.T) {
			d, lo, hi, err := metrics.BootstrapPaired(a, c.b, y, c.stat, 200, 0.95, 1)
			require.NoError(t, err)
			require.Equal(t, 0.0, d, "got %v [%v, %v], want 0 [0, 0]", d, lo, hi)
			require.Equal(t, 0.0, lo, "got %v [%v, %v], want 0 [0, 0]", d, lo, hi)
			require.Equal(t, 0.0, hi, "got %v [%v, %v], want 0 [0, 0]", d, lo, hi)
		})
	}
}

// TestBootstrapPairedNarrowerThanUnpaired: two correlated scorers' TPR difference has a
// paired interval narrower than the sum of their own intervals' half-widths would suggest,
// which is what pairing is for (the shared luck of the rows cancels).
func TestBootstrapPairedNarrowerThanUnpaired(t *testing.T) {
	a, b, y := pairedData(1000, 6)
	tpr := func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, 0.2) }
	_, lo, hi, err := metrics.BootstrapPaired(a, b, y, tpr, 400, 0.95, 2)
	require.NoError(t, err)
	loA, hiA, err := metrics.Bootstrap(a, y, tpr, 400, 0.95, 2)
	require.NoError(t, err)
	loB, hiB, err := metrics.Bootstrap(b, y, tpr, 400, 0.95, 2)
	require.NoError(t, err)
	// Unpaired, the difference's interval would be about √(wA² + wB²) wide.
	paired, unpaired := hi-lo, (hiA-loA)*(hiA-loA)+(hiB-loB)*(hiB-loB)
	require.Less(t, paired*paired, unpaired, "paired width %.4f not below the unpaired %.4f", paired, unpaired)
}

func TestBootstrapPairedErrors(t *testing.T) {
	a, b, y := pairedData(50, 7)
	tpr := func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, 0.2) }
	for _, c := range []struct {
		name    string
		a, b, y []float64
		stat    func(s, y []float64) (float64, error)
		reps    int
		want    error
	}{
		{"lengths", a, b[:49], y, tpr, 10, rocops.ErrLength},
		{"labels", a, b, y[:49], tpr, 10, rocops.ErrLength},
		{"no statistic", a, b, y, nil, 10, rocops.ErrConfig},
		{"reps", a, b, y, tpr, 0, rocops.ErrConfig},
		{"one class", a, b, make([]float64, 50), tpr, 10, rocops.ErrOneClass},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, err := metrics.BootstrapPaired(c.a, c.b, c.y, c.stat, c.reps, 0.95, 1)
			require.ErrorIs(t, err, c.want, "err = %v, want %v", err, c.want)
		})
	}
}
