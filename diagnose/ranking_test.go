package diagnose_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// Counting is exact up to the rounding of a sum of at most n₊n₋ halves.
const countTol = 1e-12

func bruteCounts(scores, labels []float64, m float64) (mis, severe float64) {
	pos, neg := classIndices(labels)
	for _, i := range pos {
		for _, j := range neg {
			x := scores[i] - scores[j]
			switch {
			case x < 0:
				mis++
			case x == 0:
				mis += 0.5
			}
			if x < -m {
				severe++
			}
		}
	}
	p := float64(len(pos) * len(neg))
	return mis / p, severe / p
}

func TestCountsMatchBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		pos, m  float64
		roundTo float64 // scores rounded to multiples of this, to make ties; 0 = none
		seed    uint64
	}{
		{"small", 7, 0.4, 0.5, 0, 1},
		{"balanced", 300, 0.5, 1, 0, 2},
		{"rare positives", 500, 0.05, 2, 0, 3},
		{"many ties", 400, 0.3, 1, 0.5, 4},
		{"all tied", 50, 0.5, 1, 100, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scores, labels := testbatch.Spread(tc.seed, 1, tc.n, tc.pos, 2)
			if tc.roundTo > 0 {
				for i := range scores {
					scores[i] = tc.roundTo * math.Round(scores[i]/tc.roundTo)
				}
			}
			wantMis, wantSevere := bruteCounts(scores, labels, tc.m)
			mis, err := binMisranking(scores, labels)
			require.NoError(t, err)
			severe, err := binSevereMass(scores, labels, tc.m)
			require.NoError(t, err)
			near(t, "Misranking", mis, wantMis, countTol)
			near(t, "SevereMass", severe, wantSevere, countTol)
		})
	}
}

// TestCEBoundReference checks CEBound against a value worked by hand: positives {0, −2},
// negatives {1}, M = 2. R₊ = (log 2 + log(1 + e²))/2, R₋ = log(1 + e), divided by log(1 + e).
func TestCEBoundReference(t *testing.T) {
	got, err := binCEBound([]float64{0, -2, 1}, []float64{1, 1, 0}, 2)
	require.NoError(t, err)
	want := ((math.Log(2)+math.Log1p(math.Exp(2)))/2 + math.Log1p(math.E)) / math.Log1p(math.E)
	near(t, "CEBound", got, want, 1e-15)
}

// TestCEBoundHolds checks π_M ≤ CEBound on random scores of several spreads and on
// adversarial ones that sit on the edges of the proof (docs/diagnostics.md).
func TestCEBoundHolds(t *testing.T) {
	type batch struct {
		name           string
		scores, labels []float64
	}
	var cases []batch
	for seed := uint64(0); seed < 40; seed++ {
		s, l := testbatch.Spread(seed, 1, 200, 0.1+0.02*float64(seed), 0.5+float64(seed%8))
		// A shift makes the classes misranked on purpose in half the cases.
		if seed%2 == 1 {
			for i := range s {
				if l[i] == 1 {
					s[i] -= 3
				}
			}
		}
		cases = append(cases, batch{"random", s, l})
	}
	for _, m := range []float64{0.1, 1, 4, 20} {
		h, d := m/2, 1e-9
		cases = append(cases,
			// Every pair just severe, each score just past ±M/2.
			batch{"both sides at ±M/2", []float64{-h - d, -h - d, h + d, h + d}, []float64{1, 1, 0, 0}},
			// Only the positive side fails; negatives inside (−M/2, M/2].
			batch{"positive side only", []float64{-h - d, 50, 50, h - d/2, -40}, []float64{1, 1, 1, 0, 0}},
			// Only the negative side fails, one positive against many negatives.
			batch{"one positive", []float64{-h + d/2, h + d, h + d, h + d, h + d, h + d}, []float64{1, 0, 0, 0, 0, 0}},
			// Extreme logits.
			batch{"extreme", []float64{-700, 700, -700, 700}, []float64{1, 0, 0, 1}},
		)
	}
	for _, m := range []float64{0.1, 1, 4, 20} {
		for _, c := range cases {
			mass, err := binSevereMass(c.scores, c.labels, m)
			require.NoError(t, err)
			bound, err := binCEBound(c.scores, c.labels, m)
			require.NoError(t, err)
			require.LessOrEqual(t, mass, bound, "%s, M = %v: π_M = %v > CEBound = %v", c.name, m, mass, bound)
		}
	}
}

// TestSharedVocabulary: the input errors are the module's shared values.
func TestSharedVocabulary(t *testing.T) {
	for _, pair := range [][2]error{
		{rocops.ErrEmpty, rocops.ErrEmpty}, {rocops.ErrLength, rocops.ErrLength},
		{rocops.ErrNonFinite, rocops.ErrNonFinite}, {rocops.ErrLabel, rocops.ErrLabel},
		{rocops.ErrNoPositives, rocops.ErrNoPositives}, {rocops.ErrNoNegatives, rocops.ErrNoNegatives},
	} {
		require.False(t, pair[0] != pair[1], "%v and %v are different values", pair[0], pair[1])
	}
}

func TestScoreErrors(t *testing.T) {
	good := []float64{1, 0}
	for _, tc := range []struct {
		name           string
		scores, labels []float64
		m              float64
		want           error
	}{
		{"empty", nil, nil, 1, rocops.ErrEmpty},
		{"length", []float64{1, 2}, []float64{1}, 1, rocops.ErrLength},
		{"NaN", []float64{math.NaN(), 0}, good, 1, rocops.ErrNonFinite},
		{"Inf", []float64{0, math.Inf(1)}, good, 1, rocops.ErrNonFinite},
		{"label", []float64{0, 1}, []float64{1, 2}, 1, rocops.ErrLabel},
		{"no positives", []float64{0, 1}, []float64{0, 0}, 1, rocops.ErrNoPositives},
		{"no negatives", []float64{0, 1}, []float64{1, 1}, 1, rocops.ErrNoNegatives},
		{"zero severity", []float64{0, 1}, good, 0, rocops.ErrConfig},
		{"NaN severity", []float64{0, 1}, good, math.NaN(), rocops.ErrConfig},
		{"infinite severity", []float64{0, 1}, good, math.Inf(1), rocops.ErrConfig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errM := binMisranking(tc.scores, tc.labels)
			_, errS := binSevereMass(tc.scores, tc.labels, tc.m)
			_, errC := binCEBound(tc.scores, tc.labels, tc.m)
			for name, err := range map[string]error{"SevereMass": errS, "CEBound": errC} {
				require.ErrorIs(t, err, tc.want, "%s: error %v, want %v", name, err, tc.want)
				require.False(t, err != nil && !strings.HasPrefix(err.Error(), "diagnose: "), "%s: message %q does not start with the package name", name, err)
			}
			require.False(t, tc.want != rocops.ErrConfig && !errors.Is(errM, tc.want), "Misranking: error %v, want %v", errM, tc.want)
			require.Equal(t, errors.Is(errS, rocops.ErrOneClass), errors.Is(tc.want, rocops.ErrOneClass), "errors.Is(%v, ErrOneClass) is wrong", errS)
		})
	}
}
