package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// tolCounts bounds the disagreement of the counted figures with the in-process ones: both sum
// the same terms, in the same order for the curve's figures and by groups of tied rows for
// DeLong's variance, so only a few roundings separate them.
const tolCounts = 1e-12

// shardCounts counts the rows of each of shards interleaved shards apart, as workers would,
// and returns all the shards' counts in one list, a score appearing once per shard holding it.
func shardCounts(scores, labels []float64, shards int) []ScoreCount {
	var all []ScoreCount
	for s := range shards {
		m := map[float64]*ScoreCount{}
		var order []float64
		for i := s; i < len(scores); i += shards {
			c := m[scores[i]]
			if c == nil {
				c = &ScoreCount{Score: scores[i]}
				m[scores[i]] = c
				order = append(order, scores[i])
			}
			if labels[i] == 1 {
				c.Pos++
			} else {
				c.Neg++
			}
		}
		for _, f := range order {
			all = append(all, *m[f])
		}
	}
	return all
}

func TestCountsMatchInProcess(t *testing.T) {
	rates01 := []float64{0, 1e-4, 0.01, 0.05, 0.1, 0.3, 0.5, 1}
	for _, tc := range []struct {
		name   string
		n      int
		p      float64
		levels int // 0: continuous scores; k: k distinct values, heavy ties
		shards int
	}{
		{"continuous", 2000, 0.1, 0, 7},
		{"ties 3 levels", 3000, 0.3, 3, 5},
		{"ties 40 levels", 5000, 0.05, 40, 16},
		{"rare positives", 4000, 0.005, 0, 3},
		{"one shard", 500, 0.5, 10, 1},
	} {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("%s/seed=%d", tc.name, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 20))
				scores, labels := randomProblem(rng, tc.n, tc.p, tc.levels)
				atLeastTwoEach(labels)
				c, err := NewCurveFromCounts(shardCounts(scores, labels, tc.shards))
				require.NoError(t, err)
				var nPos int
				for _, y := range labels {
					nPos += int(y)
				}
				require.Equal(t, len(scores), c.N())
				require.Equal(t, nPos, c.Positives())

				wantAUC, err := AUC(scores, labels)
				require.NoError(t, err)
				require.InDelta(t, wantAUC, c.AUC(), tolCounts)

				wantA, wantVar, err := DeLong(scores, labels)
				require.NoError(t, err)
				gotA, gotVar, err := c.DeLong()
				require.NoError(t, err)
				require.InDelta(t, wantA, gotA, tolCounts)
				require.InEpsilon(t, wantVar, gotVar, tolCounts)

				for _, x := range rates01 {
					want, err := TPRAtFPR(scores, labels, x)
					require.NoError(t, err)
					got, err := c.TPRAtFPR(x)
					require.NoError(t, err)
					require.InDelta(t, want, got, tolCounts, "TPRAtFPR(%v)", x)

					wt, wf, wtpr, err := ThresholdAtFPR(scores, labels, x)
					require.NoError(t, err)
					gt, gf, gtpr, err := c.ThresholdAtFPR(x)
					require.NoError(t, err)
					require.Equal(t, []float64{wt, wf, wtpr}, []float64{gt, gf, gtpr}, "ThresholdAtFPR(%v)", x)

					bf, bt := rates(scores, labels, wt)
					cf, ct := c.RatesAt(wt)
					require.Equal(t, []float64{bf, bt}, []float64{cf, ct}, "RatesAt(%v)", wt)
					if x == 0 {
						continue
					}
					want, err = PartialAUC(scores, labels, x)
					require.NoError(t, err)
					got, err = c.PartialAUC(x)
					require.NoError(t, err)
					require.InDelta(t, want, got, tolCounts, "PartialAUC(%v)", x)
				}
				for _, r := range rates01 {
					want, err := FPRAtTPR(scores, labels, r)
					require.NoError(t, err)
					got, err := c.FPRAtTPR(r)
					require.NoError(t, err)
					require.InDelta(t, want, got, tolCounts, "FPRAtTPR(%v)", r)
				}

				// The rows' own curve counts them as the shards do.
				rows, err := NewCurve(scores, labels)
				require.NoError(t, err)
				require.Equal(t, rows.Counts(), c.Counts())
				require.Equal(t, rows.N(), c.N())

				wf, wt, wth, err := ROC(scores, labels)
				require.NoError(t, err)
				gf, gt, gth := c.ROC()
				require.Equal(t, wf, gf)
				require.Equal(t, wt, gt)
				require.Equal(t, wth, gth)
			})
		}
	}
}

// The rates of a threshold between, on and off the scores, against a scan of all rows.
func TestCountsRatesAt(t *testing.T) {
	scores := []float64{0.1, 0.4, 0.4, 0.35, 0.8, -0.0, 0}
	labels := []float64{0, 0, 1, 1, 1, 0, 1}
	c, err := NewCurveFromCounts(shardCounts(scores, labels, 2))
	require.NoError(t, err)
	require.Len(t, c.Counts(), 5, "−0 and +0 are one score")
	for _, th := range []float64{math.Inf(-1), -1, 0, 0.05, 0.1, 0.35, 0.39, 0.4, 0.8, 0.9, math.Inf(1)} {
		wf, wt := rates(scores, labels, th)
		gf, gt := c.RatesAt(th)
		require.Equal(t, []float64{wf, wt}, []float64{gf, gt}, "threshold %v", th)
	}
	f, tp := c.RatesAt(math.NaN())
	require.Equal(t, []float64{0, 0}, []float64{f, tp}, "NaN flags nothing")
}

func TestNewCountsErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts []ScoreCount
		want   error
	}{
		{"nil", nil, rocops.ErrEmpty},
		{"only zero counts", []ScoreCount{{Score: 1}, {Score: 2}}, rocops.ErrEmpty},
		{"NaN", []ScoreCount{{Score: math.NaN(), Pos: 1}, {Score: 0, Neg: 1}}, rocops.ErrNonFinite},
		{"Inf", []ScoreCount{{Score: 1, Pos: 1}, {Score: math.Inf(-1), Neg: 1}}, rocops.ErrNonFinite},
		{"negative", []ScoreCount{{Score: 1, Pos: 2}, {Score: 0, Neg: -1}}, rocops.ErrRange},
		{"no negatives", []ScoreCount{{Score: 1, Pos: 2}, {Score: 0, Pos: 1}}, rocops.ErrNoNegatives},
		{"no positives", []ScoreCount{{Score: 1, Neg: 2}}, rocops.ErrNoPositives},
		// Totals beyond an int: they wrapped to N = −9223372036854775803 and an AUC of 0.125.
		{"rows past MaxInt", []ScoreCount{{Score: 1, Pos: math.MaxInt64}, {Score: 0, Neg: 5}}, rocops.ErrRange},
		{"positives past MaxInt", []ScoreCount{{Score: 1, Pos: math.MaxInt64 - 1}, {Score: 2, Pos: 2}, {Score: 0, Neg: 1}}, rocops.ErrRange},
		{"negatives past MaxInt", []ScoreCount{{Score: 1, Neg: math.MaxInt64}, {Score: 1, Neg: 1}, {Score: 2, Pos: 1}}, rocops.ErrRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCurveFromCounts(tc.counts)
			require.ErrorIs(t, err, tc.want)
			require.Regexp(t, "^metrics: ", err.Error())
		})
	}
	// Counts up to an int's range: the trapezoids' heights tp + tp_prev reach 2·P, beyond it.
	// Positives 2⁶² at score 2 and 2⁶² − 2 tied with the one negative at 1: AUC (2⁶² + ½(2⁶² −
	// 2))/(2⁶³ − 2) = ¾ to 17 digits.
	c, err := NewCurveFromCounts([]ScoreCount{{Score: 2, Pos: 1 << 62}, {Score: 1, Pos: 1<<62 - 2, Neg: 1}})
	require.NoError(t, err)
	require.Equal(t, math.MaxInt64, c.N())
	require.InDelta(t, 0.75, c.AUC(), 1e-15)
	c, err = NewCurveFromCounts([]ScoreCount{{Score: 1, Pos: 1}, {Score: 0, Neg: 5}})
	require.NoError(t, err)
	_, _, err = c.DeLong()
	require.ErrorIs(t, err, ErrTooFew)
	_, err = c.PartialAUC(0)
	require.ErrorIs(t, err, rocops.ErrConfig)
	_, err = c.TPRAtFPR(1.5)
	require.ErrorIs(t, err, rocops.ErrConfig)
	_, _, _, err = c.ThresholdAtFPR(-0.1)
	require.ErrorIs(t, err, rocops.ErrConfig)
	// What needs the rows: a curve of counts keeps none.
	c, err = NewCurveFromCounts([]ScoreCount{{Score: 1, Pos: 3}, {Score: 0, Pos: 1, Neg: 5}})
	require.NoError(t, err)
	rows, err := NewCurve([]float64{1, 1, 1, 0, 0, 0, 0, 0, 0}, []float64{1, 1, 1, 1, 0, 0, 0, 0, 0})
	require.NoError(t, err)
	for _, pair := range [][2]*Curve{{c, rows}, {rows, c}} {
		_, _, _, err = pair[0].DeLongPaired(pair[1])
		require.ErrorIs(t, err, rocops.ErrConfig)
		require.Contains(t, err.Error(), "DeLongPaired needs the rows of NewCurve")
	}
	_, _, err = c.Bootstrap(func(c *Curve) (float64, error) { return c.AUC(), nil }, 10, 0.9, 1)
	require.ErrorIs(t, err, rocops.ErrConfig)
	require.Contains(t, err.Error(), "Bootstrap needs the rows")
	// The figures that need only the vertices are there, the same as the rows'.
	require.Equal(t, rows.AUC(), c.AUC())
	require.Equal(t, rows.Counts(), c.Counts())
}

func TestThinROC(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		n, maxPoints int
	}{
		{50_000, 10_000}, // continuous scores: 50,001 points
		{50_000, 100},
		{20_000, 3},
		{50, 10_000}, // fewer points than the limit: kept whole
	} {
		t.Run(fmt.Sprintf("n=%d/max=%d", tc.n, tc.maxPoints), func(t *testing.T) {
			scores, labels := randomProblem(rng, tc.n, 0.2, 0)
			fpr, tpr, _, err := ROC(scores, labels)
			require.NoError(t, err)
			tf, tt, err := ThinROC(fpr, tpr, tc.maxPoints)
			require.NoError(t, err)
			if len(fpr) <= tc.maxPoints {
				require.Equal(t, fpr, tf)
				require.Equal(t, tpr, tt)
				return
			}
			require.LessOrEqual(t, len(tf), tc.maxPoints)
			require.Len(t, tt, len(tf))
			require.Equal(t, []float64{0, 0}, []float64{tf[0], tt[0]})
			require.Equal(t, []float64{1, 1}, []float64{tf[len(tf)-1], tt[len(tt)-1]})
			// Every kept point is a point of the curve, in order, and every point skipped
			// lies within δ of the last point kept before it.
			delta := 2 / float64(tc.maxPoints-2)
			k := 0
			for i := range fpr {
				if k < len(tf) && fpr[i] == tf[k] && tpr[i] == tt[k] {
					k++
					continue
				}
				require.Positive(t, k, "point %d skipped before the first kept", i)
				require.Less(t, (fpr[i]-tf[k-1])+(tpr[i]-tt[k-1]), delta, "point %d", i)
			}
			require.Equal(t, len(tf), k, "every kept point found on the curve, in order")
		})
	}
	for _, tc := range []struct {
		name     string
		fpr, tpr []float64
		max      int
		want     error
		says     string
	}{
		{"lengths", []float64{0, 1}, []float64{0}, 10, rocops.ErrLength, "2 false-positive rates, 1 true-positive rates"},
		{"maxPoints 1", []float64{0, 1}, []float64{0, 1}, 1, rocops.ErrConfig, "maxPoints = 1"},
		// A curve that is not a ROC curve: each rate must rise from 0 to 1, never falling.
		{"fpr falls", []float64{0, 0.5, 0.25, 1}, []float64{0, 0.5, 0.75, 1}, 3, rocops.ErrRange, "fpr[2] = 0.25 after 0.5"},
		{"tpr falls", []float64{0, 0.5, 0.75, 1}, []float64{0, 0.5, 0.25, 1}, 3, rocops.ErrRange, "tpr[2] = 0.25 after 0.5"},
		{"fpr falls, kept whole", []float64{0, 0.5, 0.25, 1}, []float64{0, 0.5, 0.75, 1}, 10, rocops.ErrRange, "fpr[2]"},
		{"NaN", []float64{0, math.NaN(), 1}, []float64{0, 0.5, 1}, 2, rocops.ErrRange, "fpr[1] = NaN"},
		{"above 1", []float64{0, 0.5, 1}, []float64{0, 0.5, 1.5}, 2, rocops.ErrRange, "tpr[2] = 1.5"},
		{"below 0", []float64{-0.5, 0.5, 1}, []float64{0, 0.5, 1}, 2, rocops.ErrRange, "fpr[0] = -0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ThinROC(tc.fpr, tc.tpr, tc.max)
			require.True(t, errors.Is(err, tc.want), "%v, want %v", err, tc.want)
			require.Regexp(t, "^metrics: ", err.Error())
			require.Contains(t, err.Error(), tc.says)
		})
	}
}

// FuzzThinROC: a curve of non-decreasing rates, built from byte steps, thins to at most
// maxPoints of its points, in order, with both ends kept; any other input is an error, never
// a panic. Bytes: maxPoints, then pairs of steps (0 steps of fpr and tpr; a step of 255 is
// negative, so that falling curves occur too).
func FuzzThinROC(f *testing.F) {
	f.Add([]byte{6, 0, 0, 0, 10, 0, 10, 10, 0, 10, 0, 10, 10, 10, 0})
	f.Add([]byte{2, 3, 3, 255, 0, 5, 5})
	f.Add([]byte{0, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		maxPoints := int(data[0]) % 20
		var fpr, tpr []float64
		var x, y float64
		for i := 1; i+1 < len(data); i += 2 {
			dx, dy := float64(data[i])/64, float64(data[i+1])/64
			if data[i] == 255 {
				dx = -1.0 / 64
			}
			x, y = x+dx, y+dy
			fpr, tpr = append(fpr, x), append(tpr, y)
		}
		valid := true
		for i := range fpr {
			if fpr[i] > 1 || tpr[i] > 1 || fpr[i] < 0 || (i > 0 && (fpr[i] < fpr[i-1] || tpr[i] < tpr[i-1])) {
				valid = false
			}
		}
		tf, tt, err := ThinROC(fpr, tpr, maxPoints)
		switch {
		case maxPoints < 2:
			require.ErrorIs(t, err, rocops.ErrConfig)
			return
		case !valid:
			require.ErrorIs(t, err, rocops.ErrRange)
			return
		}
		require.NoError(t, err)
		require.LessOrEqual(t, len(tf), max(maxPoints, 0))
		require.Len(t, tt, len(tf))
		if len(fpr) == 0 {
			require.Empty(t, tf)
			return
		}
		require.Equal(t, []float64{fpr[0], tpr[0]}, []float64{tf[0], tt[0]})
		require.Equal(t, []float64{fpr[len(fpr)-1], tpr[len(tpr)-1]}, []float64{tf[len(tf)-1], tt[len(tt)-1]})
		k := 0
		for i := range fpr {
			if k < len(tf) && fpr[i] == tf[k] && tpr[i] == tt[k] {
				k++
			}
		}
		require.Equal(t, len(tf), k, "every kept point is a point of the curve, in order")
	})
}

// FuzzNewCurveFromCounts: counts of any sign and size, on scores of a few levels (±0, NaN and ±Inf
// among them), give a valid summary or a named error, never a panic or a wrapped total; a
// valid summary's figures are those of its rows, when there are few enough to list. Bytes:
// triples of a score level, a count of positives and one of negatives (the counts are the
// bytes read as int8 and scaled, so that negative and huge counts occur).
func FuzzNewCurveFromCounts(f *testing.F) {
	f.Add([]byte{1, 2, 0, 2, 0, 3, 3, 1, 1})
	f.Add([]byte{0, 1, 0, 7, 0, 1})
	f.Add([]byte{5, 127, 0, 1, 127, 0, 2, 0, 3})
	f.Add([]byte{6, 1, 0, 2, 0, 255})
	levels := []float64{0, math.Copysign(0, -1), 0.5, 1, -1, math.NaN(), math.Inf(1), 2}
	f.Fuzz(func(t *testing.T, data []byte) {
		var counts []ScoreCount
		bad := false
		pos, neg := new(big.Int), new(big.Int) // the totals, exactly
		for i := 0; i+2 < len(data); i += 3 {
			count := func(b byte) int64 {
				v := int64(int8(b))
				if v == 127 {
					return math.MaxInt64 / 3 // three of these overflow
				}
				return v
			}
			c := ScoreCount{Score: levels[int(data[i])%len(levels)], Pos: count(data[i+1]), Neg: count(data[i+2])}
			counts = append(counts, c)
			if math.IsNaN(c.Score) || math.IsInf(c.Score, 0) || c.Pos < 0 || c.Neg < 0 {
				bad = true
			}
			pos.Add(pos, big.NewInt(c.Pos))
			neg.Add(neg, big.NewInt(c.Neg))
		}
		c, err := NewCurveFromCounts(counts)
		if bad || pos.Sign() == 0 || neg.Sign() == 0 {
			require.Error(t, err)
			require.True(t, errors.Is(err, rocops.ErrNonFinite) || errors.Is(err, rocops.ErrRange) ||
				errors.Is(err, rocops.ErrEmpty) || errors.Is(err, rocops.ErrOneClass), "%v", err)
			return
		}
		n := new(big.Int).Add(pos, neg)
		if !n.IsInt64() {
			require.ErrorIs(t, err, rocops.ErrRange)
			return
		}
		require.NoError(t, err)
		require.Equal(t, n.Int64(), int64(c.N()))
		require.Equal(t, pos.Int64(), int64(c.Positives()))
		auc := c.AUC()
		require.True(t, auc >= 0 && auc <= 1, "AUC %v", auc)
		if n.Int64() > 1<<16 {
			return
		}
		// Few enough rows to list: the figures are those of the rows themselves.
		var scores, labels []float64
		for _, sc := range counts {
			for range sc.Pos {
				scores, labels = append(scores, sc.Score), append(labels, 1)
			}
			for range sc.Neg {
				scores, labels = append(scores, sc.Score), append(labels, 0)
			}
		}
		want, err := AUC(scores, labels)
		require.NoError(t, err)
		require.Equal(t, want, auc)
	})
}

// Two shards counted apart, by distinct score, give the figures of all their rows together.
func ExampleNewCurveFromCounts() {
	shardA := []ScoreCount{{Score: 0.9, Pos: 3}, {Score: 0.5, Pos: 1, Neg: 2}, {Score: 0.1, Neg: 5}}
	shardB := []ScoreCount{{Score: 0.5, Pos: 1, Neg: 1}, {Score: 0.2, Pos: 1, Neg: 4}}
	c, err := NewCurveFromCounts(append(shardA, shardB...))
	if err != nil {
		fmt.Println(err)
		return
	}
	auc, variance, _ := c.DeLong()
	tpr, _ := c.TPRAtFPR(0.25)
	fmt.Printf("%d rows, %d positives, %d distinct scores\n", c.N(), c.Positives(), len(c.Counts()))
	fmt.Printf("AUC %.4f, variance %.4f, TPR at FPR 0.25 %.4f\n", auc, variance, tpr)

	scores := []float64{0.9, 0.9, 0.9, 0.5, 0.5, 0.5, 0.1, 0.1, 0.1, 0.1, 0.1, 0.5, 0.5, 0.2, 0.2, 0.2, 0.2, 0.2}
	labels := []float64{1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0}
	auc, variance, _ = DeLong(scores, labels)
	fmt.Printf("in process: AUC %.4f, variance %.4f\n", auc, variance)
	// By hand: the positives at 0.9 beat all 12 negatives, those at 0.5 beat 9 and tie 3, the
	// one at 0.2 beats 5 and ties 4, so AUC = (3·12 + 2·10.5 + 7)/(6·12) = 64/72; at score
	// 0.5 the FPR is 3/12 = 0.25 with 5 of the 6 positives flagged.

	// Output:
	// 18 rows, 6 positives, 4 distinct scores
	// AUC 0.8889, variance 0.0060, TPR at FPR 0.25 0.8333
	// in process: AUC 0.8889, variance 0.0060
}
