package metrics

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// curveCases are the data every Curve method is checked on: continuous scores (no ties),
// heavily tied scores (3 and 5 levels over thousands of rows), a tiny case and one where every
// score ties.
func curveCases() []struct {
	name           string
	scores, labels []float64
} {
	rng := rand.New(rand.NewPCG(41, 42))
	cases := []struct {
		name           string
		scores, labels []float64
	}{
		{"hand", []float64{0.1, 0.4, 0.35, 0.8, 0.4}, []float64{0, 0, 1, 1, 1}},
		{"all tied", []float64{2, 2, 2, 2, 2}, []float64{1, 0, 0, 1, 0}},
	}
	for _, c := range []struct {
		n      int
		p      float64
		levels int
	}{{500, 0.3, 0}, {3000, 0.05, 0}, {3000, 0.1, 3}, {2000, 0.4, 5}, {50, 0.2, 2}} {
		s, y := randomProblem(rng, c.n, c.p, c.levels)
		cases = append(cases, struct {
			name           string
			scores, labels []float64
		}{fmt.Sprintf("n=%d p=%g levels=%d", c.n, c.p, c.levels), s, y})
	}
	return cases
}

// same reports whether a and b are the same float64, bit for bit.
func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// Every method of a Curve returns exactly what the package function returns on the same
// scores: the same bits, not merely close values.
func TestCurveEqualsFunctions(t *testing.T) {
	rates := []float64{0, 1e-300, 1e-9, 0.001, 0.05, 0.1, 0.25, 0.5, 0.999, 1}
	for _, c := range curveCases() {
		t.Run(c.name, func(t *testing.T) {
			cv, err := NewCurve(c.scores, c.labels)
			require.NoError(t, err)
			check := func(what string, got, want float64, errGot, errWant error) {
				t.Helper()
				require.True(t, same(got, want), "%s: curve %v (%v), function %v (%v)", what, got, errGot, want, errWant)
				require.Equal(t, errWant == nil, errGot == nil, "%s: curve %v (%v), function %v (%v)", what, got, errGot, want, errWant)
			}
			auc, _ := AUC(c.scores, c.labels)
			check("AUC", cv.AUC(), auc, nil, nil)
			for _, x := range rates {
				got, errGot := cv.PartialAUC(x)
				want, errWant := PartialAUC(c.scores, c.labels, x)
				check(fmt.Sprintf("PartialAUC(%g)", x), got, want, errGot, errWant)
				got, errGot = cv.TPRAtFPR(x)
				want, errWant = TPRAtFPR(c.scores, c.labels, x)
				check(fmt.Sprintf("TPRAtFPR(%g)", x), got, want, errGot, errWant)
				got, errGot = cv.FPRAtTPR(x)
				want, errWant = FPRAtTPR(c.scores, c.labels, x)
				check(fmt.Sprintf("FPRAtTPR(%g)", x), got, want, errGot, errWant)
				tc, fc, pc, errGot := cv.ThresholdAtFPR(x)
				tf, ff, pf, errWant := ThresholdAtFPR(c.scores, c.labels, x)
				check(fmt.Sprintf("ThresholdAtFPR(%g) t", x), tc, tf, errGot, errWant)
				check(fmt.Sprintf("ThresholdAtFPR(%g) fpr", x), fc, ff, nil, nil)
				check(fmt.Sprintf("ThresholdAtFPR(%g) tpr", x), pc, pf, nil, nil)
			}
			fpr, tpr, th := cv.ROC()
			wf, wt, wth, _ := ROC(c.scores, c.labels)
			for _, s := range []struct {
				name      string
				got, want []float64
			}{{"fpr", fpr, wf}, {"tpr", tpr, wt}, {"thresholds", th, wth}} {
				require.True(t, slices.EqualFunc(s.got, s.want, same), "ROC %s: curve %v, function %v", s.name, s.got, s.want)
			}
			a, v, errGot := cv.DeLong()
			wa, wv, errWant := DeLong(c.scores, c.labels)
			check("DeLong AUC", a, wa, errGot, errWant)
			check("DeLong variance", v, wv, nil, nil)
		})
	}
}

// componentsBySort is the structural components as DeLong's function computed them before
// the Curve existed: an index sort of all rows, then one pass over the blocks of ties. The
// Curve must give the same bits.
func componentsBySort(scores, labels []float64) structural {
	order := make([]int, len(scores))
	slot := make([]int, len(scores))
	var nPos, nNeg int
	for i, y := range labels {
		order[i] = i
		if y == 1 {
			slot[i], nPos = nPos, nPos+1
		} else {
			slot[i], nNeg = nNeg, nNeg+1
		}
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(scores[i], scores[j]) })
	c := structural{v10: make([]float64, nPos), v01: make([]float64, nNeg)}
	p, n := float64(nPos), float64(nNeg)
	var p0, n0 float64
	for lo := 0; lo < len(order); {
		hi := lo
		var a, b float64
		for ; hi < len(order) && scores[order[hi]] == scores[order[lo]]; hi++ {
			if labels[order[hi]] == 1 {
				a++
			} else {
				b++
			}
		}
		tz, tx, ty := p0+n0+(a+b+1)/2, p0+(a+1)/2, n0+(b+1)/2
		for _, i := range order[lo:hi] {
			if labels[i] == 1 {
				c.v10[slot[i]] = (tz - tx) / n
			} else {
				c.v01[slot[i]] = 1 - (tz-ty)/p
			}
		}
		p0, n0 = p0+a, n0+b
		lo = hi
	}
	return c
}

func TestCurveComponentsEqualTheSortedPass(t *testing.T) {
	for _, c := range curveCases() {
		cv, err := NewCurve(c.scores, c.labels)
		require.NoError(t, err)
		got, err := cv.components()
		require.NoError(t, err)
		want := componentsBySort(c.scores, c.labels)
		require.True(t, slices.EqualFunc(got.v10, want.v10, same), "%s: the curve's structural components differ from the sorted pass", c.name)
		require.True(t, slices.EqualFunc(got.v01, want.v01, same), "%s: the curve's structural components differ from the sorted pass", c.name)
	}
}

// RatesAt counts the rows at or above any threshold, as a loop over the rows does.
func TestCurveRatesAt(t *testing.T) {
	for _, c := range curveCases() {
		cv, err := NewCurve(c.scores, c.labels)
		require.NoError(t, err)
		ts := append([]float64{math.Inf(1), math.Inf(-1), -10, 10, 0.2}, c.scores[:min(len(c.scores), 20)]...)
		for _, th := range ts {
			var fp, tp, nNeg, nPos float64
			for i, s := range c.scores {
				nPos += c.labels[i]
				nNeg += 1 - c.labels[i]
				if s >= th {
					fp += 1 - c.labels[i]
					tp += c.labels[i]
				}
			}
			f, p := cv.RatesAt(th)
			require.True(t, same(f, fp/nNeg), "%s: RatesAt(%v) = %v, %v; counting gives %v, %v", c.name, th, f, p, fp/nNeg, tp/nPos)
			require.True(t, same(p, tp/nPos), "%s: RatesAt(%v) = %v, %v; counting gives %v, %v", c.name, th, f, p, fp/nNeg, tp/nPos)
		}
	}
}

func TestCurveDeLongPaired(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, levels := range []int{0, 4} {
		a, y := randomProblem(rng, 1500, 0.2, levels)
		b := make([]float64, len(a))
		for i := range b {
			b[i] = a[i] + 0.7*rng.NormFloat64()
			if levels > 0 {
				b[i] = math.Round(b[i] * 2)
			}
		}
		ca, errA := NewCurve(a, y)
		cb, errB := NewCurve(b, y)
		require.NoError(t, errors.Join(errA, errB))
		d, v, p, err := ca.DeLongPaired(cb)
		wd, wv, wp, werr := deLongPaired(a, b, y)
		require.NoError(t, err, "levels %d: curves give %v, %v, %v (%v); the function %v, %v, %v (%v)", levels, d, v, p, err, wd, wv, wp, werr)
		require.NoError(t, werr, "levels %d: curves give %v, %v, %v (%v); the function %v, %v, %v (%v)", levels, d, v, p, err, wd, wv, wp, werr)
		require.True(t, same(d, wd), "levels %d: curves give %v, %v, %v (%v); the function %v, %v, %v (%v)", levels, d, v, p, err, wd, wv, wp, werr)
		require.True(t, same(v, wv), "levels %d: curves give %v, %v, %v (%v); the function %v, %v, %v (%v)", levels, d, v, p, err, wd, wv, wp, werr)
		require.True(t, same(p, wp), "levels %d: curves give %v, %v, %v (%v); the function %v, %v, %v (%v)", levels, d, v, p, err, wd, wv, wp, werr)
	}
	// Curves of other labels, or of other rows, are not paired.
	x, _ := NewCurve([]float64{1, 2, 3, 4}, []float64{0, 1, 0, 1})
	z, _ := NewCurve([]float64{1, 2, 3, 4}, []float64{1, 0, 0, 1})
	w, _ := NewCurve([]float64{1, 2, 3, 4, 5}, []float64{0, 1, 0, 1, 1})
	_, _, _, err := x.DeLongPaired(z)
	require.ErrorIs(t, err, rocops.ErrLabel, "other labels: %v, want rocops.ErrLabel", err)
	_, _, _, err = x.DeLongPaired(w)
	require.ErrorIs(t, err, rocops.ErrLength, "other rows: %v, want rocops.ErrLength", err)
	one, _ := NewCurve([]float64{1, 2, 3}, []float64{0, 1, 0})
	_, _, _, err = one.DeLongPaired(one)
	require.ErrorIs(t, err, ErrTooFew, "one positive: %v, want ErrTooFew", err)
}

// Curve.Bootstrap draws the resamples Bootstrap draws and gives the same interval for every
// statistic, including DeLong's variance, which reads the rows of the resample.
func TestCurveBootstrapEqualsBootstrap(t *testing.T) {
	stats := []struct {
		name  string
		curve func(*Curve) (float64, error)
		slice func(s, y []float64) (float64, error)
	}{
		{"pAUC", func(c *Curve) (float64, error) { return c.PartialAUC(0.1) },
			func(s, y []float64) (float64, error) { return PartialAUC(s, y, 0.1) }},
		{"TPR", func(c *Curve) (float64, error) { return c.TPRAtFPR(0.05) },
			func(s, y []float64) (float64, error) { return TPRAtFPR(s, y, 0.05) }},
		{"FPR", func(c *Curve) (float64, error) { return c.FPRAtTPR(0.8) },
			func(s, y []float64) (float64, error) { return FPRAtTPR(s, y, 0.8) }},
		{"AUC", func(c *Curve) (float64, error) { return c.AUC(), nil }, AUC},
		{"DeLong variance", func(c *Curve) (float64, error) { _, v, err := c.DeLong(); return v, err },
			func(s, y []float64) (float64, error) { _, v, err := DeLong(s, y); return v, err }},
	}
	for _, c := range curveCases()[2:] {
		cv, err := NewCurve(c.scores, c.labels)
		require.NoError(t, err)
		for _, st := range stats {
			lo, hi, err := cv.Bootstrap(st.curve, 97, 0.9, 3)
			wlo, whi, werr := bootstrap(c.scores, c.labels, st.slice, 97, 0.9, 3)
			require.NoError(t, err, "%s, %s: curve [%v, %v] (%v), slices [%v, %v] (%v)", c.name, st.name, lo, hi, err, wlo, whi, werr)
			require.NoError(t, werr, "%s, %s: curve [%v, %v] (%v), slices [%v, %v] (%v)", c.name, st.name, lo, hi, err, wlo, whi, werr)
			require.True(t, same(lo, wlo), "%s, %s: curve [%v, %v] (%v), slices [%v, %v] (%v)", c.name, st.name, lo, hi, err, wlo, whi, werr)
			require.True(t, same(hi, whi), "%s, %s: curve [%v, %v] (%v), slices [%v, %v] (%v)", c.name, st.name, lo, hi, err, wlo, whi, werr)
		}
	}
}

func TestCurveErrors(t *testing.T) {
	for _, c := range []struct {
		name           string
		scores, labels []float64
	}{
		{"empty", nil, nil},
		{"length", []float64{1, 2}, []float64{1}},
		{"NaN", []float64{1, math.NaN()}, []float64{0, 1}},
		{"label", []float64{1, 2}, []float64{0, 2}},
		{"one class", []float64{1, 2}, []float64{1, 1}},
	} {
		_, err := NewCurve(c.scores, c.labels)
		_, want := AUC(c.scores, c.labels)
		require.Error(t, err, "%s: NewCurve %v, AUC %v", c.name, err, want)
		require.Equal(t, want.Error(), err.Error(), "%s: NewCurve %v, AUC %v", c.name, err, want)
	}
	cv, err := NewCurve([]float64{1, 2, 3}, []float64{0, 1, 0})
	require.NoError(t, err)
	_, err = cv.PartialAUC(0)
	require.ErrorIs(t, err, rocops.ErrConfig, "PartialAUC(0): %v", err)
	_, err = cv.TPRAtFPR(1.5)
	require.ErrorIs(t, err, rocops.ErrConfig, "TPRAtFPR(1.5): %v", err)
	_, _, _, err = cv.ThresholdAtFPR(-1)
	require.ErrorIs(t, err, rocops.ErrConfig, "ThresholdAtFPR(-1): %v", err)
	_, err = cv.FPRAtTPR(math.NaN())
	require.ErrorIs(t, err, rocops.ErrConfig, "FPRAtTPR(NaN): %v", err)
	_, _, err = cv.DeLong()
	require.ErrorIs(t, err, ErrTooFew, "DeLong of one positive: %v", err)
	_, _, err = cv.Bootstrap(nil, 10, 0.9, 1)
	require.ErrorIs(t, err, rocops.ErrConfig, "Bootstrap without a statistic: %v", err)
	_, _, err = cv.Bootstrap(func(*Curve) (float64, error) { return math.NaN(), nil }, 10, 0.9, 1)
	require.ErrorIs(t, err, ErrStatistic, "Bootstrap of NaN: %v", err)
}
