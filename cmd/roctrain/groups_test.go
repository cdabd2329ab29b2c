package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/experiment"
)

// merge groups bit-identical score vectors (equal hashes) (and deployed points) in first-seen order.
func TestMerge(t *testing.T) {
	rs := []seedResult{{Name: "ce"}, {Name: "sq"}, {Name: "kde"}}
	for k, h := range []uint64{7, 8, 7} { // the hashes of test scores, ce's and kde's alike
		rs[k].ScoresHash = h
	}
	g := merge(rs)
	require.Len(t, g, 2)
	require.Equal(t, []string{"ce", "kde"}, []string{g[0][0].Name, g[0][1].Name})
	require.Equal(t, "sq", g[1][0].Name)
	sums := []experiment.Summary{{Name: "ce", PerSeed: rs[:1]}, {Name: "sq", PerSeed: rs[1:2]}, {Name: "kde", PerSeed: rs[2:]}}
	require.Equal(t, []string{"kde"}, sameAs(&sums[0], sums))
	require.Empty(t, sameAs(&sums[1], sums))
	rs[2].DeployedTestTPR = 0.5 // the same scores, another deployed point: drawn apart
	require.Len(t, merge(rs), 3)
	require.Empty(t, sameAs(&sums[0], sums))
}

// operatingPoint: a result without a deployed threshold records +Inf, which flags nothing, and its rates
// and training as they are.
func TestOperatingPoint(t *testing.T) {
	r := seedResult{Loss: "sqhinge", WarmupEpochs: 10, Alpha: 0.1, Seed: 4, ValFPR: 0.05, ValTPR: 0.5}
	r.DeployedTestFPR, r.DeployedTestTPR, r.LearningRate = 0.07, 0.6, 0.01
	op := operatingPoint(&r, "y")
	require.True(t, math.IsInf(op.Threshold, 1))
	require.Equal(t, [4]float64{0.05, 0.5, 0.07, 0.6}, [4]float64{op.ValFPR, op.ValTPR, op.TestFPR, op.TestTPR})
	require.Equal(t, "y", op.Label)
	require.Equal(t, "sqhinge", op.Run.Loss)
	require.Equal(t, 10, op.Run.WarmupEpochs)
	th := 1.5
	r.DeployedThreshold = &th
	require.Equal(t, 1.5, operatingPoint(&r, "").Threshold)
}

// mergeDiagnoses draws a run whose diagnoses begin another's once, naming both (NaN values
// and phase labels aside), and nextPhase finds where the later phase starts.
func TestMergeDiagnoses(t *testing.T) {
	at := func(e int, phase string) experiment.Diagnosis {
		d := experiment.Diagnosis{Epoch: e, Phase: phase}
		setFloat(&d.Misranking, 0.1/float64(e))
		setFloat(&d.Drift, math.NaN())
		return d
	}
	ce := seedResult{Name: "ce", Phases: 1, KeptPhases: 1}
	kde := seedResult{Name: "kde", Phases: 2, KeptPhases: 1}
	for e := 1; e <= 4; e++ {
		kde.Diagnostics = append(kde.Diagnostics, at(e, map[bool]string{true: "warmup", false: "main"}[e <= 2]))
		if e <= 2 {
			ce.Diagnostics = append(ce.Diagnostics, at(e, "main"))
		}
	}
	s := mergeDiagnoses([][]seedResult{{ce, kde}})
	require.Len(t, s, 1)
	require.Equal(t, []string{"ce", "kde"}, s[0].names, "in the group's order, as the ROC plot names them")
	require.Equal(t, 3, nextPhase(&s[0].result))
	require.Zero(t, nextPhase(&ce))
	setFloat(&ce.Diagnostics[1].Misranking, float64(ce.Diagnostics[1].Misranking)+1) // no longer the first epochs of kde's: drawn apart
	s = mergeDiagnoses([][]seedResult{{ce, kde}})
	require.Len(t, s, 2)
	require.Equal(t, []string{"ce"}, s[0].names)
	require.Empty(t, mergeDiagnoses([][]seedResult{{{Name: "none"}}}), "no diagnoses: nothing to draw")
}

// setFloat sets a figure of a diagnosis, whose type (a float64 that JSON writes as null when
// it is not finite) experiment keeps to itself.
func setFloat[F ~float64](f *F, v float64) { *f = F(v) }
