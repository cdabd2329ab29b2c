package kdequantile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rocops/rocops"
)

// tolShard bounds the sharded gradient's difference from Gradient on the whole batch,
// relative to the gradient's largest |∂L/∂f|: both solve τ to near machine precision from
// different starts and add the same terms in a different order.
const tolShard = 1e-12

// shardBatch deals the batch (scores, labels) to workers shards of random sizes, in order,
// after moving some negatives to the front: shard 0 is empty and shard 1 holds negatives only,
// so the deal always has an empty shard and a shard without positives. It returns the shards
// and the reordered batch they concatenate to.
func shardBatch(rng *rand.Rand, scores, labels []float64, workers int) (s, l [][]float64, all, allLabels []float64) {
	var negFirst, rest []int
	for i, y := range labels {
		if y == 0 && len(negFirst) < len(labels)/10+1 {
			negFirst = append(negFirst, i)
		} else {
			rest = append(rest, i)
		}
	}
	order := append(negFirst, rest...)
	for _, i := range order {
		all = append(all, scores[i])
		allLabels = append(allLabels, labels[i])
	}
	// Cuts: shard 0 empty, shard 1 = the moved negatives, the rest random (some empty).
	cuts := []int{0, 0, len(negFirst)}
	for range workers - 3 {
		cuts = append(cuts, len(negFirst)+rng.IntN(len(rest)+1))
	}
	slices.Sort(cuts[2:])
	cuts = append(cuts, len(all))
	for k := range workers {
		s = append(s, all[cuts[k]:cuts[k+1]])
		l = append(l, allLabels[cuts[k]:cuts[k+1]])
	}
	return s, l, all, allLabels
}

func TestShardedGradient(t *testing.T) {
	const workers = 8
	cases := []struct {
		name         string
		n            int
		posFrac, sep float64
		cfg          Config
	}{
		{"alpha rule", 400, 0.1, 1, Config{Alpha: 0.05}},
		{"alpha fixed", 3000, 0.2, 2, Config{Alpha: 0.1, V0: 4, V1: 2}},
		{"alpha tail widen", 1000, 0.05, 1.5, Config{Alpha: 0.01, Tail: true, Widen: 2}},
		{"alpha large", 50_000, 0.1, 1, Config{Alpha: 0.05}},
		{"recall rule", 400, 0.3, 1, Config{Recall: 0.9}},
		{"recall fixed", 3000, 0.1, 2, Config{Recall: 0.8, V0: 3, V1: 5}},
		{"recall tail", 1000, 0.2, 0.5, Config{Recall: 0.95, Tail: true}},
		{"narrow kernel", 500, 0.1, 1, Config{Alpha: 0.2, V0: 200, V1: 200}},
	}
	for _, c := range cases {
		for seed := range uint64(3) {
			rng := rand.New(rand.NewPCG(seed, 99))
			scores, labels := batch(seed, c.n, c.posFrac, c.sep)
			s, l, all, allLabels := shardBatch(rng, scores, labels, workers)
			grads, res, passes, err := ShardedGradient(s, l, c.cfg)
			if err != nil {
				t.Fatalf("%s seed %d: %v", c.name, seed, err)
			}
			want, wantRes, err := Gradient(all, allLabels, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Concat(grads...)
			t.Logf("%s seed %d: %.3g, %d passes", c.name, seed, relDiff(got, want), passes)
			if d := relDiff(got, want); !(d <= tolShard) {
				t.Errorf("%s seed %d: gradient differs by %.3g relative (%d passes)", c.name, seed, d, passes)
			}
			if math.Abs(res.Tau-wantRes.Tau) > tolShard*(1+math.Abs(wantRes.Tau)) ||
				math.Abs(res.Loss-wantRes.Loss) > tolShard*wantRes.Loss ||
				math.Abs(res.V0-wantRes.V0) > tolShard*wantRes.V0 || math.Abs(res.V1-wantRes.V1) > tolShard*wantRes.V1 {
				t.Errorf("%s seed %d: result %+v, whole batch %+v", c.name, seed, res, wantRes)
			}
			// Gradient balance holds for the shards' union.
			var sum, neg float64
			for i, g := range got {
				sum += g
				if allLabels[i] == 0 {
					neg += math.Abs(g)
				}
			}
			if math.Abs(sum) > tolBalance*neg {
				t.Errorf("%s seed %d: gradients sum to %g (negatives' |sum| %g)", c.name, seed, sum, neg)
			}
		}
	}
}

// TestShardedGradientScale: the power-of-two scaling of the statistics keeps the rule's
// bandwidths and the gradient at extreme score scales, where shards differ in exponent.
func TestShardedGradientScale(t *testing.T) {
	for _, scale := range []float64{1e-200, 1e-3, 1e6, 1e200} {
		rng := rand.New(rand.NewPCG(5, 5))
		scores, labels := batch(3, 2000, 0.1, 1)
		for i := range scores {
			scores[i] = scale * (scores[i] + 3) // positive scores: shards' exponents differ
		}
		s, l, all, allLabels := shardBatch(rng, scores, labels, 8)
		grads, res, _, err := ShardedGradient(s, l, Config{Alpha: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		want, wantRes, err := Gradient(all, allLabels, Config{Alpha: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(slices.Concat(grads...), want); !(d <= tolShard) {
			t.Errorf("scale %g: gradient differs by %.3g relative", scale, d)
		}
		if math.Abs(res.V0/wantRes.V0-1) > tolShard || math.Abs(res.V1/wantRes.V1-1) > tolShard {
			t.Errorf("scale %g: bandwidths %g, %g, whole batch %g, %g", scale, res.V0, res.V1, wantRes.V0, wantRes.V1)
		}
	}
}

// TestShardMessageSizes pins the bytes per message that the package documentation and
// docs/scaling.md state.
func TestShardMessageSizes(t *testing.T) {
	for _, c := range []struct {
		name string
		msg  any
		want int
	}{
		{"ShardStats", ShardStats{}, 96},
		{"Plan", Plan{}, 16},
		{"PhiSums", PhiSums{}, 56},
		{"FinishSums", FinishSums{}, 32},
		{"Final", Final{}, 56},
	} {
		if got := binary.Size(c.msg); got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, got, c.want)
		}
	}
}

func TestShardedGradientErrors(t *testing.T) {
	cfg := Config{Alpha: 0.1}
	neg := [][]float64{{1, 2}, {3}}
	zeros := [][]float64{{0, 0}, {0}}
	ones := [][]float64{{1, 1}, {1}}
	cases := []struct {
		name           string
		scores, labels [][]float64
		cfg            Config
		want           error
	}{
		{"no positives", neg, zeros, cfg, rocops.ErrNoPositives},
		{"no negatives", neg, ones, cfg, rocops.ErrNoNegatives},
		{"recall, no positives", neg, zeros, Config{Recall: 0.9}, rocops.ErrNoPositives},
		{"empty", [][]float64{{}, {}}, [][]float64{{}, {}}, cfg, rocops.ErrEmpty},
		{"length", [][]float64{{1, 2}}, [][]float64{{0}}, cfg, rocops.ErrLength},
		{"NaN", [][]float64{{1}, {math.NaN(), 2}}, [][]float64{{0}, {1, 0}}, cfg, rocops.ErrNonFinite},
		{"label", [][]float64{{1}, {2}}, [][]float64{{0}, {2}}, cfg, rocops.ErrLabel},
		{"config", neg, [][]float64{{0, 1}, {0}}, Config{}, rocops.ErrConfig},
	}
	for _, c := range cases {
		if _, _, _, err := ShardedGradient(c.scores, c.labels, c.cfg); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

// A batch spread over three workers: the coordinator sees only the workers' sums, and each
// worker gets the gradient of the whole batch's loss for its own scores.
func ExampleShardedGradient() {
	scores := [][]float64{{0.1, 0.9, -0.3}, {}, {0.4, 1.2, -1.0, 0.2}}
	labels := [][]float64{{0, 1, 0}, {}, {0, 1, 0, 0}}
	cfg := Config{Alpha: 0.25, V0: 4, V1: 4}
	grads, res, _, err := ShardedGradient(scores, labels, cfg)
	if err != nil {
		panic(err)
	}
	whole, want, _ := Gradient(slices.Concat(scores...), slices.Concat(labels...), cfg)
	fmt.Printf("tau %.6f (whole batch %.6f), loss %.6f (%.6f)\n", res.Tau, want.Tau, res.Loss, want.Loss)
	fmt.Printf("worker 2's gradient %.6f\n", grads[2])
	fmt.Printf("whole batch's       %.6f\n", whole[3:])
	// Output:
	// tau 0.348907 (whole batch 0.348907), loss 0.065759 (0.065759)
	// worker 2's gradient [0.080368 -0.062250 0.001460 0.074413]
	// whole batch's       [0.080368 -0.062250 0.001460 0.074413]
}
