package rocbeam

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/metrics"
)

// With a confidence the deployed threshold is read off the merged count tables, and it is
// exactly metrics.ThresholdNP of the same rows in process at δ = 1 − confidence (0.05 for
// 0.95), whatever the ties and the sharding, with the rates of flagging score ≥ it counted
// here over every row; the confidence is recorded, and a model's threshold gives way to it.
func TestEvaluateConfidenceMatchesInProcess(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n          int
		p          float64
		levels     int
		shards     int
		alpha      float64
		confidence float64
		delta      float64
		tally      int
	}{
		{"continuous", 20_000, 0.1, 0, 4, 0.05, 0.95, 0.05, 0},
		{"heavy ties", 30_000, 0.2, 7, 5, 0.1, 0.99, 0.01, 0},
		{"few levels, many blocks", 10_000, 0.3, 300, 3, 0.01, 0.9, 0.1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.tally > 0 {
				defer func(m int) { maxTally = m }(maxTally)
				maxTally = tc.tally
			}
			rng := rand.New(rand.NewPCG(uint64(tc.n), 11))
			scores, labels := problem(rng, tc.n, tc.p, tc.levels)
			in, out := t.TempDir(), t.TempDir()
			writeShards(t, in, tc.shards, scores, labels)
			modelThreshold := scores[5] // a model's, which the confidence replaces
			require.NoError(t, run(Config{Scores: filepath.Join(in, "scored-*"), Output: out, Alpha: tc.alpha,
				Threshold: &modelThreshold, Confidence: tc.confidence}))
			r := readReport(t, out)

			want, err := metrics.ThresholdNP(scores, labels, tc.alpha, tc.delta)
			require.NoError(t, err)
			require.NotNil(t, r.DeployedThreshold)
			require.Equal(t, math.Float64bits(want), math.Float64bits(*r.DeployedThreshold), "%v, want %v", *r.DeployedThreshold, want)
			wantFPR, wantTPR := scanRates(scores, labels, want)
			require.Equal(t, wantFPR, *r.DeployedFPR)
			require.Equal(t, wantTPR, *r.DeployedTPR)
			require.LessOrEqual(t, wantFPR, tc.alpha)
			require.Equal(t, tc.confidence, r.DeployedConfidence)
			require.Equal(t, tc.alpha, r.Alpha)
		})
	}
}

// Too few negatives for the guarantee fail the pipeline with metrics' message, before
// metrics.json is written; a confidence outside (0, 1), or one given to Score, is refused
// before the pipeline runs; without a confidence the report has no deployed_confidence key.
func TestEvaluateConfidenceErrors(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	scores := []float64{0.1, 0.2, 0.3, 0.9, 0.4, 0.8, 0.35, 0.05}
	labels := []float64{0, 0, 0, 1, 0, 1, 0, 0}
	writeShards(t, in, 2, scores, labels)
	t.Run("too few negatives", func(t *testing.T) {
		skipFailingUnderRace(t)
		err := run(Config{Scores: filepath.Join(in, "scored-*"), Output: out, Alpha: 0.1, Confidence: 0.95})
		require.ErrorContains(t, err, "too few negatives for the guarantee: 6 negatives, the guarantee at alpha = 0.1 with delta = 0.05 needs at least 29")
		_, statErr := os.Stat(filepath.Join(out, "metrics.json"))
		require.True(t, os.IsNotExist(statErr), "no metrics.json")
	})

	for _, bad := range []float64{1, -0.5, math.NaN()} {
		err := run(Config{Scores: filepath.Join(in, "scored-*"), Output: out, Confidence: bad})
		require.ErrorContains(t, err, "rocbeam: confidence")
	}
	require.ErrorContains(t, run(Config{Scores: "x", Input: "y", Confidence: 0.95}), "the model's own threshold")

	require.NoError(t, run(Config{Scores: filepath.Join(in, "scored-*"), Output: out, Alpha: 0.5}))
	b, err := os.ReadFile(filepath.Join(out, "metrics.json"))
	require.NoError(t, err)
	require.NotContains(t, string(b), "deployed_confidence")
}
