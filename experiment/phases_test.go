package experiment

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/train"
)

// PhasesOf counts runs of warm-up and main epochs and finds the kept epoch's phase.
func TestPhasesOf(t *testing.T) {
	w, m, i := train.Warmup, train.Main, train.Intervention
	for _, c := range []struct {
		name         string
		phases       []train.Stage
		best         int
		want, wantKp int
	}{
		{"one phase", []train.Stage{m, m, m}, 1, 1, 1},
		{"fine-tuning kept", []train.Stage{w, w, m, m}, 3, 2, 2},
		{"fine-tuning rejected", []train.Stage{w, w, m, m}, 1, 2, 1},
		{"intervention inside main", []train.Stage{w, m, i, m}, 2, 2, 2},
		{"no kept epoch", []train.Stage{m}, -1, 0, 0},
	} {
		h := &train.History{Best: c.best}
		for k, p := range c.phases {
			h.Epochs = append(h.Epochs, train.Epoch{Index: k + 1, Stage: p})
		}
		phases, kept := phasesOf(h)
		require.Equal(t, [2]int{c.want, c.wantKp}, [2]int{phases, kept}, c.name)
	}
}

// A run compared with a copy of itself differs by 0 on every figure with [0, 0]; against
// another run, each figure is metrics.BootstrapPaired's, and the deployed TPR's difference
// is the difference of the two deployed TPRs.
func TestCompareWithFirst(t *testing.T) {
	labels := []float64{1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0}
	sa := []float64{0.9, 0.1, 0.8, 0.4, 0.35, 0.3, 0.2, 0.7, 0.6, 0.05, 0.65, 0.5}
	sb := []float64{0.2, 0.1, 0.8, 0.4, 0.9, 0.3, 0.7, 0.6, 0.25, 0.05, 0.15, 0.5}
	cfg := MeasureConfig{Alpha: 0.25, Boot: 200, Seed: 3}
	res := func(s []float64, threshold float64) *Result {
		c, err := metrics.NewCurve(s, labels)
		require.NoError(t, err)
		r := &Result{Test: c, TestScores: s}
		r.DeployedThreshold = &threshold
		_, r.DeployedTestTPR = c.RatesAt(threshold)
		return r
	}
	a, b := res(sa, 0.5), res(sb, 0.3)
	self := res(sa, 0.5)
	require.NoError(t, compareWithFirst(self, a, labels, cfg))
	require.Len(t, self.TestVsFirst, 4, "pAUC, TPR, deployed TPR and FPR")
	for key, p := range self.TestVsFirst {
		require.Equal(t, Paired{}, p, key)
	}
	require.Equal(t, 0.0, self.TestAUCVsFirst.Diff)

	require.NoError(t, compareWithFirst(b, a, labels, cfg))
	d, lo, hi, err := metrics.BootstrapPaired(sb, sa, labels,
		func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, 0.25) }, 200, 0.95, 3)
	require.NoError(t, err)
	require.Equal(t, Paired{Diff: d, CI95: Interval{lo, hi}}, b.TestVsFirst[keyTPR])
	require.InDelta(t, b.DeployedTestTPR-a.DeployedTestTPR, b.TestVsFirst[keyDeployedTPR].Diff, 1e-15)
	require.NotZero(t, b.TestVsFirst[keyDeployedTPR].Diff) // 3 of 5 positives flagged against 4 of 5
	require.LessOrEqual(t, b.TestVsFirst[keyPAUC].CI95[0], b.TestVsFirst[keyPAUC].CI95[1])

	cfg.Boot = 0
	c := res(sb, 0.3)
	require.NoError(t, compareWithFirst(c, a, labels, cfg))
	require.Nil(t, c.TestVsFirst, "no resamples: DeLong only")
	require.NotNil(t, c.TestAUCVsFirst)
}

// hashScores tells score vectors apart by one ulp and gives copies the same hash.
func TestHashScores(t *testing.T) {
	a, b := []float64{0.1, 0.2, 0.3}, []float64{0.1, 0.2, math.Nextafter(0.3, 1)}
	require.NotEqual(t, hashScores(a), hashScores(b))
	require.Equal(t, hashScores(a), hashScores(append([]float64(nil), a...)))
	require.NotEqual(t, hashScores(a), hashScores(a[:2]))
}
