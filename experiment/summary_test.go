package experiment

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The paired-t interval of differences {2, 3, 4} (mean 3, sample sd 1) over three seeds is
// 3 ± t·1/√3 with t = qt(0.975, 2) = 4.302652729749462 (R 4.2.2). Seeds are matched by
// value: a seed only one run finished is left out of the comparison.
func TestPairedDiffs(t *testing.T) {
	const tol = 1e-9 // gonum's Student-t quantile against R's
	first := []Result{
		{Seed: 1, Figures: Figures{TestTPR: 0.5}},
		{Seed: 2, Figures: Figures{TestTPR: 0.5}},
		{Seed: 3, Figures: Figures{TestTPR: 0.4}},
		{Seed: 4, Figures: Figures{TestTPR: 0.9}},
	}
	run := []Result{
		{Seed: 1, Figures: Figures{TestTPR: 2.5}},
		{Seed: 3, Figures: Figures{TestTPR: 3.4}},
		{Seed: 2, Figures: Figures{TestTPR: 4.5}},
		{Seed: 5, Figures: Figures{TestTPR: 7}},
	}
	p := pairedDiffs(run, first)
	got := p["test_tpr_at_fpr"]
	half := 4.302652729749462 / math.Sqrt(3)
	require.InDelta(t, 3, got.Diff, tol)
	require.InDelta(t, 3-half, got.CI95[0], tol)
	require.InDelta(t, 3+half, got.CI95[1], tol)
	require.True(t, got.CI95[0] > 0 || got.CI95[1] < 0, "the interval excludes 0")
	// Equal figures on every seed: difference 0 with a zero-width interval, not marked.
	require.Equal(t, Paired{Diff: 0, CI95: Interval{0, 0}}, p["test_auc"])
	require.False(t, p["test_auc"].CI95[0] > 0 || p["test_auc"].CI95[1] < 0, "the interval holds 0")

	require.Nil(t, pairedDiffs(run[:1], first), "one common seed gives no interval")
}

// The summary of one run is the mean and sample standard deviation of its seeds; with one
// seed it is that seed, with its intervals and threshold and no sd.
func TestSummariseRun(t *testing.T) {
	th := 0.25
	one := summariseRun(
		[]Result{
			{
				Loss:      "kde",
				Seed:      3,
				Figures:   Figures{TestAUC: 0.8, TestAUCCI: &Interval{0.7, 0.9}, DeployedThreshold: &th},
				BestEpoch: 4,
			},
		},
	)
	require.Equal(t, 1, one.Seeds)
	require.Equal(t, 0.8, one.TestAUC)
	require.Equal(t, &Interval{0.7, 0.9}, one.TestAUCCI)
	require.Equal(t, &th, one.DeployedThreshold)
	require.Nil(t, one.SD)
	require.Equal(t, 4.0, one.BestEpoch)

	three := summariseRun([]Result{
		{
			Loss: "ce",
			Figures: Figures{
				TestAUC:           0.7,
				DeployedTestFPR:   0.1,
				TestAUCCI:         &Interval{0, 1},
				DeployedThreshold: &th,
			},
			BestEpoch: 1,
		},
		{Loss: "ce", Figures: Figures{TestAUC: 0.8, DeployedTestFPR: 0.2}, BestEpoch: 2},
		{Loss: "ce", Figures: Figures{TestAUC: 0.9, DeployedTestFPR: 0.3}, BestEpoch: 6},
	})
	require.InDelta(t, 0.8, three.TestAUC, 1e-15)
	require.InDelta(t, 0.1, three.SD.TestAUC, 1e-15)
	require.InDelta(t, 0.2, three.DeployedTestFPR, 1e-15)
	require.InDelta(t, 0.1, three.SD.DeployedTestFPR, 1e-15)
	require.Equal(t, 3.0, three.BestEpoch)
	require.Nil(t, three.TestAUCCI, "a single split's interval does not describe the mean")
	require.Nil(t, three.DeployedThreshold)
}

// With a confidence the summary keeps it; one seed's deployed intervals are the summary's,
// several seeds' per-class deployed rates are averaged and their intervals left out.
func TestSummariseRunWithConfidence(t *testing.T) {
	seed := func(fpr float64) Result {
		return Result{Loss: "ce", Figures: Figures{
			DeployedConfidence: 0.95, DeployedTestFPR: fpr,
			DeployedTestFPRCI: &Interval{fpr / 2, 2 * fpr}, DeployedTestTPRCI: &Interval{0.5, 0.7},
			DeployedClassTestFPR: []float64{fpr, 2 * fpr}, DeployedClassTestTPR: []float64{0.6, 0.8},
			DeployedClassTestFPRCI: []Interval{{0, 1}, {0, 1}}, DeployedClassTestTPRCI: []Interval{{0, 1}, {0, 1}},
		}}
	}
	one := summariseRun([]Result{seed(0.04)})
	require.Equal(t, 0.95, one.DeployedConfidence)
	require.Equal(t, &Interval{0.02, 0.08}, one.DeployedTestFPRCI)
	require.Equal(t, &Interval{0.5, 0.7}, one.DeployedTestTPRCI)
	require.Equal(t, []Interval{{0, 1}, {0, 1}}, one.DeployedClassTestFPRCI)
	require.Equal(t, []float64{0.04, 0.08}, one.DeployedClassTestFPR)

	two := summariseRun([]Result{seed(0.04), seed(0.02)})
	require.Equal(t, 0.95, two.DeployedConfidence)
	require.Nil(t, two.DeployedTestFPRCI, "a single split's interval does not describe the mean")
	require.Nil(t, two.DeployedTestTPRCI)
	require.Nil(t, two.DeployedClassTestFPRCI)
	require.Nil(t, two.DeployedClassTestTPRCI)
	require.InDeltaSlice(t, []float64{0.03, 0.06}, two.DeployedClassTestFPR, 1e-15)
	require.InDeltaSlice(t, []float64{0.6, 0.8}, two.DeployedClassTestTPR, 1e-15)
}
