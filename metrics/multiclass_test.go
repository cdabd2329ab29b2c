package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
)

// scikit-learn's own multi-class cases, from sklearn/metrics/tests/test_ranking.py. Those tests
// compute their expected values with the binary roc_auc_score; each is worked by hand below.
func TestMulticlassSklearnCases(t *testing.T) {
	type want struct {
		m   Method
		avg Average
		auc float64
	}
	cases := []struct {
		name    string
		scores  []float64
		k       int
		labels  []float64
		classes []float64 // ClassAUCs
		want    []want
	}{
		{
			// test_multiclass_ovo_roc_auc_toydata: y_true = [0, 1, 0, 2], y_scores below (rows
			// r0…r3). Its asserted values: macro OvO = the mean of the three pair scores,
			// weighted OvO = their average weighted by the pairs' prevalence [0.75, 0.75, 0.5].
			// Pair {0, 1}, rows r0, r1, r2:
			//   column 0, positive 0: positives {.1, .35}, negative {.3}: .1 < .3 loses, .35 > .3
			//   wins → 1/2 (the test's roc_auc_score([1, 0, 1], [.1, .3, .35]));
			//   column 1, positive 1: positive {.4}, negatives {.8, .5}: loses both → 0
			//   (roc_auc_score([0, 1, 0], [.8, .4, .5])); S_01 = (1/2 + 0)/2 = 1/4.
			// Pair {0, 2}, rows r0, r2, r3:
			//   column 0, positive 0: {.1, .35} against {0}: both win → 1;
			//   column 2, positive 2: {.8} against {.1, .15}: both win → 1; S_02 = 1.
			// Pair {1, 2}, rows r1, r3:
			//   column 1: {.4} against {.2} → 1; column 2: {.8} against {.3} → 1; S_12 = 1.
			// Macro: (1/4 + 1 + 1)/3 = 9/4 / 3 = 3/4.
			// Weighted: prevalences 3/4, 3/4, 2/4 (the test's [0.75, 0.75, 0.50]);
			//   (.75·.25 + .75·1 + .5·1)/(.75 + .75 + .5) = (.1875 + .75 + .5)/2 = 1.4375/2 = 0.71875.
			// OvR (not asserted by that test; from the definition): column 0, positives
			//   {.1, .35} against {.3, 0}: .1 beats 0, .35 beats both → 3/4; column 1, {.4}
			//   against {.8, .5, .2} → 1/3; column 2, {.8} against {.1, .3, .15} → 1.
			//   Macro (3/4 + 1/3 + 1)/3 = (25/12)/3 = 25/36; weighted (2·3/4 + 1/3 + 1)/4 =
			//   (17/6)/4 = 17/24.
			name: "ovo toydata",
			scores: []float64{
				0.1, 0.8, 0.1,
				0.3, 0.4, 0.3,
				0.35, 0.5, 0.15,
				0, 0.2, 0.8,
			},
			k: 3, labels: []float64{0, 1, 0, 2},
			classes: []float64{0.75, 1.0 / 3, 1},
			want: []want{
				{OvO, Macro, 0.75}, {OvO, Weighted, 0.71875},
				{OvR, Macro, 25.0 / 36}, {OvR, Weighted, 17.0 / 24},
			},
		},
		{
			// test_multiclass_ovr_roc_auc_toydata: y_true = [0, 1, 2, 2]. It asserts the per-class
			// AUCs out_0…out_2 (average=None), macro = their mean and weighted = .25·out_0 +
			// .25·out_1 + .5·out_2 (supports 1, 1, 2).
			//   out_0: column 0 [1, .1, .1, .3], positive r0: 1 beats .1, .1, .3 → 1.
			//   out_1: column 1 [0, .5, .1, .3], positive r1: .5 beats 0, .1, .3 → 1.
			//   out_2: column 2 [0, .4, .8, .4], positives r2, r3 {.8, .4}, negatives {0, .4}:
			//     .8 beats both (2), .4 beats 0 (1) and ties .4 (½) → 3.5/4 = 0.875.
			// Macro (1 + 1 + .875)/3 = 2.875/3 = 23/24; weighted .25 + .25 + .5·.875 = 0.9375.
			// Micro (from the definition, as test_micro_averaged_ovr_roc_auc checks it: one AUC
			//   of the raveled one-hot labels): positives {1, .5, .8, .4}, the 8 negatives
			//   {0, 0, .1, .4, .1, .1, .3, .3}; 1, .8 and .5 beat all 8, .4 beats 7 and ties 1
			//   → (8 + 8 + 8 + 7.5)/32 = 31.5/32 = 0.984375.
			// OvO (from the definition): pair {0, 1}, rows r0, r1: column 0 {1} vs {.1} → 1,
			//   column 1 {.5} vs {0} → 1, S = 1. Pair {0, 2}, rows r0, r2, r3: column 0 {1} vs
			//   {.1, .3} → 1, column 2 {.8, .4} vs {0} → 1, S = 1. Pair {1, 2}, rows r1, r2, r3:
			//   column 1 {.5} vs {.1, .3} → 1; column 2 {.8, .4} vs {.4}: 1 + ½ → 3/4; S = 7/8.
			//   Macro (1 + 1 + 7/8)/3 = 23/24; weighted (2/4·1 + 3/4·1 + 3/4·7/8)/2 =
			//   (.5 + .75 + .65625)/2 = 0.953125.
			name: "ovr toydata",
			scores: []float64{
				1.0, 0.0, 0.0,
				0.1, 0.5, 0.4,
				0.1, 0.1, 0.8,
				0.3, 0.3, 0.4,
			},
			k: 3, labels: []float64{0, 1, 2, 2},
			classes: []float64{1, 1, 0.875},
			want: []want{
				{OvR, Macro, 23.0 / 24}, {OvR, Weighted, 0.9375}, {OvR, Micro, 0.984375},
				{OvO, Macro, 23.0 / 24}, {OvO, Weighted, 0.953125},
			},
		},
		{
			// test_perfect_imperfect_chance_multiclass_roc_auc, the perfect scorer: y_true =
			// [3, 1, 2, 0]; it asserts 1.0 for ovr macro, ovr micro and ovo macro. By hand: each
			// class's one row tops its column (col 0: .75 over 0, 0, 0; col 1: 1 over 0, 0, .05;
			// col 2: 1 over 0, 0, .05; col 3: 1 over 0, 0, .15), and for micro the four
			// positives (1, 1, 1, .75) beat the largest negative, .15.
			name: "perfect",
			scores: []float64{
				0, 0, 0, 1,
				0, 1, 0, 0,
				0, 0, 1, 0,
				0.75, 0.05, 0.05, 0.15,
			},
			k: 4, labels: []float64{3, 1, 2, 0},
			classes: []float64{1, 1, 1, 1},
			want:    []want{{OvR, Macro, 1}, {OvR, Micro, 1}, {OvO, Macro, 1}, {OvR, Weighted, 1}, {OvO, Weighted, 1}},
		},
		{
			// The same test's imperfect scorer: the last row becomes [0, 0, 0, 1]; it asserts a
			// value below 1. By hand: column 0, positive r3 at 0 ties the three negatives at 0 →
			// ½; columns 1 and 2 → 1; column 3, positive r0 at 1 against {0, 0, 1} → 2.5/3 = 5/6.
			// Macro OvR (½ + 1 + 1 + 5/6)/4 = (10/3)/4 = 5/6.
			name: "imperfect",
			scores: []float64{
				0, 0, 0, 1,
				0, 1, 0, 0,
				0, 0, 1, 0,
				0, 0, 0, 1,
			},
			k: 4, labels: []float64{3, 1, 2, 0},
			classes: []float64{0.5, 1, 1, 5.0 / 6},
			want:    []want{{OvR, Macro, 5.0 / 6}},
		},
		{
			// The same test's chance scorer: every score 0.25; it asserts 0.5 for ovr macro, ovr
			// micro and ovo macro. Every comparison is all ties, ½.
			name:   "chance",
			scores: []float64{0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25},
			k:      4, labels: []float64{3, 1, 2, 0},
			classes: []float64{0.5, 0.5, 0.5, 0.5},
			want:    []want{{OvR, Macro, 0.5}, {OvR, Micro, 0.5}, {OvO, Macro, 0.5}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ClassAUCs(c.scores, c.labels, rocops.Classes(c.k))
			require.NoError(t, err)
			require.InDeltaSlice(t, c.classes, got, tolExact)
			for _, w := range c.want {
				got, err := TaskAUC(c.scores, c.labels, rocops.Classes(c.k), w.m, w.avg)
				require.NoError(t, err)
				require.InDelta(t, w.auc, got, tolExact, "%v %v", w.m, w.avg)
			}
		})
	}
}

// scikit-learn's multi-label cases from test_roc_curve_toydata (test_ranking.py): it asserts
// the values below and that macro and weighted raise when a label column has one class. By
// hand: in the third case each column's positive scores 0 against a negative at 1 (AUC 0), and
// raveled the positives {0, 0} lose to the negatives {1, 1}; in the second, raveled labels
// [0, 1, 0, 1] and scores [0, 1, 1, 0] give positives {1, 0} against negatives {0, 1}:
// 1 + ½ + ½ + 0 over 4 = ½.
func TestMultilabelSklearnCases(t *testing.T) {
	cases := []struct {
		name           string
		labels, scores []float64
		macro, micro   float64 // macro < 0: macro and weighted are an error
	}{
		{"one class per column, right", []float64{0, 1, 0, 1}, []float64{0, 1, 0, 1}, -1, 1},
		{"one class per column, half", []float64{0, 1, 0, 1}, []float64{0, 1, 1, 0}, -1, 0.5},
		{"reversed", []float64{1, 0, 0, 1}, []float64{0, 1, 1, 0}, 0, 0},
		{"ties", []float64{1, 0, 0, 1}, []float64{0.5, 0.5, 0.5, 0.5}, 0.5, 0.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := TaskAUC(c.scores, c.labels, rocops.Labels(2), OvR, Micro)
			require.NoError(t, err)
			require.InDelta(t, c.micro, got, tolExact)
			for _, avg := range []Average{Macro, Weighted} {
				got, err := TaskAUC(c.scores, c.labels, rocops.Labels(2), OvR, avg)
				if c.macro < 0 {
					require.ErrorIs(t, err, rocops.ErrOneClass, "%v", avg)
					require.Contains(t, err.Error(), "label column 0")
					continue
				}
				require.NoError(t, err)
				require.InDelta(t, c.macro, got, tolExact, "%v", avg)
			}
		})
	}
}

// The brute-force references: every comparison by counting its pairs (pairAUC), straight
// from the definitions in TaskAUC's documentation.

func column(scores []float64, k, c int) []float64 {
	out := make([]float64, 0, len(scores)/k)
	for i := c; i < len(scores); i += k {
		out = append(out, scores[i])
	}
	return out
}

func bruteOvR(scores []float64, k int, labels []float64, c int) float64 {
	y := make([]float64, len(labels))
	for i, l := range labels {
		if int(l) == c {
			y[i] = 1
		}
	}
	return pairAUC(column(scores, k, c), y)
}

// bruteOvOHalf is A(a; {y = a}, {y = b}): column a over the rows of classes a and b.
func bruteOvOHalf(scores []float64, k int, labels []float64, a, b int) float64 {
	var s, y []float64
	for i, l := range labels {
		if int(l) == a || int(l) == b {
			s = append(s, scores[i*k+a])
			y = append(y, float64(btoi(int(l) == a)))
		}
	}
	return pairAUC(s, y)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func bruteMulticlass(scores []float64, k int, labels []float64, m Method, avg Average) float64 {
	counts := make([]float64, k)
	for _, l := range labels {
		counts[int(l)]++
	}
	n := float64(len(labels))
	switch {
	case avg == Micro:
		y := make([]float64, len(scores))
		for i, l := range labels {
			y[i*k+int(l)] = 1
		}
		return pairAUC(scores, y)
	case m == OvR:
		var sum, wsum float64
		for c := range k {
			w := 1.0
			if avg == Weighted {
				w = counts[c] / n
			}
			sum += w * bruteOvR(scores, k, labels, c)
			wsum += w
		}
		return sum / wsum
	}
	var sum, wsum float64
	for a := range k {
		for b := a + 1; b < k; b++ {
			w := 1.0
			if avg == Weighted {
				w = (counts[a] + counts[b]) / n
			}
			sum += w * (bruteOvOHalf(scores, k, labels, a, b) + bruteOvOHalf(scores, k, labels, b, a)) / 2
			wsum += w
		}
	}
	return sum / wsum
}

func bruteMultilabel(scores []float64, k int, labels []float64, avg Average) float64 {
	if avg == Micro {
		return pairAUC(scores, labels)
	}
	var sum, wsum float64
	for c := range k {
		y := column(labels, k, c)
		w := 1.0
		if avg == Weighted {
			w = 0
			for _, v := range y {
				w += v
			}
		}
		sum += w * pairAUC(column(scores, k, c), y)
		wsum += w
	}
	return sum / wsum
}

// randomMulticlass draws n rows of k classes, unbalanced (class c has weight c + 1, the first
// k rows hold every class), with scores normal plus signal on the true class, or on `levels`
// values when levels > 0 (heavy ties).
func randomMulticlass(rng *rand.Rand, n, k, levels int) ([]float64, []float64) {
	scores, labels := make([]float64, n*k), make([]float64, n)
	total := k * (k + 1) / 2
	for i := range n {
		y := i
		if i >= k {
			u := rng.IntN(total)
			for y = 0; u >= y+1; y++ {
				u -= y + 1
			}
		}
		labels[i] = float64(y)
		for c := range k {
			var f float64
			if levels > 0 {
				f = float64(rng.IntN(levels))
			} else {
				f = rng.NormFloat64()
			}
			if c == y && rng.IntN(2) == 0 {
				f++
			}
			scores[i*k+c] = f
		}
	}
	return scores, labels
}

func TestMulticlassAgainstBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1))
	for _, k := range []int{2, 3, 5, 8} {
		for _, levels := range []int{0, 2, 4} {
			for _, n := range []int{k, 30, 97} {
				scores, labels := randomMulticlass(rng, n, k, levels)
				name := fmt.Sprintf("k=%d/levels=%d/n=%d", k, levels, n)
				t.Run(name, func(t *testing.T) {
					for _, m := range []Method{OvR, OvO} {
						for _, avg := range []Average{Macro, Weighted, Micro} {
							if m == OvO && avg == Micro {
								continue
							}
							got, err := TaskAUC(scores, labels, rocops.Classes(k), m, avg)
							require.NoError(t, err)
							require.InDelta(t, bruteMulticlass(scores, k, labels, m, avg), got, tolBrute, "%v %v", m, avg)
						}
					}
					got, err := ClassAUCs(scores, labels, rocops.Classes(k))
					require.NoError(t, err)
					for c := range k {
						require.InDelta(t, bruteOvR(scores, k, labels, c), got[c], tolBrute, "class %d", c)
					}
					// Micro is one binary AUC of the raveled one-hot labels, as scikit-learn's
					// test_micro_averaged_ovr_roc_auc checks it with roc_curve and auc.
					y := make([]float64, n*k)
					for i, l := range labels {
						y[i*k+int(l)] = 1
					}
					want, err := AUC(scores, y)
					require.NoError(t, err)
					got1, err := TaskAUC(scores, labels, rocops.Classes(k), OvR, Micro)
					require.NoError(t, err)
					require.InDelta(t, want, got1, tolExact)
				})
			}
		}
	}
}

// TestOvOSymmetric: relabelling the classes (and permuting the columns with them) leaves every
// average unchanged, since each is a sum over classes or pairs.
func TestMulticlassRelabel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	const k, n = 4, 50
	scores, labels := randomMulticlass(rng, n, k, 3)
	perm := []int{2, 0, 3, 1}
	s2, l2 := make([]float64, n*k), make([]float64, n)
	for i := range n {
		l2[i] = float64(perm[int(labels[i])])
		for c := range k {
			s2[i*k+perm[c]] = scores[i*k+c]
		}
	}
	for _, m := range []Method{OvR, OvO} {
		for _, avg := range []Average{Macro, Weighted} {
			a, err := TaskAUC(scores, labels, rocops.Classes(k), m, avg)
			require.NoError(t, err)
			b, err := TaskAUC(s2, l2, rocops.Classes(k), m, avg)
			require.NoError(t, err)
			require.InDelta(t, a, b, tolExact, "%v %v", m, avg)
		}
	}
}

func randomMultilabel(rng *rand.Rand, n, k, levels int) ([]float64, []float64) {
	scores, labels := make([]float64, n*k), make([]float64, n*k)
	for i := range scores {
		c := i % k
		if rng.Float64() < 0.1+0.8*float64(c+1)/float64(k+1) {
			labels[i] = 1
		}
		if levels > 0 {
			scores[i] = float64(rng.IntN(levels))
		} else {
			scores[i] = rng.NormFloat64()
		}
		scores[i] += 0.5 * labels[i]
	}
	// Make every column hold both classes.
	for c := range k {
		labels[c], labels[k+c] = 1, 0
	}
	return scores, labels
}

// labelTask is the task of k label columns: Labels(k), and for one column the binary task, which
// is the task of one label per row.
func labelTask(k int) rocops.Task {
	if k == 1 {
		return rocops.Task{}
	}
	return rocops.Labels(k)
}

func TestMultilabelAgainstBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2))
	for _, k := range []int{1, 2, 5} {
		for _, levels := range []int{0, 3} {
			for _, n := range []int{2, 40} {
				scores, labels := randomMultilabel(rng, n, k, levels)
				t.Run(fmt.Sprintf("k=%d/levels=%d/n=%d", k, levels, n), func(t *testing.T) {
					for _, avg := range []Average{Macro, Weighted, Micro} {
						got, err := TaskAUC(scores, labels, labelTask(k), OvR, avg)
						require.NoError(t, err)
						require.InDelta(t, bruteMultilabel(scores, k, labels, avg), got, tolBrute, "%v", avg)
					}
				})
			}
		}
	}
}

var nan = math.NaN()

func TestMulticlassErrors(t *testing.T) {
	ok := []float64{0.1, 0.8, 0.1, 0.3, 0.4, 0.3, 0.35, 0.5, 0.15, 0, 0.2, 0.8}
	okLabels := []float64{0, 1, 0, 2}
	cases := []struct {
		name   string
		scores []float64
		k      int
		labels []float64
		m      Method
		avg    Average
		want   error
		says   string
	}{
		{"empty", nil, 3, nil, OvR, Macro, rocops.ErrEmpty, ""},
		// A task of fewer than two classes does not validate: k is the task's, not a count.
		{"k = 0", ok, 0, okLabels, OvR, Macro, rocops.ErrConfig, "task 0 classes"},
		{"not n·k", ok[:11], 3, okLabels, OvR, Macro, rocops.ErrLength, "11 scores"},
		{"k = 1", ok[:4], 1, []float64{0, 0, 0, 0}, OvR, Macro, rocops.ErrConfig, "task 1 classes"},
		{"NaN", append([]float64{nan}, ok[1:]...), 3, okLabels, OvO, Macro, rocops.ErrNonFinite, "scores[0]"},
		{"label 3", ok, 3, []float64{0, 1, 3, 2}, OvR, Macro, rocops.ErrLabel, "labels[2] = 3"},
		{"label −1", ok, 3, []float64{0, -1, 0, 2}, OvO, Weighted, rocops.ErrLabel, "labels[1] = -1"},
		{"label 0.5", ok, 3, []float64{0, 1, 0.5, 2}, OvR, Macro, rocops.ErrLabel, "labels[2] = 0.5"},
		{"label NaN", ok, 3, []float64{0, 1, nan, 2}, OvR, Macro, rocops.ErrLabel, "labels[2] = NaN"},
		// test_roc_auc_score_multiclass_labels_error: y_true = [0, 2, 0, 2] with three columns,
		// "Number of classes in y_true not equal to the number of columns in 'y_score'".
		{"class without rows", ok, 3, []float64{0, 2, 0, 2}, OvO, Macro, rocops.ErrOneClass, "class 1 has no rows"},
		{"micro with ovo", ok, 3, okLabels, OvO, Micro, rocops.ErrConfig, "micro with ovo"},
		{"unknown average", ok, 3, okLabels, OvR, Average(7), rocops.ErrConfig, "average 7"},
		{"unknown method", ok, 3, okLabels, Method(2), Macro, rocops.ErrConfig, "method 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := TaskAUC(c.scores, c.labels, rocops.Classes(c.k), c.m, c.avg)
			require.ErrorIs(t, err, c.want)
			require.Regexp(t, "^metrics: ", err.Error())
			require.Contains(t, err.Error(), c.says)
			if c.m == OvR && c.avg == Macro {
				_, err = ClassAUCs(c.scores, c.labels, rocops.Classes(c.k))
				require.ErrorIs(t, err, c.want, "ClassAUCs")
			}
		})
	}
}

func TestMultilabelErrors(t *testing.T) {
	ok := []float64{0.1, 0.8, 0.3, 0.4, 0.35, 0.5}
	okLabels := []float64{0, 1, 1, 0, 0, 1}
	cases := []struct {
		name           string
		scores, labels []float64
		k              int
		avg            Average
		want           error
		says           string
	}{
		{"empty", nil, nil, 2, Macro, rocops.ErrEmpty, ""},
		{"k = 0", ok, okLabels, 0, Macro, rocops.ErrConfig, "task 0 labels"},
		{"lengths", ok, okLabels[:4], 2, Macro, rocops.ErrLength, ""},
		{"not rows", ok[:5], okLabels[:5], 2, Macro, rocops.ErrLength, ""},
		{"Inf", []float64{0.1, inf, 0.3, 0.4, 0.35, 0.5}, okLabels, 2, Micro, rocops.ErrNonFinite, "scores[1]"},
		{"label 2", ok, []float64{0, 1, 2, 0, 0, 1}, 2, Macro, rocops.ErrLabel, "labels[2]"},
		{"column without positives", ok, []float64{0, 1, 0, 0, 0, 1}, 2, Weighted, rocops.ErrNoPositives, "label column 0"},
		{"column without negatives", ok, []float64{0, 1, 1, 1, 0, 1}, 2, Macro, rocops.ErrNoNegatives, "label column 1"},
		{"micro, all 0", ok, make([]float64, 6), 2, Micro, rocops.ErrNoPositives, ""},
		{"unknown average", ok, okLabels, 2, Average(-1), rocops.ErrConfig, "average -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := TaskAUC(c.scores, c.labels, rocops.Labels(c.k), OvR, c.avg)
			require.ErrorIs(t, err, c.want)
			require.Regexp(t, "^metrics: ", err.Error())
			require.Contains(t, err.Error(), c.says)
			if c.avg != Micro && averages.Valid(c.avg) {
				_, err = ClassAUCs(c.scores, c.labels, rocops.Labels(c.k))
				require.ErrorIs(t, err, c.want, "ClassAUCs")
			}
		})
	}
	// One-vs-one compares classes: it does not apply to label columns, nor to the binary task.
	_, err := TaskAUC(ok, okLabels, rocops.Labels(2), OvO, Macro)
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.Contains(t, err.Error(), "ovo of a multi-label task")
	_, err = TaskAUC(ok, okLabels, rocops.Task{}, OvO, Macro)
	require.ErrorIs(t, err, rocops.ErrConfig)
	// Micro needs both classes only overall: one column of one class is fine.
	got, err := TaskAUC(ok, []float64{0, 1, 0, 0, 0, 1}, rocops.Labels(2), OvR, Micro)
	require.NoError(t, err)
	require.InDelta(t, pairAUC(ok, []float64{0, 1, 0, 0, 0, 1}), got, tolExact)
}

// FuzzTaskAUCClasses: byte 0 picks k ∈ {2, 3, 4}; then each row is k + 1 bytes, the first the
// label (mod k + 1, so k is out of range), the others scores on eight levels (ties everywhere).
func FuzzTaskAUCClasses(f *testing.F) {
	f.Add([]byte{1, 0, 0x10, 0x80, 0x20, 1, 0x30, 0x40, 0x50, 2, 0x60, 0x70, 0x80})
	f.Add([]byte{0, 0, 0x10, 0x20, 1, 0x30, 0x40, 0, 0x30, 0x40})
	f.Add([]byte{2, 0, 1, 2, 3, 4, 1, 5, 6, 7, 8, 2, 9, 10, 11, 12, 3, 13, 14, 15, 16})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		k := 2 + int(data[0]%3)
		data = data[1:]
		scores, ints := testbatch.Classes(data, k, len(data), func(b byte) float64 { return float64(b >> 5) })
		labels := asFloats(ints)
		for _, m := range []Method{OvR, OvO} {
			for _, avg := range []Average{Macro, Weighted, Micro} {
				got, err := TaskAUC(scores, labels, rocops.Classes(k), m, avg)
				if m == OvO && avg == Micro {
					require.ErrorIs(t, err, rocops.ErrConfig)
					continue
				}
				if err != nil {
					require.False(t, !errors.Is(err, rocops.ErrEmpty) && !errors.Is(err, rocops.ErrOneClass) && !errors.Is(err, rocops.ErrLabel), "unexpected error %v", err)
					continue
				}
				require.InDelta(t, bruteMulticlass(scores, k, labels, m, avg), got, tolBrute, "%v %v", m, avg)
			}
		}
		aucs, err := ClassAUCs(scores, labels, rocops.Classes(k))
		if err == nil {
			for c := range k {
				require.InDelta(t, bruteOvR(scores, k, labels, c), aucs[c], tolBrute)
			}
		}
	})
}

// asFloats returns class indices as the float64 labels of a Classes task.
func asFloats[T int | float64](ys []T) []float64 {
	out := make([]float64, len(ys))
	for i, y := range ys {
		out[i] = float64(y)
	}
	return out
}

// FuzzTaskAUCLabels: byte 0 picks k ∈ {1, 2, 3}; every further byte is a cell, bit 0 its label
// and the high three bits its score.
func FuzzTaskAUCLabels(f *testing.F) {
	f.Add([]byte{1, 0x00, 0x11, 0x21, 0x30})
	f.Add([]byte{2, 0x01, 0x10, 0x51, 0x50, 0x31, 0x30, 0xf1, 0x00, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		k := 1 + int(data[0]%3)
		data = data[1:]
		n := len(data) / k
		scores, labels := make([]float64, n*k), make([]float64, n*k)
		for i := range scores {
			scores[i], labels[i] = float64(data[i]>>5), float64(data[i]&1)
		}
		for _, avg := range []Average{Macro, Weighted, Micro} {
			got, err := TaskAUC(scores, labels, labelTask(k), OvR, avg)
			if err != nil {
				require.False(t, !errors.Is(err, rocops.ErrEmpty) && !errors.Is(err, rocops.ErrOneClass), "unexpected error %v", err)
				continue
			}
			require.InDelta(t, bruteMultilabel(scores, k, labels, avg), got, tolBrute, "%v", avg)
		}
	})
}
