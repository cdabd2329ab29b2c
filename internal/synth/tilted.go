// Package synth draws the synthetic data sets that the trainer's comparison tests and the
// results harness (cmd/results) share, so that both measure the same task.
package synth

import (
	"math/rand/v2"

	"github.com/rocops/rocops/data"
)

// Tilted is the tilted-outlier task, where cross-entropy is misspecified for the low-FPR
// region: n rows of two features, negatives from N(0, I), a share of 0.2 positives from
// N((2.5, 0), I) except for 0.15 of them, outliers drawn far off from N((−5, 4), 0.25·I),
// drawn from seed. A linear scorer cannot serve both groups of positives; cross-entropy's
// linear penalty on the hopeless outliers tilts its direction towards them, while the KDE
// loss gives them (nearly) no weight and keeps the direction that ranks the bulk above the
// negatives' upper tail.
func Tilted(n int, seed uint64) (*data.Dataset, error) {
	const (
		posShare     = 0.2
		outlierShare = 0.15
	)
	rng := rand.New(rand.NewPCG(seed, 11))
	x := make([]float64, 2*n)
	y := make([]float64, n)
	for i := range n {
		x[2*i], x[2*i+1] = rng.NormFloat64(), rng.NormFloat64()
		if rng.Float64() >= posShare {
			continue
		}
		y[i] = 1
		if rng.Float64() < outlierShare {
			x[2*i] = -5 + 0.5*x[2*i]
			x[2*i+1] = 4 + 0.5*x[2*i+1]
		} else {
			x[2*i] += 2.5
		}
	}
	return data.New(x, y, 2)
}
