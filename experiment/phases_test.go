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
		phases       []train.Phase
		best         int
		want, wantKp int
	}{
		{"one phase", []train.Phase{m, m, m}, 1, 1, 1},
		{"fine-tuning kept", []train.Phase{w, w, m, m}, 3, 2, 2},
		{"fine-tuning rejected", []train.Phase{w, w, m, m}, 1, 2, 1},
		{"intervention inside main", []train.Phase{w, m, i, m}, 2, 2, 2},
		{"no kept epoch", []train.Phase{m}, -1, 0, 0},
	} {
		h := &train.History{Best: c.best}
		for k, p := range c.phases {
			h.Epochs = append(h.Epochs, train.Epoch{Index: k + 1, Phase: p})
		}
		phases, kept := PhasesOf(h)
		require.Equal(t, [2]int{c.want, c.wantKp}, [2]int{phases, kept}, c.name)
	}
}

// Merge groups bit-identical score vectors (and deployed points) in first-seen order.
func TestMerge(t *testing.T) {
	a, b := []float64{0.1, 0.2, 0.3}, []float64{0.1, 0.2, math.Nextafter(0.3, 1)}
	rs := []Result{{Name: "ce"}, {Name: "sq"}, {Name: "kde"}}
	for k, s := range [][]float64{a, b, append([]float64(nil), a...)} {
		rs[k].TestScores, rs[k].ScoresHash = s, hashScores(s)
	}
	g := Merge(rs)
	require.Len(t, g, 2)
	require.Equal(t, []string{"ce", "kde"}, []string{g[0][0].Name, g[0][1].Name})
	require.Equal(t, "sq", g[1][0].Name)
	sums := []Summary{{Name: "ce", PerSeed: rs[:1]}, {Name: "sq", PerSeed: rs[1:2]}, {Name: "kde", PerSeed: rs[2:]}}
	require.Equal(t, []string{"kde"}, SameAs(&sums[0], sums))
	require.Empty(t, SameAs(&sums[1], sums))
	rs[2].DeployedTestTPR = 0.5 // the same scores, another deployed point: drawn apart
	require.Len(t, Merge(rs), 3)
	require.Empty(t, SameAs(&sums[0], sums))
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
	require.NoError(t, CompareWithFirst(self, a, labels, cfg))
	require.Len(t, self.TestVsFirst, 3)
	for key, p := range self.TestVsFirst {
		require.Equal(t, Paired{}, p, key)
	}
	require.Equal(t, 0.0, self.TestAUCVsFirst.Diff)

	require.NoError(t, CompareWithFirst(b, a, labels, cfg))
	d, lo, hi, err := metrics.BootstrapPaired(sb, sa, labels,
		func(s, y []float64) (float64, error) { return metrics.TPRAtFPR(s, y, 0.25) }, 200, 0.95, 3)
	require.NoError(t, err)
	require.Equal(t, Paired{Diff: d, CI95: Interval{lo, hi}}, b.TestVsFirst[KeyTPR])
	require.InDelta(t, b.DeployedTestTPR-a.DeployedTestTPR, b.TestVsFirst[KeyDeployedTPR].Diff, 1e-15)
	require.NotZero(t, b.TestVsFirst[KeyDeployedTPR].Diff) // 3 of 5 positives flagged against 4 of 5
	require.LessOrEqual(t, b.TestVsFirst[KeyPAUC].CI95[0], b.TestVsFirst[KeyPAUC].CI95[1])

	cfg.Boot = 0
	c := res(sb, 0.3)
	require.NoError(t, CompareWithFirst(c, a, labels, cfg))
	require.Nil(t, c.TestVsFirst, "no resamples: DeLong only")
	require.NotNil(t, c.TestAUCVsFirst)
}

// A result without a deployed threshold records +Inf, which flags nothing, and its rates
// and training as they are.
func TestOperatingPoint(t *testing.T) {
	r := Result{Loss: "sqhinge", WarmupEpochs: 10, Alpha: 0.1, Seed: 4, ValFPR: 0.05, ValTPR: 0.5}
	r.DeployedTestFPR, r.DeployedTestTPR, r.LearningRate = 0.07, 0.6, 0.01
	op := r.OperatingPoint("y")
	require.True(t, math.IsInf(op.Threshold, 1))
	require.Equal(t, [4]float64{0.05, 0.5, 0.07, 0.6}, [4]float64{op.ValFPR, op.ValTPR, op.TestFPR, op.TestTPR})
	require.Equal(t, "y", op.Label)
	require.Equal(t, "sqhinge", op.Run.Loss)
	require.Equal(t, 10, op.Run.WarmupEpochs)
	th := 1.5
	r.DeployedThreshold = &th
	require.Equal(t, 1.5, r.OperatingPoint("").Threshold)
}

// MergeDiagnoses draws a run whose diagnoses begin another's once, naming both (NaN values
// and phase labels aside), and NextPhase finds where the later phase starts.
func TestMergeDiagnoses(t *testing.T) {
	at := func(e int, phase string) Diagnosis {
		return Diagnosis{Epoch: e, Phase: phase, Misranking: jsonFloat(0.1 / float64(e)), Drift: jsonFloat(math.NaN())}
	}
	ce := Result{Name: "ce", Phases: 1, KeptPhases: 1}
	kde := Result{Name: "kde", Phases: 2, KeptPhases: 1}
	for e := 1; e <= 4; e++ {
		kde.Diagnostics = append(kde.Diagnostics, at(e, map[bool]string{true: "warmup", false: "main"}[e <= 2]))
		if e <= 2 {
			ce.Diagnostics = append(ce.Diagnostics, at(e, "main"))
		}
	}
	s := MergeDiagnoses([][]Result{{ce, kde}})
	require.Len(t, s, 1)
	require.Equal(t, []string{"kde", "ce"}, s[0].Names)
	require.Equal(t, 3, s[0].Result.NextPhase())
	require.Zero(t, ce.NextPhase())
	ce.Diagnostics[1].Misranking++ // no longer the first epochs of kde's: drawn apart
	s = MergeDiagnoses([][]Result{{ce, kde}})
	require.Len(t, s, 2)
	require.Equal(t, []string{"ce"}, s[0].Names)
	require.Empty(t, MergeDiagnoses([][]Result{{{Name: "none"}}}), "no diagnoses: nothing to draw")
}
