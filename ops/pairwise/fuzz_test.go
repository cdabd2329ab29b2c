package pairwise

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
)

func fuzzSeeds(f *testing.F) {
	add := func(scores, labels []float64, s Surrogate, margin float64, pairs uint8) {
		f.Add(testbatch.Encode(scores, labels), uint8(s), margin, pairs, uint64(len(scores)))
	}
	add([]float64{0.5, -0.2, 1.5, 0.1}, []float64{1, 0, 1, 0}, Logistic, 0, 0)
	add([]float64{1.25, 0.25, 2.25, 1.25}, []float64{1, 0, 1, 0}, Hinge, 1, 0)
	add([]float64{0, 0, 0, 0}, []float64{1, 0, 1, 0}, SquaredHinge, 0.5, 3)
	add([]float64{-720, -721, -719}, []float64{1, 0, 0}, Exponential, 0, 0)
	add([]float64{-800, 0}, []float64{1, 0}, Exponential, 0, 2)
	add([]float64{1e308, -1e308}, []float64{0, 1}, Square, 2, 0)
	add([]float64{math.NaN(), 1}, []float64{1, 0}, Hinge, 0, 0)
	add([]float64{1, 2}, []float64{1, 2}, Logistic, 0, 0)
	add([]float64{1, 2}, []float64{1, 1}, Square, -1, 0)
}

// checkFuzz asserts the contract on any input: no panic; a valid batch with a valid config
// either succeeds with a finite, non-negative loss and finite gradients, or reports
// rocops.ErrRange; anything else is rejected with one of the package's errors.
func checkFuzz(t *testing.T, data []byte, s uint8, margin float64, pairs uint8, seed uint64, withGrad bool) {
	scores, labels := testbatch.Decode(data)
	cfg := Config{Surrogate: Surrogate(s % 6), Margin: margin, Pairs: int(pairs%8) - 1, Seed: seed}
	// The seed's bits 8–15 and 16–23 choose a partial cut too: MaxFPR ∈ {0, ¼, ½, ¾, 1} and
	// MinTPR ∈ {0, ¼, ½, ¾}, all valid.
	cfg.MaxFPR = float64(seed>>8%5) / 4
	cfg.MinTPR = float64(seed>>16%4) / 4
	var loss float64
	var grad []float64
	var err error
	if withGrad {
		grad, loss, err = Gradient(scores, labels, cfg)
	} else {
		loss, err = Evaluate(scores, labels, cfg)
	}
	if err != nil {
		if validInput(scores, labels, cfg) {
			require.ErrorIs(t, err, rocops.ErrRange)
			return
		}
		known := false
		for _, e := range []error{rocops.ErrEmpty, rocops.ErrLength, rocops.ErrNonFinite, rocops.ErrLabel, rocops.ErrOneClass, rocops.ErrConfig} {
			known = known || errors.Is(err, e)
		}
		require.True(t, known, "unexpected error %v", err)
		return
	}
	require.True(t, validInput(scores, labels, cfg), "invalid input accepted")
	require.False(t, math.IsNaN(loss) || math.IsInf(loss, 0), "loss %v", loss)
	require.GreaterOrEqual(t, loss, 0.0)
	if withGrad {
		require.Len(t, grad, len(scores))
		for k, g := range grad {
			require.False(t, math.IsNaN(g) || math.IsInf(g, 0), "gradient[%d] = %v", k, g)
		}
	}
}

// validInput is the documented domain, written independently of the package's checks.
func validInput(scores, labels []float64, cfg Config) bool {
	return cfg.Surrogate >= 0 && cfg.Surrogate <= SquaredHinge && cfg.Pairs >= 0 &&
		cfg.Margin >= 0 && !math.IsInf(cfg.Margin, 1) && testbatch.Valid(scores, labels)
}

func FuzzEvaluate(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, s uint8, margin float64, pairs uint8, seed uint64) {
		checkFuzz(t, data, s, margin, pairs, seed, false)
	})
}

func FuzzGradient(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, s uint8, margin float64, pairs uint8, seed uint64) {
		checkFuzz(t, data, s, margin, pairs, seed, true)
	})
}
