package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

var inf = math.Inf(1)

// tolExact bounds the rounding of a few sums and one division when the expected value is an
// exact fraction worked by hand.
const tolExact = 1e-12

// tolBrute bounds the disagreement with the naive references, which sum the same trapezoids
// in a different order and with rates instead of counts.
const tolBrute = 1e-12

// handCase is a small problem whose curve and metrics were worked out by hand; the working
// is in the comment of each entry.
type handCase struct {
	name           string
	scores, labels []float64
	fpr, tpr, thr  []float64
	auc            float64
	pauc           map[float64]float64 // maxFPR → standardised partial AUC
	tprAt          map[float64]float64 // fpr → TPR
}

var handCases = []handCase{
	{
		// scikit-learn's documentation example (roc_curve and roc_auc_score): roc_curve gives
		// fpr [0 0 0.5 0.5 1], tpr [0 0.5 0.5 1 1], thresholds [inf 0.8 0.4 0.35 0.1] and
		// roc_auc_score 0.75.
		// By hand, with the curve (0,0) (0,.5) (.5,.5) (.5,1) (1,1):
		// pAUC(.5): the cut at .5 falls after (.5,1) (searchsorted right), interpolating
		//   towards (1,1) gives TPR 1; A = .5·.5 = .25; ½(1 + (.25 − .125)/(.5 − .125)) = 2/3.
		// pAUC(.25): cut between (0,.5) and (.5,.5), TPR .5; A = .25·.5 = .125;
		//   ½(1 + (.125 − .03125)/(.25 − .03125)) = ½(1 + 3/7) = 5/7.
		// TPR at 0 is the top of the first rise, .5; at .5 the top of the second rise, 1.
		name:   "sklearn docs",
		scores: []float64{0.1, 0.4, 0.35, 0.8},
		labels: []float64{0, 0, 1, 1},
		fpr:    []float64{0, 0, 0.5, 0.5, 1},
		tpr:    []float64{0, 0.5, 0.5, 1, 1},
		thr:    []float64{inf, 0.8, 0.4, 0.35, 0.1},
		auc:    0.75,
		pauc:   map[float64]float64{0.5: 2.0 / 3, 0.25: 5.0 / 7, 1: 0.75},
		tprAt:  map[float64]float64{0: 0.5, 0.25: 0.5, 0.5: 1, 0.75: 1, 1: 1},
	},
	{
		// Ties across classes. Positives {.9, .5, .2}, negatives {.5, .2, .1}.
		// Pairs: .9 beats 3; .5 beats 2 and ties 1 → 2.5; .2 beats 1 and ties 1 → 1.5;
		//   AUC = 7/9.
		// Curve: ≥.9 (0,1/3); ≥.5 (1/3,2/3); ≥.2 (2/3,1); ≥.1 (1,1). Trapezoids
		//   1/3·(1/3+2/3)/2 + 1/3·(2/3+1)/2 + 1/3·1 = 3/18 + 5/18 + 6/18 = 7/9 again.
		// Cut at .5 between (1/3,2/3) and (2/3,1): TPR 2/3 + (1/6)/(1/3)·(1/3) = 5/6;
		//   A = 1/6 + (1/6)·(2/3 + 5/6)/2 = 7/24; ½(1 + (7/24 − 3/24)/(9/24)) = 13/18.
		name:   "ties across classes",
		scores: []float64{0.5, 0.5, 0.2, 0.9, 0.2, 0.1},
		labels: []float64{0, 1, 0, 1, 1, 0},
		fpr:    []float64{0, 0, 1.0 / 3, 2.0 / 3, 1},
		tpr:    []float64{0, 1.0 / 3, 2.0 / 3, 1, 1},
		thr:    []float64{inf, 0.9, 0.5, 0.2, 0.1},
		auc:    7.0 / 9,
		pauc:   map[float64]float64{0.5: 13.0 / 18},
		tprAt:  map[float64]float64{0: 1.0 / 3, 0.5: 5.0 / 6},
	},
	{
		// Negative scores, ties within the positives and across classes. Positives {−1, −1},
		// negatives {−1, −2, −3}: each positive beats 2 negatives and ties 1 → 2.5, AUC 5/6.
		// Curve: ≥−1 (1/3,1); ≥−2 (2/3,1); ≥−3 (1,1).
		// Cut at .2 on the first segment: TPR .2·3 = .6; A = .2·.6/2 = .06;
		//   ½(1 + (.06 − .02)/(.2 − .02)) = ½(1 + 2/9) = 11/18.
		name:   "negative scores and ties",
		scores: []float64{-1, -1, -2, -1, -3},
		labels: []float64{1, 1, 0, 0, 0},
		fpr:    []float64{0, 1.0 / 3, 2.0 / 3, 1},
		tpr:    []float64{0, 1, 1, 1},
		thr:    []float64{inf, -1, -2, -3},
		auc:    5.0 / 6,
		pauc:   map[float64]float64{0.2: 11.0 / 18},
		tprAt:  map[float64]float64{0: 0, 0.2: 0.6, 1.0 / 3: 1},
	},
	{
		// All scores tied: one diagonal segment, AUC ½; A(.3) = .3²/2 is the chance area, so
		// the standardised partial AUC is ½; TPR equals FPR along the diagonal.
		name:   "all tied",
		scores: []float64{3, 3, 3, 3},
		labels: []float64{0, 1, 1, 0},
		fpr:    []float64{0, 1},
		tpr:    []float64{0, 1},
		thr:    []float64{inf, 3},
		auc:    0.5,
		pauc:   map[float64]float64{0.3: 0.5},
		tprAt:  map[float64]float64{0: 0, 0.3: 0.3},
	},
	{
		// Perfect ranking: the curve rises to TPR 1 at FPR 0, so A(β) = β, the maximum, and
		// every standardised partial AUC is 1.
		name:   "perfect",
		scores: []float64{1, 2, 3, 4},
		labels: []float64{0, 0, 0, 1},
		fpr:    []float64{0, 0, 1.0 / 3, 2.0 / 3, 1},
		tpr:    []float64{0, 1, 1, 1, 1},
		thr:    []float64{inf, 4, 3, 2, 1},
		auc:    1,
		pauc:   map[float64]float64{0.1: 1, 0.5: 1},
		tprAt:  map[float64]float64{0: 1, 0.1: 1},
	},
	{
		// Reversed ranking: the curve runs along the FPR axis, A = 0, and the standardised
		// value is its minimum ½(1 − (β²/2)/(β − β²/2)) = (1 − β)/(2 − β) = 1/3 at β = .5.
		name:   "reversed",
		scores: []float64{0, 1},
		labels: []float64{1, 0},
		fpr:    []float64{0, 1, 1},
		tpr:    []float64{0, 0, 1},
		thr:    []float64{inf, 1, 0},
		auc:    0,
		pauc:   map[float64]float64{0.5: 1.0 / 3},
		tprAt:  map[float64]float64{0.5: 0, 1: 1},
	},
}

func TestHandWorked(t *testing.T) {
	for _, c := range handCases {
		t.Run(c.name, func(t *testing.T) {
			fpr, tpr, thr, err := ROC(c.scores, c.labels)
			require.NoError(t, err)
			require.InDeltaSlice(t, c.fpr, fpr, tolExact, "fpr")
			require.InDeltaSlice(t, c.tpr, tpr, tolExact, "tpr")
			require.Equal(t, c.thr, thr, "thresholds")

			auc, err := AUC(c.scores, c.labels)
			require.NoError(t, err)
			require.InDelta(t, c.auc, auc, tolExact, "AUC")
			require.InDelta(t, c.auc, pairAUC(c.scores, c.labels), tolExact, "pair-counting reference")

			for beta, want := range c.pauc {
				got, err := PartialAUC(c.scores, c.labels, beta)
				require.NoError(t, err)
				require.InDelta(t, want, got, tolExact, "PartialAUC at %v", beta)
			}
			for x, want := range c.tprAt {
				got, err := TPRAtFPR(c.scores, c.labels, x)
				require.NoError(t, err)
				require.InDelta(t, want, got, tolExact, "TPRAtFPR at %v", x)
			}
		})
	}
}

// TestAgainstReferences compares every function with the naive references on random
// problems, continuous and heavily tied, balanced and imbalanced, at cut points that fall
// between vertices and exactly on them.
func TestAgainstReferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 7, 50, 300} {
		for _, p := range []float64{0.5, 0.1} {
			for _, levels := range []int{0, 3, 12} {
				t.Run(fmt.Sprintf("n=%d/p=%v/levels=%d", n, p, levels), func(t *testing.T) {
					scores, labels := randomProblem(rng, n, p, levels)
					wantFPR, wantTPR, wantThr := bruteROC(scores, labels)
					fpr, tpr, thr, err := ROC(scores, labels)
					require.NoError(t, err)
					require.InDeltaSlice(t, wantFPR, fpr, tolBrute)
					require.InDeltaSlice(t, wantTPR, tpr, tolBrute)
					require.Equal(t, wantThr, thr)

					auc, err := AUC(scores, labels)
					require.NoError(t, err)
					require.InDelta(t, pairAUC(scores, labels), auc, tolBrute)

					cuts := []float64{0.01, 0.05, 0.1, 0.37, 0.5, 0.99}
					for _, f := range fpr {
						if f > 0 && f < 1 {
							cuts = append(cuts, f) // exactly on a vertex
							break
						}
					}
					for _, x := range cuts {
						got, err := PartialAUC(scores, labels, x)
						require.NoError(t, err)
						require.InDelta(t, brutePartialAUC(scores, labels, x), got, tolBrute, "PartialAUC at %v", x)
						got, err = TPRAtFPR(scores, labels, x)
						require.NoError(t, err)
						require.InDelta(t, bruteTPRAt(scores, labels, x), got, tolBrute, "TPRAtFPR at %v", x)
					}
				})
			}
		}
	}
}

func TestROCShape(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	scores, labels := randomProblem(rng, 500, 0.2, 40)
	fpr, tpr, thr, err := ROC(scores, labels)
	require.NoError(t, err)
	require.Equal(t, [2]float64{0, 0}, [2]float64{fpr[0], tpr[0]})
	require.Equal(t, [2]float64{1, 1}, [2]float64{fpr[len(fpr)-1], tpr[len(tpr)-1]})
	for k := 1; k < len(thr); k++ {
		require.Less(t, thr[k], thr[k-1], "thresholds strictly descending")
		require.GreaterOrEqual(t, fpr[k], fpr[k-1])
		require.GreaterOrEqual(t, tpr[k], tpr[k-1])
		require.True(t, fpr[k] > fpr[k-1] || tpr[k] > tpr[k-1], "every distinct score moves the curve")
	}
}

// TestProperties checks identities that hold for any scores: AUC depends only on the order
// of the scores, reversing the order maps AUC to 1 − AUC, and the partial AUC at β = 1 is the
// AUC (the standardisation is the identity there, so β just below 1 must be close).
func TestProperties(t *testing.T) {
	// Strictly increasing maps. The scores are multiples of 1/8 in [−1, 3], where all of these
	// keep distinct values distinct in float64.
	transforms := map[string]func(float64) float64{
		"affine": func(x float64) float64 { return 5*x - 2 },
		"exp":    math.Exp,
		"cubic":  func(x float64) float64 { return x*x*x + x },
		"atan":   math.Atan,
	}
	const tolNearOne = 1e-8 // |pAUC(1 − ε) − AUC| = O(ε) with ε = 1e-9
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 20 {
		scores, labels := randomProblem(rng, 60, 0.3, 24)
		for i := range scores {
			scores[i] -= 1
		}
		auc, err := AUC(scores, labels)
		require.NoError(t, err)
		for name, f := range transforms {
			moved := make([]float64, len(scores))
			for i, s := range scores {
				moved[i] = f(s)
			}
			got, err := AUC(moved, labels)
			require.NoError(t, err)
			require.Equal(t, auc, got, "trial %d: AUC under %s", trial, name)
		}

		negated := make([]float64, len(scores))
		for i, s := range scores {
			negated[i] = -s
		}
		rev, err := AUC(negated, labels)
		require.NoError(t, err)
		require.InDelta(t, 1, auc+rev, tolExact, "trial %d: AUC(s) + AUC(−s)", trial)

		one, err := PartialAUC(scores, labels, 1)
		require.NoError(t, err)
		require.Equal(t, auc, one, "trial %d: PartialAUC at 1", trial)
		near, err := PartialAUC(scores, labels, 1-1e-9)
		require.NoError(t, err)
		require.InDelta(t, auc, near, tolNearOne, "trial %d: PartialAUC just below 1", trial)
	}
}

func TestErrors(t *testing.T) {
	ok := []float64{0.2, 0.7}
	okLabels := []float64{0, 1}
	cases := []struct {
		name           string
		scores, labels []float64
		rate           float64
		want           error
	}{
		{"empty", nil, nil, 0.1, rocops.ErrEmpty},
		{"length mismatch", []float64{1, 2, 3}, okLabels, 0.1, rocops.ErrLength},
		{"NaN score", []float64{0.2, math.NaN()}, okLabels, 0.1, rocops.ErrNonFinite},
		{"+Inf score", []float64{math.Inf(1), 0.2}, okLabels, 0.1, rocops.ErrNonFinite},
		{"-Inf score", []float64{0.2, math.Inf(-1)}, okLabels, 0.1, rocops.ErrNonFinite},
		{"label 2", ok, []float64{0, 2}, 0.1, rocops.ErrLabel},
		{"label -1", ok, []float64{-1, 1}, 0.1, rocops.ErrLabel},
		{"label NaN", ok, []float64{math.NaN(), 1}, 0.1, rocops.ErrLabel},
		{"only negatives", ok, []float64{0, 0}, 0.1, rocops.ErrOneClass},
		{"only positives", ok, []float64{1, 1}, 0.1, rocops.ErrOneClass},
		{"rate negative", ok, okLabels, -0.1, rocops.ErrConfig},
		{"rate above 1", ok, okLabels, 1.5, rocops.ErrConfig},
		{"rate NaN", ok, okLabels, math.NaN(), rocops.ErrConfig},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := AUC(c.scores, c.labels)
			if c.want != rocops.ErrConfig {
				require.ErrorIs(t, err, c.want, "AUC")
			} else {
				require.NoError(t, err, "AUC takes no rate")
			}
			_, _, _, err = ROC(c.scores, c.labels)
			if c.want != rocops.ErrConfig {
				require.ErrorIs(t, err, c.want, "ROC")
			}
			_, err = PartialAUC(c.scores, c.labels, c.rate)
			require.ErrorIs(t, err, c.want, "PartialAUC")
			_, err = TPRAtFPR(c.scores, c.labels, c.rate)
			require.ErrorIs(t, err, c.want, "TPRAtFPR")
			require.Regexp(t, "^metrics: ", err.Error())
		})
	}

	// The partial AUC needs a positive width; the TPR at FPR 0 is well defined.
	_, err := PartialAUC(ok, okLabels, 0)
	require.ErrorIs(t, err, rocops.ErrConfig)
	got, err := TPRAtFPR(ok, okLabels, 0)
	require.NoError(t, err)
	require.Equal(t, 1.0, got)
}

// FuzzAgainstReferences decodes each byte as a row: bit 0 is the label, the high four bits
// the score, so ties are everywhere.
func FuzzAgainstReferences(f *testing.F) {
	f.Add([]byte{0x00, 0x11, 0x10, 0x21})
	f.Add([]byte{0x51, 0x50, 0x51, 0x30, 0xf1, 0x00})
	f.Add([]byte{0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01})
	f.Fuzz(func(t *testing.T, rows []byte) {
		scores, labels := make([]float64, len(rows)), make([]float64, len(rows))
		for i, b := range rows {
			scores[i], labels[i] = float64(b>>4), float64(b&1)
		}
		auc, err := AUC(scores, labels)
		if err != nil {
			require.False(t, !errors.Is(err, rocops.ErrEmpty) && !errors.Is(err, rocops.ErrOneClass), "unexpected error %v", err)
			return
		}
		require.InDelta(t, pairAUC(scores, labels), auc, tolBrute)
		for _, x := range []float64{0.05, 0.3, 0.5} {
			got, err := PartialAUC(scores, labels, x)
			require.NoError(t, err)
			require.InDelta(t, brutePartialAUC(scores, labels, x), got, tolBrute)
			got, err = TPRAtFPR(scores, labels, x)
			require.NoError(t, err)
			require.InDelta(t, bruteTPRAt(scores, labels, x), got, tolBrute)
		}
	})
}
