package kdequantile

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/stretchr/testify/require"
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
			scores, labels := testbatch.Shifted(seed, 7, c.n, c.posFrac, c.sep)
			s, l, all, allLabels := shardBatch(rng, scores, labels, workers)
			grads, res, passes, err := ShardedGradient(s, l, c.cfg)
			require.NoError(t, err, "%s seed %d", c.name, seed)
			want, wantRes, err := Gradient(all, allLabels, c.cfg)
			require.NoError(t, err)
			got := slices.Concat(grads...)
			t.Logf("%s seed %d: %.3g, %d passes", c.name, seed, relDiff(got, want), passes)
			d := relDiff(got, want)
			require.LessOrEqual(t, d, tolShard, "%s seed %d: gradient differs by %.3g relative (%d passes)", c.name, seed, d, passes)
			require.InDelta(t, wantRes.Tau, res.Tau, tolShard*(1+math.Abs(wantRes.Tau)), "%s seed %d: result %+v, whole batch %+v", c.name, seed, res, wantRes)
			require.InDelta(t, wantRes.Loss, res.Loss, tolShard*wantRes.Loss, "%s seed %d: result %+v, whole batch %+v", c.name, seed, res, wantRes)
			require.InDelta(t, wantRes.V0, res.V0, tolShard*wantRes.V0, "%s seed %d: result %+v, whole batch %+v", c.name, seed, res, wantRes)
			require.InDelta(t, wantRes.V1, res.V1, tolShard*wantRes.V1, "%s seed %d: result %+v, whole batch %+v", c.name, seed, res, wantRes)
			// Gradient balance holds for the shards' union.
			var sum, neg float64
			for i, g := range got {
				sum += g
				if allLabels[i] == 0 {
					neg += math.Abs(g)
				}
			}
			require.LessOrEqual(t, math.Abs(sum), tolBalance*neg, "%s seed %d: gradients sum to %g (negatives' |sum| %g)", c.name, seed, sum, neg)
		}
	}
}

// TestShardedGradientScale: the power-of-two scaling of the statistics keeps the rule's
// bandwidths and the gradient at extreme score scales, where shards differ in exponent.
func TestShardedGradientScale(t *testing.T) {
	for _, scale := range []float64{1e-200, 1e-3, 1e6, 1e200} {
		rng := rand.New(rand.NewPCG(5, 5))
		scores, labels := testbatch.Shifted(3, 7, 2000, 0.1, 1)
		for i := range scores {
			scores[i] = scale * (scores[i] + 3) // positive scores: shards' exponents differ
		}
		s, l, all, allLabels := shardBatch(rng, scores, labels, 8)
		grads, res, _, err := ShardedGradient(s, l, Config{Alpha: 0.05})
		require.NoError(t, err)
		want, wantRes, err := Gradient(all, allLabels, Config{Alpha: 0.05})
		require.NoError(t, err)
		d := relDiff(slices.Concat(grads...), want)
		require.LessOrEqual(t, d, tolShard, "scale %g: gradient differs by %.3g relative", scale, d)
		require.InDelta(t, 1, res.V0/wantRes.V0, tolShard, "scale %g: bandwidths %g, %g, whole batch %g, %g", scale, res.V0, res.V1, wantRes.V0, wantRes.V1)
		require.InDelta(t, 1, res.V1/wantRes.V1, tolShard, "scale %g: bandwidths %g, %g, whole batch %g, %g", scale, res.V0, res.V1, wantRes.V0, wantRes.V1)
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
		{"ShardStats", shardStats{}, 104},
		{"Query", query{}, 40},
		{"PhiSums", shardPhi{}, 80},
		{"FinishSums", finishSums{}, 64},
		{"Final", final{}, 64},
	} {
		got := binary.Size(c.msg)
		require.Equal(t, c.want, got, "%s: %d bytes, want %d", c.name, got, c.want)
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
		_, _, _, err := ShardedGradient(c.scores, c.labels, c.cfg)
		require.ErrorIs(t, err, c.want, "%s: got %v, want %v", c.name, err, c.want)
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

// protocol runs the sharded protocol on four shards of a batch of 400 scores as
// ShardedGradient does, with the messages passed through the tamper functions (nil: as they
// are), and returns the first error.
type protocol struct {
	shardCfg Config // the shards' configuration; the solver's is Config{Alpha: 0.1}
	stats    func(shardStats) shardStats
	// phi gives the messages of pass p, shard k: the shard's own, and those of every earlier
	// pass (earlier[pass-1][k]); it returns the ones to combine.
	phi     func(pass uint64, k int, own shardPhi, earlier [][]shardPhi) []shardPhi
	finish  func(k int, own finishSums) []finishSums
	final   func(final) final
	extra   func(sv *solver) error // called once the solver is done, before Final
	noFinal bool
}

func (p protocol) run(t *testing.T) (Result, error) {
	t.Helper()
	scores, labels := testbatch.Shifted(21, 7, 400, 0.2, 1.5)
	cfg := Config{Alpha: 0.1}
	shardCfg := cfg
	if p.shardCfg != (Config{}) {
		shardCfg = p.shardCfg
	}
	var shards []*shardState
	var stats shardStats
	for k := range 4 {
		sh, err := newShard(scores[100*k:100*(k+1)], labels[100*k:100*(k+1)], shardCfg)
		require.NoError(t, err)
		shards = append(shards, sh)
		stats = stats.Combine(sh.Stats())
	}
	if p.stats != nil {
		stats = p.stats(stats)
	}
	sv, err := newSolver(stats, cfg)
	if err != nil {
		return Result{}, err
	}
	var earlier [][]shardPhi
	for !sv.Done() {
		q := sv.Query()
		total := shardPhi{Scale: math.Inf(1)}
		var these []shardPhi
		for k, sh := range shards {
			own := sh.Phi(q)
			these = append(these, own)
			msgs := []shardPhi{own}
			if p.phi != nil {
				msgs = p.phi(q.Pass, k, own, earlier)
			}
			for _, m := range msgs {
				total = total.Combine(m)
			}
		}
		earlier = append(earlier, these)
		if err := sv.Update(total); err != nil {
			return Result{}, err
		}
	}
	if p.extra != nil {
		if err := p.extra(sv); err != nil {
			return Result{}, err
		}
	}
	q, fin := sv.Query(), finishSums{MinAbs: math.Inf(1)}
	for k, sh := range shards {
		msgs := []finishSums{sh.Finish(q)}
		if p.finish != nil {
			msgs = p.finish(k, msgs[0])
		}
		for _, m := range msgs {
			fin = fin.Combine(m)
		}
	}
	res, final, err := sv.Final(fin)
	if err != nil {
		return Result{}, err
	}
	if p.final != nil {
		final = p.final(final)
	}
	for _, sh := range shards {
		if _, err := sh.Gradient(final); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// TestShardProtocolRefuses: every message that would give a wrong τ without a sign — before,
// NaN sums ran 54 passes to τ = −2.13 where the truth is 1.26 (this batch's numbers), a missing
// shard gave τ = 1.08, Recall shards fed to an Alpha solver −0.15, N < 0 and Min > Max 4.49 and
// −2.13, and Final before Done answered — is ErrShard naming what does not fit, and the honest
// run gives Gradient's τ on the whole batch.
func TestShardProtocolRefuses(t *testing.T) {
	scores, labels := testbatch.Shifted(21, 7, 400, 0.2, 1.5)
	want, err := Evaluate(scores, labels, Config{Alpha: 0.1})
	require.NoError(t, err)
	res, err := protocol{}.run(t)
	require.NoError(t, err)
	require.InDelta(t, want.Tau, res.Tau, tolShard*(1+math.Abs(want.Tau)))

	own := func(m shardPhi) []shardPhi { return []shardPhi{m} }
	cases := []struct {
		name string
		p    protocol
		says string
	}{
		{"NaN PhiSums", protocol{phi: func(_ uint64, k int, m shardPhi, _ [][]shardPhi) []shardPhi {
			if k == 1 {
				m.D1, m.TBelow = math.NaN(), math.NaN()
			}
			return own(m)
		}}, "PhiSums of pass 1: TBelow = NaN"},
		{"infinite PhiSums", protocol{phi: func(_ uint64, k int, m shardPhi, _ [][]shardPhi) []shardPhi {
			if k == 2 {
				m.D3 = math.Inf(-1)
			}
			return own(m)
		}}, "D3 = -Inf"},
		{"NaN scale", protocol{phi: func(_ uint64, k int, m shardPhi, _ [][]shardPhi) []shardPhi {
			if k == 0 {
				m.Scale = math.NaN()
			}
			return own(m)
		}}, "Scale = NaN"},
		{"a shard missing from a pass", protocol{phi: func(_ uint64, k int, m shardPhi, _ [][]shardPhi) []shardPhi {
			if k == 2 {
				return nil
			}
			return own(m)
		}}, "a shard is missing or counted twice"},
		{"a shard counted twice", protocol{phi: func(_ uint64, k int, m shardPhi, _ [][]shardPhi) []shardPhi {
			if k == 3 {
				return []shardPhi{m, m}
			}
			return own(m)
		}}, "a shard is missing or counted twice"},
		{"a stale answer among fresh ones", protocol{phi: func(pass uint64, k int, m shardPhi, earlier [][]shardPhi) []shardPhi {
			if pass == 2 && k == 0 {
				return own(earlier[0][0])
			}
			return own(m)
		}}, "combine the answers of different passes, want pass 2"},
		{"every answer stale", protocol{phi: func(pass uint64, k int, m shardPhi, earlier [][]shardPhi) []shardPhi {
			if pass == 2 {
				return own(earlier[0][k])
			}
			return own(m)
		}}, "PhiSums answer pass 1, want pass 2"},
		{"Above beyond N", protocol{phi: func(_ uint64, k int, m shardPhi, _ [][]shardPhi) []shardPhi {
			if k == 0 {
				m.Above = m.N + 1000
			}
			return own(m)
		}}, "negatives above τ of"},
		{"sums beside a scale of +Inf", protocol{phi: func(_ uint64, k int, m shardPhi, _ [][]shardPhi) []shardPhi {
			if k == 3 {
				m.Scale = math.Inf(1)
			}
			return own(m)
		}}, "TBelow = NaN"},
		{"Recall shards fed to an Alpha solver", protocol{shardCfg: Config{Recall: 0.9}}, "ShardStats of configuration"},
		{"shards of two configurations", protocol{stats: func(s shardStats) shardStats {
			return s.Combine(shardStats{Config: fingerprint(Config{Alpha: 0.2})})
		}}, "ShardStats combine shards of different configurations"},
		{"N < 0", protocol{stats: func(s shardStats) shardStats { s.Neg.N = -5; return s }}, "negatives: N = -5"},
		{"Min > Max", protocol{stats: func(s shardStats) shardStats {
			s.Neg.Min, s.Neg.Max = s.Neg.Max, s.Neg.Min
			return s
		}}, "negatives: Min = "},
		{"NaN M2", protocol{stats: func(s shardStats) shardStats { s.Pos.M2 = math.NaN(); return s }}, "positives: Mean = "},
		{"Scale 0", protocol{stats: func(s shardStats) shardStats { s.Pos.Scale = 0; return s }}, "positives: Scale = 0"},
		{"Mean outside the range", protocol{stats: func(s shardStats) shardStats { s.Neg.Mean += 100 * s.Neg.Scale; return s }}, "outside their range"},
		{"Update after Done", protocol{extra: func(sv *solver) error { return sv.Update(shardPhi{}) }}, "Update after Done"},
		{"a shard missing from the finish", protocol{finish: func(k int, m finishSums) []finishSums {
			if k == 1 {
				return nil
			}
			return []finishSums{m}
		}}, "FinishSums of pass 3 sum"},
		{"NaN FinishSums", protocol{finish: func(k int, m finishSums) []finishSums {
			m.Weight = math.NaN()
			return []finishSums{m}
		}}, "Weight = NaN"},
		{"NaN MinAbs", protocol{finish: func(k int, m finishSums) []finishSums {
			if k == 0 {
				m.MinAbs = math.NaN()
			}
			return []finishSums{m}
		}}, "Weight = NaN"},
		{"finish sums of a solver pass", protocol{finish: func(k int, m finishSums) []finishSums {
			m.Pass = 1
			return []finishSums{m}
		}}, "FinishSums answer pass 1, want pass 3"},
		{"a Final of another configuration", protocol{final: func(f final) final { f.Config++; return f }}, "Final of configuration"},
		{"a Final without a normaliser", protocol{final: func(f final) final { f.Weight = 0; return f }}, "Final: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.p.run(t)
			require.ErrorIs(t, err, errShard)
			require.ErrorContains(t, err, "kdequantile: shard message does not fit: ")
			require.ErrorContains(t, err, c.says)
		})
	}

	// Final before Done.
	sh, err := newShard(scores, labels, Config{Alpha: 0.1})
	require.NoError(t, err)
	sv, err := newSolver(sh.Stats(), Config{Alpha: 0.1})
	require.NoError(t, err)
	_, _, err = sv.Final(sh.Finish(sv.Query()))
	require.ErrorIs(t, err, errShard)
	require.ErrorContains(t, err, "Final before Done, after 0 passes")
	// A refused Update leaves the solver as it was: the honest sums then solve τ.
	bad := sh.Phi(sv.Query())
	bad.N++
	require.ErrorIs(t, sv.Update(bad), errShard)
	require.Equal(t, 0, sv.Passes())
	for !sv.Done() {
		require.NoError(t, sv.Update(sh.Phi(sv.Query())))
	}
	res, fin, err := sv.Final(sh.Finish(sv.Query()))
	require.NoError(t, err)
	require.InDelta(t, want.Tau, res.Tau, tolShard*(1+math.Abs(want.Tau)))
	g, err := sh.Gradient(fin)
	require.NoError(t, err)
	wg, _, err := Gradient(scores, labels, Config{Alpha: 0.1})
	require.NoError(t, err)
	require.LessOrEqual(t, relDiff(g, wg), tolShard)
}

// TestShardTags: combining is commutative in the tags; no message is the identity, and a
// disagreement survives every later combination.
func TestShardTags(t *testing.T) {
	a, b := fingerprint(Config{Alpha: 0.1}), fingerprint(Config{Recall: 0.9})
	require.NotEqual(t, a, b)
	require.NotEqual(t, fingerprint(Config{Alpha: 0.1}), fingerprint(Config{Alpha: 0.1, Tail: true}))
	require.Equal(t, a, joinTag(0, a))
	require.Equal(t, a, joinTag(a, 0))
	require.Equal(t, a, joinTag(a, a))
	require.Equal(t, uint64(conflict), joinTag(a, b))
	require.Equal(t, uint64(conflict), joinTag(joinTag(a, b), a))
	require.Equal(t, uint64(conflict), joinTag(0, joinTag(b, a)))
	for _, cfg := range []Config{{Alpha: 0.1}, {Recall: 0.5, V0: 2}, {Alpha: 0.3, Widen: 3, Tail: true}} {
		f := fingerprint(cfg)
		require.True(t, f != 0 && f != conflict, "%+v: %x", cfg, f)
	}
}
