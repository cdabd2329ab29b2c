package diagnose_test

import (
	"math"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// classSetup returns a tanh MLP of k = 3 outputs at its random initialisation and 45 rows of 4
// features labelled by the largest of the first three features: the untrained model ranks
// them about at random, so every comparison has severe pairs at M = 0.1.
func classSetup(t *testing.T) (nn.Model, []float64, []float64) {
	t.Helper()
	const rows, in, k = 45, 4, 3
	x := testbatch.Normal(5, 4, rows, in)
	labels := make([]float64, rows)
	for r := range labels {
		for c := 1; c < k; c++ {
			if x[r*in+c] > x[r*in+int(labels[r])] {
				labels[r] = float64(c)
			}
		}
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{6}, Activation: nn.Tanh, Outputs: k, Seed: 2})
	require.NoError(t, err)
	return m, x, labels
}

// moved returns the model's scores with its parameters moved by eps·v, restoring them.
func moved(t *testing.T, m nn.Model, x []float64, rows int, v []float64, eps float64) []float64 {
	t.Helper()
	saved, err := nn.Snapshot(m)
	require.NoError(t, err)
	defer func() {
		require.NoError(t, nn.Restore(m, saved))
	}()
	off := 0
	for _, p := range m.Params() {
		w := p.Value.Data().([]float64)
		for j := range w {
			w[j] += eps * v[off+j]
		}
		off += len(w)
	}
	f, err := nn.Scores(m, x, rows)
	require.NoError(t, err)
	return f
}

// comparisonsOf lists the comparisons of method over k classes as (class, other) pairs, other
// −1 for the rest, in MulticlassProject's order.
func comparisonsOf(k int, method metrics.Method) [][2]int {
	var out [][2]int
	for c := range k {
		if method == metrics.OvR {
			out = append(out, [2]int{c, -1})
			continue
		}
		for b := range k {
			if b != c {
				out = append(out, [2]int{c, b})
			}
		}
	}
	return out
}

// TestMulticlassSevereDirectionDescends: moving the parameters along V lowers the mean over the
// comparisons of each comparison's severe-pair loss (diagnose.SevereLoss on the comparison's
// column and rows, S fixed at the start, comparisons without a severe pair left out) at the
// rate Norm, and Severe counts the comparisons' severe pairs. Tolerance as in
// TestSevereDirectionDescends: central differences at ε = 1e-4 on a tanh model, 1e-6.
func TestMulticlassSevereDirectionDescends(t *testing.T) {
	const k, sev, eps = 3, 0.1, 1e-4
	m, x, labels := classSetup(t)
	rows := len(labels)
	s0, err := nn.Scores(m, x, rows)
	require.NoError(t, err)
	for _, method := range []metrics.Method{metrics.OvR, metrics.OvO} {
		for _, s := range pairwise.Surrogates() {
			cfg := pairwise.Config{Surrogate: s}
			d, err := classCmp(k, method).SevereDirection(m, x, labels, cfg, sev)
			require.NoError(t, err)
			var n2 float64
			for _, e := range d.V {
				n2 += e * e
			}
			near(t, "‖V‖", math.Sqrt(n2), 1, 1e-12)
			cmps := comparisonsOf(k, method)
			loss := func(eps float64) float64 {
				f := moved(t, m, x, rows, d.V, eps)
				l, pairs := meanSevereLoss(t, len(cmps), func(i int) (fc, f0, y []float64) {
					fc, y = comparisonOf(f, k, labels, cmps[i][0], cmps[i][1])
					f0, _ = comparisonOf(s0, k, labels, cmps[i][0], cmps[i][1])
					return fc, f0, y
				}, cfg, sev)
				require.Equal(t, d.Severe, pairs, "%v %v: the comparisons hold %d severe pairs, Severe = %d", method, s, pairs, d.Severe)
				return l
			}
			rate := (loss(eps) - loss(-eps)) / (2 * eps)
			near(t, method.String()+" "+s.String()+" directional derivative", rate, -d.Norm, 1e-6)
		}
	}
}

// TestMulticlassProject: every comparison's Split is binProject on that comparison's
// column and rows of the scores and tangents, and the mean of the Splits' means is −⟨∇L, p⟩,
// the negative directional derivative of the multi-class pairwise loss L of
// package pairwise on a Classes task (all pairs) along the direction whose tangents p are.
func TestMulticlassProject(t *testing.T) {
	const k = 3
	m, x, labels := classSetup(t)
	rows := len(labels)
	n, err := nn.NumParams(m)
	require.NoError(t, err)
	scores, err := nn.Scores(m, x, rows)
	require.NoError(t, err)
	p, err := diagnose.ScoreTangents(m, x, rows, unit(8, n))
	require.NoError(t, err)
	for _, method := range []metrics.Method{metrics.OvR, metrics.OvO} {
		cfg := pairwise.Config{Surrogate: pairwise.Logistic}
		splits, err := classCmp(k, method).Project(scores, labels, p, cfg)
		require.NoError(t, err)
		want := comparisonsOf(k, method)
		require.Equal(t, len(want), len(splits), "%v: %d splits, want %d", method, len(splits), len(want))
		var mean float64
		for i, s := range splits {
			require.Equal(t, want[i][0], s.Class, "%v: split %d is of %v, want %v", method, i, s.Comparison, want[i])
			require.Equal(t, want[i][1], s.Other, "%v: split %d is of %v, want %v", method, i, s.Comparison, want[i])
			f, y := comparisonOf(scores, k, labels, s.Class, s.Other)
			pc, _ := comparisonOf(p, k, labels, s.Class, s.Other)
			ref, err := binProject(f, y, pc, cfg)
			require.NoError(t, err)
			require.False(t, s.Split != ref, "%v: split of %v is %+v, Project gives %+v", method, s.Comparison, s.Split, ref)
			mean += s.Mean / float64(len(splits))
		}
		task := cfg
		task.Task, task.OvO = rocops.Classes(k), method == metrics.OvO
		g, _, err := pairwise.Gradient(scores, labels, task)
		require.NoError(t, err)
		var dir float64
		for i := range g {
			dir += g[i] * p[i]
		}
		near(t, method.String()+" mean drift", mean, -dir, 1e-12*math.Max(1, math.Abs(dir)))
	}
}

func TestMulticlassDirectionErrors(t *testing.T) {
	m, x, labels := classSetup(t)
	cfg := pairwise.Config{}
	_, err := classCmp(3, metrics.OvR).SevereDirection(m, x, labels, cfg, 1e6)
	require.ErrorIs(t, err, diagnose.ErrNoSevere, "huge M: error %v, want ErrNoSevere", err)
	_, err = (diagnose.Comparisons{Task: rocops.Labels(3), OvO: true}).SevereDirection(m, x, labels, cfg, 1)
	require.ErrorIs(t, err, rocops.ErrConfig, "OvO on label columns: error %v, want rocops.ErrConfig", err)
	_, err = (diagnose.Comparisons{Task: rocops.Classes(1)}).SevereDirection(m, x, labels, cfg, 1)
	require.ErrorIs(t, err, rocops.ErrConfig, "one class: error %v, want rocops.ErrConfig", err)
	_, err = classCmp(4, metrics.OvR).SevereDirection(m, x, labels, cfg, 1)
	require.ErrorIs(t, err, rocops.ErrLength, "k = 4 for a model of 3 outputs: error %v, want ErrLength", err)
	ones := make([]float64, len(labels))
	_, err = classCmp(3, metrics.OvR).SevereDirection(m, x, ones, cfg, 1)
	require.ErrorIs(t, err, rocops.ErrOneClass, "one class: error %v, want ErrOneClass", err)
	scores, _ := nn.Scores(m, x, len(labels))
	_, err = classCmp(3, metrics.OvR).Project(scores, labels, scores[1:], cfg)
	require.ErrorIs(t, err, rocops.ErrLength, "short tangents: error %v, want ErrLength", err)
	bad := append([]float64(nil), scores...)
	bad[4] = math.NaN()
	_, err = classCmp(3, metrics.OvO).Project(scores, labels, bad, cfg)
	require.ErrorIs(t, err, rocops.ErrNonFinite, "NaN tangent: error %v, want ErrNonFinite", err)
}
