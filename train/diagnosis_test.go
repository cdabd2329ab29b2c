package train

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
)

// TestDiagnoseHistory checks which epochs are diagnosed and that every record is consistent:
// the CE bound above the severe mass, shares in [0, 1], finite values when severe pairs
// exist, and the same History from the same seeds.
func TestDiagnoseHistory(t *testing.T) {
	ds := blobs(t, 600, 4, 0.2, 1, 3)
	run := func() *History {
		h, err := fitWarm(t, mlp(t, 4, 5), Config{
			Loss:   Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
			Epochs: 4, BatchSize: 64,
			Diagnose: &Diagnose{Every: 2, Selection: 128, Pool: 256},
		}, 1, ds, nil)
		require.NoError(t, err)
		return h
	}
	h := run()
	var epochs []int
	for _, d := range h.Diagnoses {
		epochs = append(epochs, d.Epoch)
		assert.False(t, !(d.SevereMass <= d.CEBound) || !(d.Misranking >= d.SevereMass), "epoch %d: misranking %v, severe mass %v, CE bound %v out of order", d.Epoch, d.Misranking, d.SevereMass, d.CEBound)
		if d.SeverePairs > 0 {
			for name, v := range map[string]float64{"drift": d.Drift, "VarPos": d.VarPos, "VarNeg": d.VarNeg, "VarResidual": d.VarResidual} {
				assert.False(t, math.IsNaN(v) || math.IsInf(v, 0), "epoch %d: %s = %v", d.Epoch, name, v)
			}
			assert.True(t, (d.FirstOrderShare >= 0 && d.FirstOrderShare <= 1), "epoch %d: first-order share %v", d.Epoch, d.FirstOrderShare)
		}
		assert.False(t, d.Decision != Observed || d.Reason != "no Intervene rule", "epoch %d: decision %v (%q) without Intervene", d.Epoch, d.Decision, d.Reason)
		if want := h.Epochs[d.Epoch-1].Stage; d.Stage != want {
			assert.Fail(t, fmt.Sprintf("epoch %d: stage %v, the epoch's is %v", d.Epoch, d.Stage, want))
		}
	}
	assert.Equal(t, "[2 4 5]", fmt.Sprint(epochs), "diagnosed epochs %v, want [2 4 5] (every 2nd and the last)", epochs)
	if again := run(); fmt.Sprintf("%+v", again.Diagnoses) != fmt.Sprintf("%+v", h.Diagnoses) {
		assert.Fail(t, "the same seeds gave different diagnoses")
	}
}

// TestDecide runs the intervention rule on hand-made diagnosis sequences.
func TestDecide(t *testing.T) {
	iv := &Intervene{Weak: 0.5, Improve: 0.02, Epochs: 2, Max: 1}
	// FirstOrderVar is VarPos/4 + VarNeg/4, at batches of 4 positives and 4 negatives.
	base := Diagnosis{Stage: Main, Misranking: 0.3, SevereMass: 0.1, Drift: 1, VarPos: 4, VarNeg: 4, FirstOrderVar: 2, SeverePairs: 10}
	with := func(f func(*Diagnosis)) Diagnosis {
		d := base
		f(&d)
		d.FirstOrderVar = d.VarPos/4 + d.VarNeg/4
		return d
	}
	for _, tc := range []struct {
		name    string
		earlier []Diagnosis
		d       Diagnosis
		done    int
		want    Decision
		reason  string
	}{
		{"first", nil, base, 0, Observed, "first diagnosis"},
		{"no severe pair", []Diagnosis{base}, with(func(d *Diagnosis) { d.SeverePairs = 0 }), 0, Continued, "no severe pair"},
		{"severe mass falls", []Diagnosis{base}, with(func(d *Diagnosis) { d.SevereMass = 0.09; d.Drift = 0.1; d.VarPos, d.VarNeg = 0, 0 }), 0, Continued, "severe mass fell"},
		{"misranking falls", []Diagnosis{base}, with(func(d *Diagnosis) { d.Misranking = 0.29; d.Drift = 0.1; d.VarPos, d.VarNeg = 0, 0 }), 0, Continued, "misranking fell"},
		{"drift rises", []Diagnosis{base}, with(func(d *Diagnosis) { d.Drift = 1.1 }), 0, Continued, "drift rose"},
		{"weak", []Diagnosis{base}, with(func(d *Diagnosis) { d.Drift = 0.4; d.VarPos, d.VarNeg = 1, 1 }), 0, Intervened, "weak"},
		{"weak drift, strong noise", []Diagnosis{base}, with(func(d *Diagnosis) { d.Drift = 0.4 }), 0, Continued, "not weak"},
		{"limit", []Diagnosis{base}, with(func(d *Diagnosis) { d.Drift = 0.4; d.VarPos, d.VarNeg = 1, 1 }), 1, Continued, "1 interventions done"},
		// The best of all earlier diagnoses sets the scale, not the latest one.
		{"weak against the best", []Diagnosis{with(func(d *Diagnosis) { d.Drift = 3 }), base},
			with(func(d *Diagnosis) { d.Drift = 0.9; d.VarPos, d.VarNeg = 1, 1 }), 0, Intervened, "best 3"},
		// Warm-up diagnoses are no reference.
		{"warm-up ignored", []Diagnosis{with(func(d *Diagnosis) { d.Stage = Warmup; d.Drift = 100 })}, base, 0, Observed, "first diagnosis"},
	} {
		d := &diagnoser{cfg: Diagnose{Intervene: iv}, bPos: 4, bNeg: 4, done: tc.done}
		dg := tc.d
		extra := d.decide(&dg, tc.earlier)
		assert.False(t, dg.Decision != tc.want || !strings.Contains(dg.Reason, tc.reason), "%s: %v (%q), want %v (%q)", tc.name, dg.Decision, dg.Reason, tc.want, tc.reason)
		assert.False(t, (extra == 2) != (tc.want == Intervened) || d.pending != extra, "%s: %d intervention epochs scheduled, %d pending", tc.name, extra, d.pending)
	}
}

// TestInterventionProtocol runs the protocol end to end on linear hinge runs that plateau
// with label noise (a teacher task with 30% of the positives swapped), over four seeds. It
// checks the mechanics wherever the rule intervenes: the next Intervene.Epochs epochs train
// cross-entropy (Stage Intervention), the last of them is rechecked, the main loss resumes,
// no more than Max interventions happen, and Config.Epochs main epochs are all run. The
// rule must fire at least once over the four runs (it does on plateaus where the drift has
// turned negative, see docs/results.md).
func TestInterventionProtocol(t *testing.T) {
	iv := Intervene{Epochs: 2, Max: 2}
	fired := 0
	for seed := uint64(1); seed <= 4; seed++ {
		ds, err := data.Teacher(data.TeacherConfig{Rows: 1500, Cols: 6, Noise: 0.3, Seed: seed})
		require.NoError(t, err)
		m, err := nn.NewMLP(nn.MLPConfig{In: ds.Cols, Seed: seed})
		require.NoError(t, err)
		const epochs = 25
		h, err := fit(t, m, Config{Loss: Pairwise{Config: pairwise.Config{Surrogate: pairwise.Hinge}},
			Epochs: epochs, BatchSize: 128, Seed: seed, LearningRate: 0.05,
			Diagnose: &Diagnose{Intervene: &iv}}, ds, nil)
		require.NoError(t, err)
		phases := map[Stage]int{}
		for _, e := range h.Epochs {
			phases[e.Stage]++
		}
		byEpoch := map[int]Diagnosis{}
		for _, d := range h.Diagnoses {
			byEpoch[d.Epoch] = d
		}
		n := 0
		for _, d := range h.Diagnoses {
			assert.False(t, d.Reason == "", "seed %d epoch %d: decision %v without a reason", seed, d.Epoch, d.Decision)
			if d.Decision != Intervened {
				continue
			}
			n++
			for k := 1; k <= iv.Epochs; k++ {
				if e := d.Epoch + k; e > len(h.Epochs) || h.Epochs[e-1].Stage != Intervention {
					assert.Fail(t, fmt.Sprintf("seed %d: epoch %d after the intervention at %d is not an intervention epoch", seed, e, d.Epoch))
				}
			}
			if r, ok := byEpoch[d.Epoch+iv.Epochs]; !ok || r.Decision != Rechecked {
				assert.Fail(t, fmt.Sprintf("seed %d: epoch %d not rechecked (%v, diagnosed: %v)", seed, d.Epoch+iv.Epochs, r.Decision, ok))
			}
		}
		for _, d := range h.Diagnoses {
			assert.False(t, d.Decision == Rechecked && (h.Epochs[d.Epoch-1].Stage != Intervention || byEpoch[d.Epoch-iv.Epochs].Decision != Intervened), "seed %d: recheck at epoch %d follows no intervention", seed, d.Epoch)
		}
		assert.False(t, n > iv.Max || phases[Main] != epochs || phases[Intervention] != n*iv.Epochs, "seed %d: %d interventions (max %d), %d main and %d intervention epochs", seed, n, iv.Max, phases[Main], phases[Intervention])
		fired += n
	}
	assert.False(t, fired == 0, "the rule never intervened in four plateauing hinge runs")
}

func TestDiagnoseConfigErrors(t *testing.T) {
	m := mlp(t, 2, 1)
	for _, d := range []Diagnose{
		{Every: -1}, {Pool: maxPool + 1}, {Severity: math.NaN()}, {Severity: -1},
		{Surrogate: pairwise.Config{Surrogate: 7}},
		{Intervene: &Intervene{Weak: 1}}, {Intervene: &Intervene{Epochs: -1}},
	} {
		if _, err := New(m, Config{Diagnose: &d}); !errors.Is(err, rocops.ErrConfig) {
			assert.Fail(t, fmt.Sprintf("%+v: error %v, want rocops.ErrConfig", d, err))
		}
	}
	// Too few positives for two disjoint stratified sets.
	ds := blobs(t, 50, 2, 0, 1, 1)
	if _, err := fit(t, m, Config{Epochs: 1, BatchSize: 10, Diagnose: &Diagnose{}}, ds, nil); err == nil || !strings.Contains(err.Error(), "2 positives") {
		assert.Fail(t, fmt.Sprintf("one positive: error %v", err))
	}
}

// TestDiagnosticSets: the sets are disjoint, stratified like the training data, of the
// configured sizes, and the same for the same seed.
func TestDiagnosticSets(t *testing.T) {
	ds := blobs(t, 2000, 3, 0.1, 1, 4)
	d := Diagnose{Selection: 200, Pool: 500, Seed: 9}
	sel, pool, err := DiagnosticSets(ds, d)
	require.NoError(t, err)
	assert.False(t, sel.Rows != 200 || pool.Rows != 500, "sizes %d, %d, want 200, 500", sel.Rows, pool.Rows)
	share := float64(ds.Positives()) / float64(ds.Rows)
	for _, s := range []*data.Dataset{sel, pool} {
		if got := float64(s.Positives()) / float64(s.Rows); math.Abs(got-share) > 1/float64(s.Rows) {
			assert.Fail(t, fmt.Sprintf("positive share %v, the data's %v", got, share))
		}
	}
	rows := map[string]bool{}
	for _, s := range []*data.Dataset{sel, pool} {
		for i := range s.Rows {
			k := fmt.Sprint(s.Row(i))
			require.False(t, rows[k], "row %v is in both sets", s.Row(i))
			rows[k] = true
		}
	}
	again, _, _ := DiagnosticSets(ds, d)
	assert.Equal(t, fmt.Sprint(sel.X), fmt.Sprint(again.X), "the same seed drew another selection batch")
	if _, _, err := DiagnosticSets(ds, Diagnose{Pool: -1}); !errors.Is(err, rocops.ErrConfig) {
		assert.Fail(t, fmt.Sprintf("bad config: error %v, want rocops.ErrConfig", err))
	}
}

// With exactly two rows of a class each set gets one of them; with one, the documented error.
// Before, the selection batch kept one and the pool got none (the first set left one behind,
// the second left one more), so Fit's first diagnosis failed and every run stopped at epoch 1.
func TestDiagnosticSetsSmallClass(t *testing.T) {
	for _, c := range []struct {
		name string
		pos  int // positives among 40 rows
	}{{"two positives", 2}, {"two negatives", 38}} {
		t.Run(c.name, func(t *testing.T) {
			ds := blobs(t, 40, 2, 0, 2, 3)
			for i := range ds.Y {
				ds.Y[i] = 0
				if i < c.pos {
					ds.Y[i] = 1
				}
			}
			sel, pool, err := DiagnosticSets(ds, Diagnose{Selection: 10, Pool: 20})
			require.NoError(t, err)
			for _, s := range []*data.Dataset{sel, pool} {
				require.Positive(t, s.Positives(), "a set without positives")
				require.Positive(t, s.Rows-s.Positives(), "a set without negatives")
			}
			hist, err := fit(t, mlp(t, 2, 1), Config{Epochs: 3, BatchSize: 8, Diagnose: &Diagnose{Selection: 10, Pool: 20}}, ds, ds)
			require.NoError(t, err)
			require.Len(t, hist.Epochs, 3)
			require.Len(t, hist.Diagnoses, 3)
		})
	}
	ds := blobs(t, 40, 2, 0, 2, 3)
	for i := range ds.Y {
		ds.Y[i] = 0
	}
	ds.Y[0] = 1
	_, _, err := DiagnosticSets(ds, Diagnose{})
	require.ErrorContains(t, err, "at least 2 positives and 2 negatives")
}
