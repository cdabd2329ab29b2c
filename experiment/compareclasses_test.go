package experiment

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/stretchr/testify/require"
)

// classRun is a result of a 3-class run with the given row-major n×3 test scores.
func classRun(scores []float64) *Result {
	return &Result{TestScores: scores, Classes: &classMeasurement{Names: []string{"a", "b", "c"}, TestScores: scores}}
}

// classRows are 30 rows of 3 classes with scores that rank each class mostly, not always,
// above the others, from a fixed stream.
func classRows() (scores, labels []float64) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 30 {
		y := i % 3
		labels = append(labels, float64(y))
		for c := range 3 {
			s := rng.Float64()
			if c == y {
				s += 0.5
			}
			scores = append(scores, s)
		}
	}
	return scores, labels
}

// A class run compared with itself: 0 and [0, 0]; DeLong's test is not set.
func TestCompareClassesSelf(t *testing.T) {
	scores, labels := classRows()
	r := classRun(scores)
	require.NoError(t, compareWithFirst(r, classRun(slices.Clone(scores)), labels, MeasureConfig{Boot: 200, Seed: 1}))
	require.Nil(t, r.TestAUCVsFirst)
	require.Equal(t, map[string]Paired{keyAUCOvR: {}, keyAUCOvO: {}}, r.TestVsFirst)

	// With α every figure: the macro AUCs, pAUC, TPR and the deployed TPR and FPR.
	r, first := classRun(scores), classRun(slices.Clone(scores))
	for _, m := range []*classMeasurement{r.Classes, first.Classes} {
		m.Class = []classFigures{{Threshold: 0.9}, {Threshold: 1}, {Threshold: 0.8}}
	}
	require.NoError(t, compareWithFirst(r, first, labels, MeasureConfig{Alpha: 0.2, Boot: 100, Seed: 1}))
	require.Equal(t, map[string]Paired{keyAUCOvR: {}, keyAUCOvO: {}, keyPAUC: {}, keyTPR: {}, keyDeployedTPR: {}, keyDeployedFPR: {}}, r.TestVsFirst)
}

// The deployed rates a resample reads are the macro means of each class's rates at its fixed
// threshold: on all the rows (a resample that draws every row once), those of the rows.
func TestClassDeployedRates(t *testing.T) {
	scores, labels := classRows()
	m := classRun(scores).Classes
	m.Class = []classFigures{{Threshold: 0.9}, {Threshold: 1}, {Threshold: 0.8}}
	var tpr, fpr float64
	for c, f := range m.Class {
		var tp, p, fp, n float64
		for i, y := range labels {
			flagged := scores[i*3+c] >= f.Threshold
			if int(y) == c {
				p++
				if flagged {
					tp++
				}
			} else {
				n++
				if flagged {
					fp++
				}
			}
		}
		tpr, fpr = tpr+tp/p/3, fpr+fp/n/3
	}
	for _, s := range classStats(3, false, 0.2) {
		v, err := s.stat(m, scores, labels)
		require.NoError(t, err)
		switch s.key {
		case keyDeployedTPR:
			require.InDelta(t, tpr, v, 1e-15)
		case keyDeployedFPR:
			require.InDelta(t, fpr, v, 1e-15)
		case keyAUCOvO:
			want, err := metrics.TaskAUC(scores, labels, rocops.Classes(3), metrics.OvO, metrics.Macro)
			require.NoError(t, err)
			require.Equal(t, want, v)
		}
	}
	require.Greater(t, tpr, 0.0)
	require.Greater(t, fpr, 0.0)
}

// The intervals of the macro AUCs are the percentile bootstrap of the test rows drawn within
// each class: metrics.BootstrapRows of the macro AUC, and they hold the estimate.
func TestClassAUCIntervals(t *testing.T) {
	scores, labels := classRows()
	m := classRun(scores).Classes
	require.NoError(t, m.aucIntervals(labels, 300, 5))
	strata := make([]int, len(labels))
	for i, y := range labels {
		strata[i] = int(y)
	}
	for _, c := range []struct {
		method metrics.Method
		got    *Interval
	}{{metrics.OvR, m.OvRCI}, {metrics.OvO, m.OvOCI}} {
		stat := func(rows []int) (float64, error) {
			s, y := drawn(scores, labels, 3, 1, rows)
			return metrics.TaskAUC(s, y, rocops.Classes(3), c.method, metrics.Macro)
		}
		v, lo, hi, err := metrics.BootstrapRows(strata, stat, 300, 0.95, 5)
		require.NoError(t, err)
		require.Equal(t, Interval{lo, hi}, *c.got)
		require.True(t, lo <= v && v <= hi && hi-lo > 0.01, "%v in [%v, %v]", v, lo, hi)
	}
}

// Without resamples nothing is compared.
func TestCompareClassesNoBoot(t *testing.T) {
	scores, labels := classRows()
	r := classRun(scores)
	require.NoError(t, compareWithFirst(r, classRun(scores), labels, MeasureConfig{Alpha: 0.1}))
	require.Nil(t, r.TestVsFirst)
	require.Nil(t, r.TestAUCVsFirst)
}

// Reversing every score of class c's column makes class c's one-vs-rest AUC 1 − A_c: the
// run loses (2·A_c − 1)/3 of macro AUC, and the interval lies below 0.
func TestCompareClassesReversedClass(t *testing.T) {
	scores, labels := classRows()
	rev := slices.Clone(scores)
	for i := 1; i < len(rev); i += 3 {
		rev[i] = -rev[i]
	}
	r := classRun(rev)
	require.NoError(t, compareWithFirst(r, classRun(scores), labels, MeasureConfig{Boot: 300, Seed: 2}))
	want, err := metrics.ClassAUCs(scores, labels, rocops.Classes(3))
	require.NoError(t, err)
	p := r.TestVsFirst[keyAUCOvR]
	require.InDelta(t, (1-2*want[1])/3, p.Diff, 1e-12)
	require.Less(t, p.Diff, 0.0)
	require.Less(t, p.CI95[1], 0.0)
	require.True(t, p.CI95[0] > 0 || p.CI95[1] < 0, "the interval excludes 0")
}

// The interval is the brute-force paired bootstrap: resample k draws, from PCG(seed, k), for
// each row a row of its class, both runs are scored on those rows, and the ends are R's
// type-7 quantiles of the differences.
func TestCompareClassesBruteForce(t *testing.T) {
	scores, labels := classRows()
	other := slices.Clone(scores)
	noise := rand.New(rand.NewPCG(9, 9))
	for i := range other {
		other[i] += 0.4 * noise.Float64()
	}
	const reps, seed = 250, 11
	r := classRun(other)
	require.NoError(t, compareWithFirst(r, classRun(scores), labels, MeasureConfig{Boot: reps, Seed: seed}))

	macro := func(s []float64, y []float64) float64 {
		a, err := metrics.TaskAUC(s, y, rocops.Classes(3), metrics.OvR, metrics.Macro)
		require.NoError(t, err)
		return a
	}
	members := make([][]int, 3)
	for i, y := range labels {
		members[int(y)] = append(members[int(y)], i)
	}
	n := len(labels)
	diffs := make([]float64, reps)
	for k := range reps {
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		sa, sb, y := make([]float64, 0, 3*n), make([]float64, 0, 3*n), make([]float64, n)
		for i := range n {
			from := members[int(labels[i])][rng.IntN(n/3)]
			sa = append(sa, other[3*from:3*from+3]...)
			sb = append(sb, scores[3*from:3*from+3]...)
			y[i] = labels[from]
		}
		diffs[k] = macro(sa, y) - macro(sb, y)
	}
	slices.Sort(diffs)
	q := func(p float64) float64 { // R's type 7
		h := p * float64(reps-1)
		lo := int(h)
		if lo+1 >= reps {
			return diffs[reps-1]
		}
		return diffs[lo] + (h-float64(lo))*(diffs[lo+1]-diffs[lo])
	}
	p := r.TestVsFirst[keyAUCOvR]
	require.Equal(t, macro(other, labels)-macro(scores, labels), p.Diff)
	require.InDelta(t, q(0.025), p.CI95[0], 1e-15)
	require.InDelta(t, q(0.975), p.CI95[1], 1e-15)
	require.Less(t, p.CI95[0], p.CI95[1])
}

// Multi-label rows are drawn within their set of labels, so every label column keeps its
// positives; a run against itself gets [0, 0].
func TestCompareClassesMultilabelSelf(t *testing.T) {
	scores, classes := classRows()
	labels := make([]float64, 0, len(scores))
	for i, c := range classes {
		labels = append(labels, float64(i%2), float64((i/2)%2), map[bool]float64{true: 1}[c == 2])
	}
	r, first := classRun(scores), classRun(scores)
	r.Classes.Multilabel, first.Classes.Multilabel = true, true
	require.NoError(t, compareWithFirst(r, first, labels, MeasureConfig{Boot: 100, Seed: 3}))
	require.Equal(t, map[string]Paired{keyAUCOvR: {}}, r.TestVsFirst)
	// The strata drawn within: rows share one exactly when their sets of labels are equal (the
	// first six rows' sets are 0, 1, 2, 3, 0, 4 in order of first appearance).
	rows, err := (&data.Dataset{Y: labels, Rows: len(labels) / 3, Labels: []string{"a", "b", "c"}}).Strata()
	require.NoError(t, err)
	per := rows.PerRow()
	for i := range per {
		for j := range per {
			require.Equal(t, slices.Equal(labels[3*i:3*i+3], labels[3*j:3*j+3]), per[i] == per[j], "rows %d and %d", i, j)
		}
	}
	require.Equal(t, per[0], per[4])
	require.Len(t, map[int]bool{per[0]: true, per[1]: true, per[2]: true, per[3]: true, per[5]: true}, 5)
}
