package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

// tolVar bounds the disagreement between two summation orders of a variance of O(1)
// components; the variances themselves are 1e-4 to 1e-1.
const tolVar = 1e-13

// tolPublished is half a unit in the last digit of a value published to four decimals.
const tolPublished = 5e-5

// bruteStructural computes DeLong's structural components by the definition, an O(P·N)
// count over all positive–negative pairs, in input order.
func bruteStructural(scores, labels []float64) (v10, v01 []float64) {
	psi := func(a, b float64) float64 {
		switch {
		case a > b:
			return 1
		case a == b:
			return 0.5
		}
		return 0
	}
	var nPos, nNeg float64
	for _, y := range labels {
		nPos += y
		nNeg += 1 - y
	}
	for i, yi := range labels {
		var sum float64
		for j, yj := range labels {
			switch {
			case yi == 1 && yj == 0:
				sum += psi(scores[i], scores[j])
			case yi == 0 && yj == 1:
				sum += psi(scores[j], scores[i])
			}
		}
		if yi == 1 {
			v10 = append(v10, sum/nNeg)
		} else {
			v01 = append(v01, sum/nPos)
		}
	}
	return v10, v01
}

// sampleCov is the textbook sample covariance, divided by n − 1.
func sampleCov(x, y []float64) float64 {
	var mx, my float64
	for k := range x {
		mx += x[k] / float64(len(x))
		my += y[k] / float64(len(y))
	}
	var c float64
	for k := range x {
		c += (x[k] - mx) * (y[k] - my)
	}
	return c / float64(len(x)-1)
}

// bruteDeLong is DeLong's AUC and variance from the O(P·N) components.
func bruteDeLong(scores, labels []float64) (auc, variance float64) {
	v10, v01 := bruteStructural(scores, labels)
	for _, v := range v10 {
		auc += v / float64(len(v10))
	}
	return auc, sampleCov(v10, v10)/float64(len(v10)) + sampleCov(v01, v01)/float64(len(v01))
}

// atLeastTwoEach makes rows 0 and 1 negative and the last two positive, so that DeLong's
// variance is defined.
func atLeastTwoEach(labels []float64) {
	n := len(labels)
	labels[0], labels[1], labels[n-2], labels[n-1] = 0, 0, 1, 1
}

func TestDeLongAgainstStructuralComponents(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{4, 9, 60, 500} {
		for _, p := range []float64{0.5, 0.1} {
			for _, levels := range []int{0, 2, 3, 10} { // 0: continuous; else heavily tied
				t.Run(fmt.Sprintf("n=%d/p=%v/levels=%d", n, p, levels), func(t *testing.T) {
					scores, labels := randomProblem(rng, n, p, levels)
					atLeastTwoEach(labels)
					wantAUC, wantVar := bruteDeLong(scores, labels)
					auc, variance, err := DeLong(scores, labels)
					require.NoError(t, err)
					require.InDelta(t, wantAUC, auc, tolBrute, "AUC")
					require.InDelta(t, wantVar, variance, tolVar, "variance")
					plain, err := AUC(scores, labels)
					require.NoError(t, err)
					require.InDelta(t, plain, auc, tolBrute, "AUC agrees with AUC()")
				})
			}
		}
	}
}

// The worked example of pROC (Robin et al. 2011, BMC Bioinformatics 12:77, and the
// package's documentation): roc(aSAH$outcome, aSAH$s100b) has AUC 0.7314 and DeLong 95%
// interval 0.6301–0.8326, printed to four decimals. The full-precision values were computed
// with pROC 1.18.0 in R 4.2.2: auc 0.7313685637, var(roc, method = "delong")
// 0.00266868245717.
func TestDeLongPublishedExample(t *testing.T) {
	auc, variance, err := DeLong(asahS100b, asahOutcome)
	require.NoError(t, err)
	require.InDelta(t, 0.7314, auc, tolPublished)
	half := 1.959963984540054 * math.Sqrt(variance) // pROC uses qnorm(0.975)
	require.InDelta(t, 0.6301, auc-half, tolPublished, "lower limit")
	require.InDelta(t, 0.8326, auc+half, tolPublished, "upper limit")
	require.InDelta(t, 0.7313685637, auc, 1e-10)
	require.InDelta(t, 0.00266868245717, variance, 1e-14)
}

// roc.test(roc(aSAH$outcome, aSAH$s100b), roc(aSAH$outcome, aSAH$wfns), method = "delong")
// in pROC 1.18.0 (R 4.2.2) prints Z = −2.209, p-value = 0.02718, AUCs 0.7313686 and
// 0.8236789; at full precision Z = −2.20898359144 and p = 0.0271757822292, and
// var(roc, method = "delong") of the WFNS curve is 0.00146991470882.
func TestDeLongPairedPublishedExample(t *testing.T) {
	diff, variance, p, err := deLongPaired(asahS100b, asahWFNS, asahOutcome)
	require.NoError(t, err)
	require.InDelta(t, 0.7313686-0.8236789, diff, 1e-7)
	require.InDelta(t, -2.20898359144, diff/math.Sqrt(variance), 1e-10, "z")
	require.InDelta(t, 0.0271757822292, p, 1e-12)
	_, vw, err := DeLong(asahWFNS, asahOutcome)
	require.NoError(t, err)
	require.InDelta(t, 0.00146991470882, vw, 1e-14)
}

// A scorer against itself, and against any increasing transform of itself: difference 0,
// variance 0 and, as documented, p = 1.
func TestDeLongPairedWithItself(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, levels := range []int{0, 3} {
		scores, labels := randomProblem(rng, 200, 0.2, levels)
		atLeastTwoEach(labels)
		same := make([]float64, len(scores))
		for i, s := range scores {
			same[i] = math.Exp(3*s) - 7 // same ranking, ties included
		}
		for _, b := range [][]float64{scores, same} {
			diff, variance, p, err := deLongPaired(scores, b, labels)
			require.NoError(t, err)
			require.Equal(t, 0.0, diff)
			require.Equal(t, 0.0, variance)
			require.Equal(t, 1.0, p)
		}
	}
	// Variance 0 but a real difference: a perfect scorer against one that ties every row.
	// Every component differs by the same ½, so the variance is 0 and p = 0.
	labels := []float64{0, 0, 1, 1}
	diff, variance, p, err := deLongPaired([]float64{1, 2, 3, 4}, []float64{5, 5, 5, 5}, labels)
	require.NoError(t, err)
	require.Equal(t, 0.5, diff)
	require.Equal(t, 0.0, variance)
	require.Equal(t, 0.0, p)
}

// On two different scorers of the same rows the paired variance is Var_a + Var_b − 2·Cov_ab
// with the covariance of the brute-force components, and p is the normal tail of z.
func TestDeLongPairedAgainstBruteCovariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, n := range []int{5, 40, 300} {
		for _, levels := range []int{0, 4} {
			t.Run(fmt.Sprintf("n=%d/levels=%d", n, levels), func(t *testing.T) {
				a, labels := randomProblem(rng, n, 0.3, levels)
				atLeastTwoEach(labels)
				b := make([]float64, n)
				for i := range b {
					b[i] = 0.5*a[i] + rng.NormFloat64() // correlated with a
					if levels > 0 {
						b[i] = math.Round(b[i] * 2)
					}
				}
				a10, a01 := bruteStructural(a, labels)
				b10, b01 := bruteStructural(b, labels)
				aucA, varA := bruteDeLong(a, labels)
				aucB, varB := bruteDeLong(b, labels)
				cov := sampleCov(a10, b10)/float64(len(a10)) + sampleCov(a01, b01)/float64(len(a01))
				wantVar := varA + varB - 2*cov

				diff, variance, p, err := deLongPaired(a, b, labels)
				require.NoError(t, err)
				require.InDelta(t, aucA-aucB, diff, tolBrute)
				require.InDelta(t, wantVar, variance, tolVar)
				z := (aucA - aucB) / math.Sqrt(wantVar)
				// 2·Φ(−|z|) by the normal distribution function written with Erf.
				require.InDelta(t, 2*(0.5*(1+math.Erf(-math.Abs(z)/math.Sqrt2))), p, 1e-9)
			})
		}
	}
}

// Across 400 simulated data sets, the 95% interval AUC ± 1.96·√Var covers the true AUC of the
// binormal model about 95% of the time: negatives N(0, 1), positives N(1, 1), true AUC
// Φ(1/√2) = 0.76025. The binomial standard deviation of the coverage over 400 draws is 1.1%.
func TestDeLongCoverage(t *testing.T) {
	const truth = 0.7602499389065233 // Φ(1/√2)
	rng := rand.New(rand.NewPCG(27, 28))
	covered := 0
	const trials = 400
	for range trials {
		scores, labels := binormal(rng, 60, 120, 1)
		auc, variance, err := DeLong(scores, labels)
		require.NoError(t, err)
		if math.Abs(auc-truth) <= 1.959963984540054*math.Sqrt(variance) {
			covered++
		}
	}
	share := float64(covered) / trials
	require.True(t, share >= 0.9 && share <= 0.99, "coverage %v", share)
}

// binormal draws nPos positives from N(shift, 1) and nNeg negatives from N(0, 1).
func binormal(rng *rand.Rand, nPos, nNeg int, shift float64) (scores, labels []float64) {
	for range nPos {
		scores = append(scores, shift+rng.NormFloat64())
		labels = append(labels, 1)
	}
	for range nNeg {
		scores = append(scores, rng.NormFloat64())
		labels = append(labels, 0)
	}
	return scores, labels
}

func TestDeLongErrors(t *testing.T) {
	_, _, err := DeLong([]float64{1, 2, 3}, []float64{0, 0, 1})
	require.ErrorIs(t, err, ErrTooFew)
	require.Regexp(t, "^metrics: ", err.Error())
	_, _, err = DeLong([]float64{1, 2}, []float64{0, 0})
	require.ErrorIs(t, err, rocops.ErrOneClass)
	_, _, err = DeLong([]float64{1, math.Inf(1)}, []float64{0, 1})
	require.ErrorIs(t, err, rocops.ErrNonFinite)

	ok, labels := []float64{1, 2, 3, 4}, []float64{0, 1, 0, 1}
	_, _, _, err = deLongPaired(ok, ok[:3], labels)
	require.ErrorIs(t, err, rocops.ErrLength)
	_, _, _, err = deLongPaired(ok, []float64{1, 2, math.NaN(), 4}, labels)
	require.ErrorIs(t, err, rocops.ErrNonFinite)
	require.Contains(t, err.Error(), "scorer b")
	require.Regexp(t, "^metrics: ", err.Error())
	_, _, _, err = deLongPaired(ok, ok, []float64{0, 1, 2, 1})
	require.ErrorIs(t, err, rocops.ErrLabel)
}
