package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// bruteFPRAt reads the smallest false-positive rate at which bruteROC's polyline reaches
// TPR ≥ r: on every segment that ends at or above r, the first point at or above r, and
// the smallest of those over all segments.
func bruteFPRAt(scores, labels []float64, r float64) float64 {
	fpr, tpr, _ := bruteROC(scores, labels)
	best := math.Inf(1)
	if r <= 0 {
		return 0
	}
	for k := 1; k < len(fpr); k++ {
		if tpr[k] < r {
			continue
		}
		u := fpr[k-1]
		if tpr[k-1] < r {
			u += (fpr[k] - fpr[k-1]) * (r - tpr[k-1]) / (tpr[k] - tpr[k-1])
		}
		best = min(best, u)
	}
	return best
}

// rates counts, by scanning all rows, the false- and true-positive rates of flagging the rows
// scoring at least t.
func rates(scores, labels []float64, t float64) (fpr, tpr float64) {
	var fp, tp, nNeg, nPos float64
	for i, s := range scores {
		nPos += labels[i]
		nNeg += 1 - labels[i]
		if s >= t {
			tp += labels[i]
			fp += 1 - labels[i]
		}
	}
	return fp / nNeg, tp / nPos
}

func TestFPRAtTPRHandWorked(t *testing.T) {
	// The curves are those of the hand-worked cases in metrics_test.go.
	cases := []struct {
		name           string
		scores, labels []float64
		at             map[float64]float64 // tpr → FPR
	}{
		// Curve (0,0) (0,.5) (.5,.5) (.5,1) (1,1): TPR .5 is reached at FPR 0; anything above
		// needs the vertical rise at FPR .5.
		{"sklearn docs", []float64{0.1, 0.4, 0.35, 0.8}, []float64{0, 0, 1, 1},
			map[float64]float64{0: 0, 0.25: 0, 0.5: 0, 0.75: 0.5, 1: 0.5}},
		// Curve (0,0) (0,1/3) (1/3,2/3) (2/3,1) (1,1): TPR .5 lies half-way up the tied
		// segment from (0,1/3) to (1/3,2/3), at FPR 1/6; TPR 1 is first reached at 2/3.
		{"ties across classes", []float64{0.5, 0.5, 0.2, 0.9, 0.2, 0.1}, []float64{0, 1, 0, 1, 1, 0},
			map[float64]float64{1.0 / 3: 0, 0.5: 1.0 / 6, 2.0 / 3: 1.0 / 3, 1: 2.0 / 3}},
		// All tied: the diagonal, FPR = TPR.
		{"all tied", []float64{3, 3, 3, 3}, []float64{0, 1, 1, 0},
			map[float64]float64{0: 0, 0.3: 0.3, 1: 1}},
		// Reversed: the curve runs along the FPR axis to (1,0), then up.
		{"reversed", []float64{0, 1}, []float64{1, 0}, map[float64]float64{0: 0, 0.01: 1, 1: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for r, want := range c.at {
				got, err := FPRAtTPR(c.scores, c.labels, r)
				require.NoError(t, err)
				require.InDelta(t, want, got, tolExact, "FPRAtTPR at %v", r)
			}
		})
	}
}

// FPRAtTPR agrees with the brute-force reading of the curve on random problems, continuous and
// heavily tied, at rates between vertices and exactly on them.
func TestFPRAtTPRAgainstBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{2, 5, 40, 300} {
		for _, levels := range []int{0, 2, 5, 20} {
			t.Run(fmt.Sprintf("n=%d/levels=%d", n, levels), func(t *testing.T) {
				for range 20 {
					scores, labels := randomProblem(rng, n, 0.3, levels)
					_, tprs, _ := bruteROC(scores, labels)
					cuts := []float64{0, 0.01, 0.1, 0.5, 0.8, 0.95, 0.999, 1}
					cuts = append(cuts, tprs[len(tprs)/2]) // exactly on a vertex
					for _, r := range cuts {
						got, err := FPRAtTPR(scores, labels, r)
						require.NoError(t, err)
						require.InDelta(t, bruteFPRAt(scores, labels, r), got, tolBrute, "FPRAtTPR at %v", r)
					}
				}
			})
		}
	}
}

// FPRAtTPR inverts TPRAtFPR where the curve rises strictly: TPRAtFPR(FPRAtTPR(r)) ≥ r, and
// any smaller rate reaches less than r.
func TestFPRAtTPRInvertsTPRAtFPR(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 50 {
		scores, labels := randomProblem(rng, 80, 0.4, 6)
		for _, r := range []float64{0.2, 0.5, 0.9} {
			u, err := FPRAtTPR(scores, labels, r)
			require.NoError(t, err)
			back, err := TPRAtFPR(scores, labels, u)
			require.NoError(t, err)
			require.GreaterOrEqual(t, back+tolBrute, r)
			if u > 1e-9 {
				below, err := TPRAtFPR(scores, labels, u-1e-9)
				require.NoError(t, err)
				require.Less(t, below, r)
			}
		}
	}
}

// The threshold keeps the achieved rate within the budget, its rates are those of flagging
// score ≥ t counted row by row, and lowering it to the next distinct score would exceed the
// budget.
func TestThresholdAtFPRProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{2, 7, 60, 400} {
		for _, levels := range []int{0, 2, 4, 30} {
			t.Run(fmt.Sprintf("n=%d/levels=%d", n, levels), func(t *testing.T) {
				for range 20 {
					scores, labels := randomProblem(rng, n, 0.3, levels)
					distinct := slices.Clone(scores)
					slices.Sort(distinct)
					distinct = slices.Compact(distinct)
					_, negRates, _ := bruteROC(scores, labels)
					for _, fpr := range []float64{0, 0.01, 0.05, 0.1, 0.33, 0.5, 0.9, 1, negRates[len(negRates)/2]} {
						th, achieved, tpr, err := ThresholdAtFPR(scores, labels, fpr)
						require.NoError(t, err)
						require.LessOrEqual(t, achieved, fpr, "achieved FPR within the budget")
						wantFPR, wantTPR := rates(scores, labels, th)
						require.Equal(t, wantFPR, achieved, "achieved FPR of score ≥ %v", th)
						require.Equal(t, wantTPR, tpr, "TPR of score ≥ %v", th)
						// The next distinct score below t (the lowest score when t = +Inf).
						k, found := slices.BinarySearch(distinct, th)
						if math.IsInf(th, 1) {
							k = len(distinct)
						} else {
							require.True(t, found, "t = %v is a score", th)
						}
						if k > 0 {
							lower, _ := rates(scores, labels, distinct[k-1])
							require.Greater(t, lower, fpr, "lowering t from %v to %v exceeds the budget", th, distinct[k-1])
						}
					}
				}
			})
		}
	}
}

func TestThresholdAtFPRDocumentedCases(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name                string
		scores, labels      []float64
		fpr                 float64
		wantT, wantF, wantR float64
	}{
		// All tied: flagging any row flags all of them, FPR 1.
		{"all tied, fpr < 1", []float64{2, 2, 2, 2}, []float64{0, 1, 0, 1}, 0.99, inf, 0, 0},
		{"all tied, fpr = 1", []float64{2, 2, 2, 2}, []float64{0, 1, 0, 1}, 1, 2, 1, 1},
		// Four negatives {.1, .2, .3, .6}, positives {.5, .7, .9}: below 1/4 no negative may
		// be flagged, so t is the lowest score above .6, the positive .7; two of three
		// positives are caught.
		{"fpr below 1/N", []float64{0.1, 0.2, 0.3, 0.6, 0.5, 0.7, 0.9}, []float64{0, 0, 0, 0, 1, 1, 1}, 0.2, 0.7, 0, 2.0 / 3},
		// The same at exactly 1/4: the negative .6 may be flagged, and .5 is still above
		// the next negative, so t = .5 with every positive.
		{"fpr exactly 1/N", []float64{0.1, 0.2, 0.3, 0.6, 0.5, 0.7, 0.9}, []float64{0, 0, 0, 0, 1, 1, 1}, 0.25, 0.5, 0.25, 1},
		// The top score is a negative: nothing can be flagged below FPR 1/N.
		{"fpr below 1/N, top score negative", []float64{0.9, 0.5, 0.1}, []float64{0, 1, 0}, 0.4, inf, 0, 0},
		{"fpr = 1", []float64{0.9, 0.5, 0.1}, []float64{0, 1, 0}, 1, 0.1, 1, 1},
		// A tie between a positive and a negative straddling the budget: both or neither.
		{"tie straddles the budget", []float64{0.8, 0.4, 0.4, 0.1}, []float64{1, 1, 0, 0}, 0.4, 0.8, 0, 0.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			th, f, r, err := ThresholdAtFPR(c.scores, c.labels, c.fpr)
			require.NoError(t, err)
			require.Equal(t, c.wantT, th, "threshold")
			require.InDelta(t, c.wantF, f, tolExact, "achieved FPR")
			require.InDelta(t, c.wantR, r, tolExact, "TPR")
		})
	}
}

func TestOperatingPointErrors(t *testing.T) {
	ok, okLabels := []float64{0.2, 0.7}, []float64{0, 1}
	for _, rate := range []float64{-0.1, 1.5, math.NaN()} {
		_, _, _, err := ThresholdAtFPR(ok, okLabels, rate)
		require.ErrorIs(t, err, rocops.ErrConfig)
		_, err = FPRAtTPR(ok, okLabels, rate)
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.Regexp(t, "^metrics: ", err.Error())
	}
	for _, c := range []struct {
		scores, labels []float64
		want           error
	}{
		{nil, nil, rocops.ErrEmpty},
		{ok, []float64{1}, rocops.ErrLength},
		{[]float64{math.NaN(), 1}, okLabels, rocops.ErrNonFinite},
		{ok, []float64{0, 3}, rocops.ErrLabel},
		{ok, []float64{1, 1}, rocops.ErrOneClass},
	} {
		_, _, _, err := ThresholdAtFPR(c.scores, c.labels, 0.1)
		require.ErrorIs(t, err, c.want)
		_, err = FPRAtTPR(c.scores, c.labels, 0.5)
		require.ErrorIs(t, err, c.want)
	}
}
