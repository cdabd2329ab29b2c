package kdequantile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
)

// The fuzz tests decode a batch from bytes: 9 bytes per element, a float64 score (little-endian
// bits, so NaN, ±Inf, subnormals and huge values all occur) and a label byte (0 or 1 from its
// low bit, or the invalid label 0.5 when its high bit is set).

func decode(data []byte) (scores, labels []float64) {
	for ; len(data) >= 9; data = data[9:] {
		scores = append(scores, math.Float64frombits(binary.LittleEndian.Uint64(data)))
		switch b := data[8]; {
		case b&0x80 != 0:
			labels = append(labels, 0.5)
		default:
			labels = append(labels, float64(b&1))
		}
	}
	return scores, labels
}

func addSeeds(f *testing.F) {
	scores, labels := testbatch.Shifted(1, 7, 40, 0.2, 1)
	f.Add(testbatch.Encode(scores, labels), 0.05, 0.0, 0.0)
	f.Add(testbatch.Encode(scores, labels), 0.5, 3.0, 0.5)
	f.Add(testbatch.Encode([]float64{0, 0, 0, 1}, []float64{0, 0, 1, 0}), 0.25, 0.0, 0.0)
	f.Add(testbatch.Encode([]float64{-800, 800, 0}, []float64{0, 0, 1}), 0.5, 1.0, 1.0)
	f.Add(testbatch.Encode([]float64{1e300, -1e300, 5}, []float64{0, 0, 1}), 0.001, 0.0, 0.0)
	f.Add(testbatch.Encode([]float64{math.NaN(), 1}, []float64{0, 1}), 0.1, 0.0, 0.0)
	f.Add(testbatch.Encode([]float64{1, 2}, []float64{0, 0}), 0.1, 0.0, 0.0)
	f.Add([]byte{}, 0.1, 0.0, 0.0)
	f.Add(testbatch.Encode([]float64{1, 2}, []float64{0, 1}), 1.5, -1.0, math.NaN())
}

// invalid reports whether the input breaks the documented rules, and expectRange whether
// rocops.ErrRange is possible: |τ| ≤ max|f| + |logit(α)|/v0 with |logit(α)| ≤ 745, and the batch rule
// gives v0 ≥ 0.85/max|f| or 1 (with Recall: r for α and v1 for v0).
func invalid(scores, labels []float64, cfg Config) (bad, expectRange bool) {
	point, vTau := cfg.Alpha, cfg.V0
	if cfg.Recall != 0 {
		point, vTau = cfg.Recall, cfg.V1
	}
	if (cfg.Alpha == 0) == (cfg.Recall == 0) || !(point > 0 && point < 1) || !(cfg.V0 >= 0) || !(cfg.V1 >= 0) ||
		math.IsInf(cfg.V0, 1) || math.IsInf(cfg.V1, 1) || len(scores) == 0 || len(scores) != len(labels) ||
		cfg.Widen != 0 && !(cfg.Widen >= 1e-6 && cfg.Widen <= 1e6) {
		return true, false
	}
	var n0, n1 int
	maxAbs := 0.0
	for i, f := range scores {
		if math.IsNaN(f) || math.IsInf(f, 0) || (labels[i] != 0 && labels[i] != 1) {
			return true, false
		}
		maxAbs = math.Max(maxAbs, math.Abs(f))
		if labels[i] == 1 {
			n1++
		} else {
			n0++
		}
	}
	widen := max(1, cfg.Widen) // the rule's v0 shrinks by Widen, so |τ| can grow by it
	return n0 == 0 || n1 == 0, maxAbs*widen > 1e305 || (vTau > 0 && 745/vTau > 1e305)
}

// checkErr fails unless err is nil exactly for valid input, and one of the package's errors
// otherwise.
func checkErr(t *testing.T, err error, scores, labels []float64, cfg Config) bool {
	bad, expectRange := invalid(scores, labels, cfg)
	switch {
	case err == nil && bad:
		require.Fail(t, fmt.Sprintf("no error for invalid input %v %v %+v", scores, labels, cfg))
	case err != nil && !bad && !(expectRange && errors.Is(err, rocops.ErrRange)):
		require.Fail(t, fmt.Sprintf("error %v for valid input %v %v %+v", err, scores, labels, cfg))
	case err != nil:
		for _, e := range []error{rocops.ErrEmpty, rocops.ErrLength, rocops.ErrNonFinite, rocops.ErrLabel, rocops.ErrNoPositives,
			rocops.ErrNoNegatives, rocops.ErrConfig, rocops.ErrRange} {
			if errors.Is(err, e) {
				return false
			}
		}
		require.Fail(t, fmt.Sprintf("error %v is none of the package's", err))
	}
	return err == nil
}

func checkResult(t *testing.T, r Result) {
	require.True(t, isFinite(r.Tau), "result %+v", r)
	require.GreaterOrEqual(t, r.Loss, 0.0, "result %+v", r)
	require.LessOrEqual(t, r.Loss, 1.0, "result %+v", r)
	require.Greater(t, r.V0, 0.0, "result %+v", r)
	require.Greater(t, r.V1, 0.0, "result %+v", r)
	require.False(t, math.IsInf(r.V0, 0), "result %+v", r)
	require.False(t, math.IsInf(r.V1, 0), "result %+v", r)
}

func FuzzEvaluate(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, alpha, v0, v1 float64) {
		scores, labels := decode(data)
		cfg := Config{Alpha: alpha, V0: v0, V1: v1}
		r, err := Evaluate(scores, labels, cfg)
		if checkErr(t, err, scores, labels, cfg) {
			checkResult(t, r)
		}
	})
}

func FuzzGradient(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, alpha, v0, v1 float64) {
		fuzzGradient(t, data, Config{Alpha: alpha, V0: v0, V1: v1})
	})
}

// FuzzGradientWiden is FuzzGradient with the rule's bandwidths widened or narrowed by a
// factor 10^(6·tanh(e)) in [1e-6, 1e6], the whole range Config.Widen takes: the rule's
// inverse bandwidths must stay finite however narrow, and the gradients with them.
func FuzzGradientWiden(f *testing.F) {
	scores, labels := testbatch.Shifted(1, 7, 40, 0.2, 1)
	f.Add(testbatch.Encode(scores, labels), 0.05, 0.0)
	f.Add(testbatch.Encode(scores, labels), 0.05, 1.0)
	f.Add(testbatch.Encode(scores, labels), 0.5, -3.0)
	// Scores 1e-304 apart: the rule's v ≈ 1e304, which kernels a million times narrower
	// would take beyond float64.
	f.Add(testbatch.Encode([]float64{0, 1e-304, 2e-304, 3e-304, 4e-304, 5e-304}, []float64{0, 1, 0, 1, 0, 1}), 0.2, -40.0)
	f.Fuzz(func(t *testing.T, data []byte, alpha, e float64) {
		if math.IsNaN(e) {
			return
		}
		fuzzGradient(t, data, Config{Alpha: alpha, Widen: math.Pow(10, 6*math.Tanh(e))})
	})
}

// FuzzGradientRecall is FuzzGradient for the mirrored loss, the fuzzed rate being the recall:
// the same errors, finite results, and the same signs (raising a positive lowers the
// false-positive rate at the threshold its class sets; raising a negative raises it).
func FuzzGradientRecall(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, recall, v0, v1 float64) {
		fuzzGradient(t, data, Config{Recall: recall, V0: v0, V1: v1})
	})
}

func fuzzGradient(t *testing.T, data []byte, cfg Config) {
	scores, labels := decode(data)
	g, r, err := Gradient(scores, labels, cfg)
	if !checkErr(t, err, scores, labels, cfg) {
		return
	}
	checkResult(t, r)
	require.Equal(t, len(scores), len(g), "%d gradients for %d scores", len(g), len(scores))
	for i, x := range g {
		require.True(t, isFinite(x), "gradient[%d] = %v for %v %v %+v", i, x, scores, labels, cfg)
		require.False(t, labels[i] == 1 && x > 0, "gradient[%d] = %v has the wrong sign for label %v", i, x, labels[i])
		require.False(t, labels[i] == 0 && x < 0, "gradient[%d] = %v has the wrong sign for label %v", i, x, labels[i])
	}
}
