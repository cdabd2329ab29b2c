package diagnose

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
)

// DefaultSizes are the batch sizes BatchSlope uses when given none, as in the fixed-checkpoint
// experiments of Chen et al., arXiv 2610.21743, appendix B.5 (B = 4 … 64).
var DefaultSizes = []int{4, 8, 16, 32, 64}

// defaultReps is the number of resampled batches per size BatchSlope uses when given 0.
const defaultReps = 2000

// BatchSlope measures how the variance of a mini-batch mean of h shrinks with the batch size.
// For each B in sizes it draws reps batches, each of B positives from 0…nPos−1 and B negatives
// from 0…nNeg−1 uniformly with replacement, takes the mean of h over the batch's B² pairs, and
// computes the sample variance V_B of those reps means. It returns the least-squares slope of
// log V_B on log B and its standard error from the fit's residuals,
//
//	stderr = sqrt(RSS/(K − 2) / Σ_B (log B − mean log B)²),   K = len(sizes).
//
// A slope near −1 says first-order (1/B) noise dominates over the sizes tried, near −2 that
// only the pair interaction (1/B²) is left. nil sizes means DefaultSizes and reps = 0 means
// 2000 batches per size; the draws come from a PCG generator seeded by seed. Cost: reps·Σ B² calls of h.
//
// Values of h of any finite magnitude are taken: the batch means are formed on h divided by
// a power of two at least its largest |h| so far (the running sums are rescaled exactly when
// a larger one comes), and log V_B adds back twice its logarithm, so the slope is finite even
// where V_B itself is beyond float64's range.
//
// Errors: those of Hoeffding for nPos, nNeg and h; rocops.ErrConfig for fewer than three sizes, a
// size below 1 or above 2^20, two equal sizes, reps below 2, or reps·Σ B² above 2^40 calls of
// h; ErrDegenerate when V_B = 0 for some B; rocops.ErrNonFinite when h is not
// finite.
func BatchSlope(nPos, nNeg int, h func(i, j int) float64, sizes []int, reps int, seed uint64) (slope, stderr float64, err error) {
	switch {
	case nPos < 1:
		return 0, 0, check.Errorf(pkg, rocops.ErrNoPositives, "nPos = %d", nPos)
	case nNeg < 1:
		return 0, 0, check.Errorf(pkg, rocops.ErrNoNegatives, "nNeg = %d", nNeg)
	case h == nil:
		return 0, 0, check.Errorf(pkg, rocops.ErrEmpty, "nil pair function")
	}
	if sizes == nil {
		sizes = DefaultSizes
	}
	reps = cmp.Or(reps, defaultReps)
	if err := checkSizes(sizes, reps); err != nil {
		return 0, 0, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x736c6f7065)) // "slope"
	xs, ys := make([]float64, len(sizes)), make([]float64, len(sizes))
	for k, b := range sizes {
		v, scale, err := batchMeanVariance(nPos, nNeg, h, b, reps, rng)
		if err != nil {
			return 0, 0, err
		}
		// V_B = v·2^(2·scale), so log V_B = log v + 2·scale·log 2.
		xs[k], ys[k] = math.Log(float64(b)), math.Log(v)+2*float64(scale)*math.Ln2
	}
	slope, stderr = fitLine(xs, ys)
	return slope, stderr, nil
}

func checkSizes(sizes []int, reps int) error {
	if len(sizes) < 3 {
		return check.Errorf(pkg, rocops.ErrConfig, "%d batch sizes, want at least 3 to estimate a slope and its error", len(sizes))
	}
	seen := make(map[int]bool, len(sizes))
	var calls float64 // reps·Σ B², in float64 so that it cannot wrap
	for _, b := range sizes {
		if b < 1 || b > maxBatchSize || seen[b] {
			return check.Errorf(pkg, rocops.ErrConfig, "batch sizes %v (want distinct sizes in [1, %d])", sizes, maxBatchSize)
		}
		seen[b] = true
		calls += float64(b) * float64(b)
	}
	if reps < 2 {
		return check.Errorf(pkg, rocops.ErrConfig, "%d repetitions of the batch sizes, want at least 2", reps)
	}
	if calls *= float64(reps); calls > maxPairs {
		return check.Errorf(pkg, rocops.ErrConfig, "%d repetitions of batch sizes %v call h %.3g times, more than 2^40", reps, sizes, calls)
	}
	return nil
}

// batchMeanVariance returns the sample variance (divided by reps − 1) of reps batch means of
// h, each over b positives and b negatives drawn with replacement, as v and k with the
// variance v·2^(2k): the means are formed on h/2^k, where 2^k is kept above every |h| seen
// (k starts at the first nonzero |h|, and when a larger one comes the running sums, the
// batch's and Welford's, are rescaled by a power of two, exactly).
func batchMeanVariance(nPos, nNeg int, h func(i, j int) float64, b, reps int, rng *rand.Rand) (v float64, k int, err error) {
	is, js := make([]int, b), make([]int, b)
	var mean, m2 float64 // Welford's running mean and sum of squared deviations, in units of 2^k
	scale := 0.0         // 2^k, above every |h| so far; 0 until a nonzero h
	grow := func(a float64, s *float64) {
		nk := math.Ilogb(a) + 1
		f := math.Ldexp(1, k-nk) // < 1: old units to new
		if scale == 0 {
			f = 0 // every value so far was 0
		}
		*s, mean, m2 = *s*f, mean*f, m2*f*f
		k, scale = nk, math.Ldexp(1, nk)
	}
	for r := range reps {
		for q := range b {
			is[q], js[q] = rng.IntN(nPos), rng.IntN(nNeg)
		}
		var s float64
		for _, i := range is {
			for _, j := range js {
				x := h(i, j)
				a := math.Abs(x)
				if !(a <= math.MaxFloat64) {
					return 0, 0, check.Errorf(pkg, rocops.ErrNonFinite, "h(%d, %d) = %v", i, j, x)
				}
				if a >= scale && a > 0 {
					grow(a, &s)
				}
				if scale > 0 {
					s += x / scale
				}
			}
		}
		x := s / float64(b*b)
		d := x - mean
		mean += d / float64(r+1)
		m2 += d * (x - mean)
	}
	v = m2 / float64(reps-1)
	if !(v > 0) {
		return 0, 0, fmt.Errorf("%w at batch size %d", ErrDegenerate, b)
	}
	return v, k, nil
}

// fitLine returns the least-squares slope β of ys on xs (gonum's stat.LinearRegression) and
// its standard error, sqrt(RSS/(K − 2) / Σ_k (x_k − x̄)²) for K points, with the residuals
// taken about the means, e_k = (y_k − ȳ) − β·(x_k − x̄), so that they do not cancel against
// the intercept.
func fitLine(xs, ys []float64) (slope, stderr float64) {
	_, slope = stat.LinearRegression(xs, ys, nil, false)
	mx, my := stat.Mean(xs, nil), stat.Mean(ys, nil)
	var rss float64
	for k, x := range xs {
		e := (ys[k] - my) - slope*(x-mx)
		rss += e * e
	}
	n := float64(len(xs))
	return slope, math.Sqrt(rss / (n - 2) / (stat.Variance(xs, nil) * (n - 1)))
}
