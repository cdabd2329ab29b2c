package diagnose_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// labelScores returns n row-major k-label scores on a grid of step ¼ (many ties) and an
// indicator whose column c is 1 where column c's score plus noise is positive; rows 0 and 1
// hold every label's 1 and 0, so no column has one class.
func labelScores(seed uint64, n, k int) (scores, labels []float64) {
	rng := rand.New(rand.NewPCG(seed, 10))
	scores, labels = make([]float64, n*k), make([]float64, n*k)
	for i := range n {
		for c := range k {
			s := math.Round(4*rng.NormFloat64()) / 4
			scores[i*k+c] = s
			if s+rng.NormFloat64() > 0 {
				labels[i*k+c] = 1
			}
		}
	}
	for c := range k {
		labels[c], labels[k+c] = 1, 0
	}
	return scores, labels
}

// column returns column c of row-major n×k values.
func column(v []float64, k, c int) []float64 {
	out := make([]float64, len(v)/k)
	for i := range out {
		out[i] = v[i*k+c]
	}
	return out
}

// TestMultilabelDiagnosticsAgainstBinary: every multi-label diagnostic is the binary one on
// each label column, extracted here, and the macro value their mean; the macro misranking is
// 1 − the macro label-wise AUC (metrics.MultilabelAUC); k = 1, 3, 5 on tied scores.
func TestMultilabelDiagnosticsAgainstBinary(t *testing.T) {
	const m = 1.0
	sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	edges := []float64{math.Inf(-1), -3, -1, 0, 1, math.Inf(1)}
	for _, k := range []int{1, 3, 5} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			scores, labels := labelScores(uint64(k), 90, k)
			for _, c := range []struct {
				name  string
				multi func() ([]float64, float64, error)
				d     func(f, y []float64) (float64, error)
			}{
				{"Misranking", func() ([]float64, float64, error) { return labelCmp(k).Misranking(scores, labels) }, binMisranking},
				{"SevereMass", func() ([]float64, float64, error) { return labelCmp(k).SevereMass(scores, labels, m) },
					func(f, y []float64) (float64, error) { return binSevereMass(f, y, m) }},
				{"CEBound", func() ([]float64, float64, error) { return labelCmp(k).CEBound(scores, labels, m) },
					func(f, y []float64) (float64, error) { return binCEBound(f, y, m) }},
			} {
				per, macro, err := c.multi()
				require.NoError(t, err)
				var mean float64
				for col := range k {
					want, err := c.d(column(scores, k, col), column(labels, k, col))
					require.NoError(t, err)
					near(t, fmt.Sprintf("%s column %d", c.name, col), per[col], want, meanTol)
					mean += want / float64(k)
				}
				near(t, c.name+" macro", macro, mean, meanTol)
			}
			_, macro, err := labelCmp(k).Misranking(scores, labels)
			require.NoError(t, err)
			auc, err := metrics.TaskAUC(scores, labels, labelTask(k), metrics.OvR, metrics.Macro)
			require.NoError(t, err)
			near(t, "macro misranking", macro, 1-auc, aucTol)
			per, _, err := labelCmp(k).WeightShares(scores, labels, sq, edges)
			require.NoError(t, err)
			for col := range k {
				want, err := binWeightShares(column(scores, k, col), column(labels, k, col), sq, edges)
				require.NoError(t, err)
				for e := range want {
					nearOrNaN(t, fmt.Sprintf("WeightShares column %d interval %d", col, e), per[col][e], want[e])
				}
			}
		})
	}
}

// labelSetup returns a tanh MLP of 3 outputs at its random initialisation and 45 rows of 4
// features whose label c is 1 where feature c is positive (rows 0 and 1 forced to all 1 and
// all 0).
func labelSetup(t *testing.T) (nn.Model, []float64, []float64) {
	t.Helper()
	const rows, in, k = 45, 4, 3
	x := testbatch.Normal(6, 4, rows, in)
	labels := make([]float64, rows*k)
	for r := range rows {
		for c := range k {
			if x[r*in+c] > 0 || r == 0 {
				labels[r*k+c] = 1
			}
			if r == 1 {
				labels[r*k+c] = 0
			}
		}
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{6}, Activation: nn.Tanh, Outputs: k, Seed: 3})
	require.NoError(t, err)
	return m, x, labels
}

// TestMultilabelSevereDirectionDescends: as TestMulticlassSevereDirectionDescends, over the
// label columns: moving along V lowers the mean of the columns' severe-pair losses at the rate
// Norm (central differences, ε = 1e-4, tolerance 1e-6).
func TestMultilabelSevereDirectionDescends(t *testing.T) {
	const k, sev, eps = 3, 0.1, 1e-4
	m, x, labels := labelSetup(t)
	rows := len(labels) / k
	s0, err := nn.Scores(m, x, rows)
	require.NoError(t, err)
	for _, s := range pairwise.Surrogates() {
		cfg := pairwise.Config{Surrogate: s}
		d, err := labelCmp(k).SevereDirection(m, x, labels, cfg, sev)
		require.NoError(t, err)
		loss := func(eps float64) float64 {
			f := moved(t, m, x, rows, d.V, eps)
			l, pairs := meanSevereLoss(t, k, func(c int) (fc, f0, y []float64) {
				return column(f, k, c), column(s0, k, c), column(labels, k, c)
			}, cfg, sev)
			require.Equal(t, d.Severe, pairs, "%v: the columns hold %d severe pairs, Severe = %d", s, pairs, d.Severe)
			return l
		}
		rate := (loss(eps) - loss(-eps)) / (2 * eps)
		near(t, s.String()+" directional derivative", rate, -d.Norm, 1e-6)
	}
}

// TestMultilabelProject: each column's Split is binProject on that column of the scores,
// labels and tangents, and the mean of their means is −⟨∇L, p⟩ for the multi-label pairwise
// loss L of package pairwise on a Labels task (all pairs).
func TestMultilabelProject(t *testing.T) {
	const k = 3
	m, x, labels := labelSetup(t)
	rows := len(labels) / k
	n, err := nn.NumParams(m)
	require.NoError(t, err)
	scores, err := nn.Scores(m, x, rows)
	require.NoError(t, err)
	p, err := diagnose.ScoreTangents(m, x, rows, unit(9, n))
	require.NoError(t, err)
	cfg := pairwise.Config{Surrogate: pairwise.Logistic}
	splits, err := labelCmp(k).Project(scores, labels, p, cfg)
	require.NoError(t, err)
	require.Equal(t, k, len(splits), "%d splits for %d labels", len(splits), k)
	var mean float64
	for c, s := range splits {
		require.Equal(t, c, s.Class, "split %d is of %v", c, s.Comparison)
		require.Equal(t, -1, s.Other, "split %d is of %v", c, s.Comparison)
		require.Equal(t, fmt.Sprintf("label column %d", c), s.String(), "split %d is of %v", c, s.Comparison)
		ref, err := binProject(column(scores, k, c), column(labels, k, c), column(p, k, c), cfg)
		require.NoError(t, err)
		require.False(t, s.Split != ref, "column %d: %+v, Project gives %+v", c, s.Split, ref)
		mean += s.Mean / k
	}
	task := cfg
	task.Task = rocops.Labels(k)
	g, _, err := pairwise.Gradient(scores, labels, task)
	require.NoError(t, err)
	var dir float64
	for i := range g {
		dir += g[i] * p[i]
	}
	near(t, "mean drift", mean, -dir, 1e-12*math.Max(1, math.Abs(dir)))
}

func TestMultilabelDiagnosticsErrors(t *testing.T) {
	scores, labels := labelScores(1, 20, 3)
	one := append([]float64(nil), labels...)
	for i := 0; i < len(one); i += 3 {
		one[i+1] = 1 // column 1 all 1
	}
	_, _, err := labelCmp(3).Misranking(scores, one)
	require.ErrorIs(t, err, rocops.ErrNoNegatives, "a column of ones: error %v, want ErrNoNegatives", err)
	bad := append([]float64(nil), labels...)
	bad[4] = 2
	_, _, err = labelCmp(3).CEBound(scores, bad, 1)
	require.ErrorIs(t, err, rocops.ErrLabel, "label 2: error %v, want ErrLabel", err)
	_, _, err = labelCmp(3).SevereMass(scores, labels[1:], 1)
	require.ErrorIs(t, err, rocops.ErrLength, "short labels: error %v, want ErrLength", err)
	_, _, err = labelCmp(3).SevereMass(scores, labels, 0)
	require.ErrorIs(t, err, rocops.ErrConfig, "M = 0: error %v, want rocops.ErrConfig", err)
	m, x, ml := labelSetup(t)
	// k is the task's: Labels(0) is no task.
	_, err = (diagnose.Comparisons{Task: rocops.Labels(0)}).SevereDirection(m, x, ml, pairwise.Config{}, 1)
	require.ErrorIs(t, err, rocops.ErrConfig, "k = 0: error %v, want rocops.ErrConfig", err)
	// Read as one or two columns, the labels of the rows of x are rows that x does not have.
	for _, k := range []int{1, 2} {
		_, err := labelCmp(k).SevereDirection(m, x, ml, pairwise.Config{}, 1)
		require.ErrorIs(t, err, nn.ErrInput, "k = %d for labels of 3 columns: error %v, want nn.ErrInput", k, err)
	}
	_, err = labelCmp(3).SevereDirection(m, x, ml, pairwise.Config{}, 1e6)
	require.ErrorIs(t, err, diagnose.ErrNoSevere, "huge M: error %v, want ErrNoSevere", err)
	_, err = labelCmp(3).Project(scores, labels, scores[1:], pairwise.Config{})
	require.ErrorIs(t, err, rocops.ErrLength, "short tangents: error %v, want ErrLength", err)
}

// FuzzMultilabelDiagnostics: on any k-label input decoded from bytes (scores on a coarse grid,
// labels from the low bit, k = 1…3), the multi-label diagnostics return an error of the shared
// vocabulary or values with macro misranking 1 − the macro label-wise AUC, the bound above the
// severe mass, the mean projected drift −⟨∇L, p⟩, and a unit severe direction or ErrNoSevere;
// nothing panics.
func FuzzMultilabelDiagnostics(f *testing.F) {
	f.Add([]byte{1, 0x11, 0x20, 0x31, 0x40, 0x51, 0x60})
	f.Add([]byte{0, 0x11, 0x20, 0x31, 0x40, 0x50, 0x61, 0x70, 0x81})
	f.Add([]byte{2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		k := 1 + int(data[0]%3)
		data = data[1:]
		n := len(data) / k
		scores, labels := make([]float64, n*k), make([]float64, n*k)
		for i := range scores {
			scores[i], labels[i] = float64(data[i]>>4)-8, float64(data[i]&1)
		}
		_, macro, err := labelCmp(k).Misranking(scores, labels)
		if err != nil {
			require.False(t, !errors.Is(err, rocops.ErrEmpty) && !errors.Is(err, rocops.ErrOneClass) && !errors.Is(err, rocops.ErrLength), "unexpected error %v", err)
			return
		}
		auc, err := metrics.TaskAUC(scores, labels, labelTask(k), metrics.OvR, metrics.Macro)
		require.NoError(t, err)
		near(t, "macro misranking", macro, 1-auc, aucTol)
		sev, _, err := labelCmp(k).SevereMass(scores, labels, 1)
		require.NoError(t, err)
		bound, _, err := labelCmp(k).CEBound(scores, labels, 1)
		require.NoError(t, err)
		for c := range k {
			require.GreaterOrEqual(t, sev[c], 0.0, "column %d: severe mass %v, bound %v", c, sev[c], bound[c])
			require.LessOrEqual(t, sev[c], bound[c], "column %d: severe mass %v, bound %v", c, sev[c], bound[c])
		}
		sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
		p := make([]float64, len(scores))
		for i := range p {
			p[i] = scores[len(scores)-1-i]
		}
		splits, err := labelCmp(k).Project(scores, labels, p, sq)
		require.NoError(t, err)
		task := sq
		if k > 1 { // one label column is the binary task
			task.Task = rocops.Labels(k)
		}
		g, _, err := pairwise.Gradient(scores, labels, task)
		require.NoError(t, err)
		var drift, dir float64
		for _, s := range splits {
			drift += s.Mean / float64(k)
		}
		for i := range g {
			dir += g[i] * p[i]
		}
		near(t, "mean drift", drift, -dir, 1e-9)
		lin, err := nn.NewMLP(nn.MLPConfig{In: k, Outputs: k, Seed: uint64(k)})
		require.NoError(t, err)
		d, err := labelCmp(k).SevereDirection(lin, scores, labels, sq, 1)
		switch {
		case errors.Is(err, diagnose.ErrNoSevere):
		case err != nil:
			require.NoError(t, err)
		default:
			var n2 float64
			for _, v := range d.V {
				n2 += v * v
			}
			require.GreaterOrEqual(t, d.Severe, 1, "direction of %d severe pairs, ‖V‖² = %v", d.Severe, n2)
			require.InDelta(t, 1, n2, 1e-12, "direction of %d severe pairs, ‖V‖² = %v", d.Severe, n2)
		}
	})
}
