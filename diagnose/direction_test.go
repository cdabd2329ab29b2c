package diagnose_test

import (
	"math"
	"testing"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// opaque hides a model's nn.Directional method, so that ScoreTangents falls back to central
// differences.
type opaque struct{ nn.Model }

func unit(seed uint64, n int) []float64 {
	v := testbatch.Normal(seed, 4, n, 1)
	var s float64
	for _, e := range v {
		s += e * e
	}
	for i := range v {
		v[i] /= math.Sqrt(s)
	}
	return v
}

// TestScoreTangentsForwardVsCentral checks the exact forward mode of nn.MLP (linear or not)
// against central differences. Tolerances: for float64 the central difference's error is
// O(ε²·f‴) with ε ≈ 6e-6·‖θ‖, below 1e-7 here; for float32 the scores round to about 1e-7
// relative, divided by 2ε ≈ 1e-2, so 1e-3 of the tangents' scale.
func TestScoreTangentsForwardVsCentral(t *testing.T) {
	const rows, in = 40, 5
	x := testbatch.Normal(1, 4, rows, in)
	for _, tc := range []struct {
		name string
		dt   tensor.Dtype
		tol  float64
		act  nn.Activation
	}{
		{"tanh float64", tensor.Float64, 1e-7, nn.Tanh},
		{"relu float64", tensor.Float64, 1e-7, nn.ReLU},
		{"tanh float32", tensor.Float32, 1e-3, nn.Tanh},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mlp, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{8, 6}, Activation: tc.act, Seed: 3, Dtype: tc.dt})
			require.NoError(t, err)
			lin, err := nn.NewMLP(nn.MLPConfig{In: in, Seed: 4, Dtype: tc.dt})
			require.NoError(t, err)
			for _, m := range []nn.Model{mlp, lin} {
				n, err := nn.NumParams(m)
				require.NoError(t, err)
				v := unit(5, n)
				exact, err := diagnose.ScoreTangents(m, x, rows, v)
				require.NoError(t, err)
				before, _ := nn.Snapshot(m)
				central, err := diagnose.ScoreTangents(opaque{m}, x, rows, v)
				require.NoError(t, err)
				after, _ := nn.Snapshot(m)
				for i := range before {
					require.True(t, equalDense(before[i].Value, after[i].Value), "central differences left parameter %s changed", before[i].Name)
				}
				scale := 0.0
				for _, e := range exact {
					scale = math.Max(scale, math.Abs(e))
				}
				for r := range exact {
					d := math.Abs(exact[r] - central[r])
					require.LessOrEqual(t, d, tc.tol*math.Max(1, scale), "%T row %d: forward %v, central %v", m, r, exact[r], central[r])
				}
			}
		})
	}
}

func equalDense(a, b *tensor.Dense) bool {
	switch x := a.Data().(type) {
	case []float64:
		y := b.Data().([]float64)
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
	case []float32:
		y := b.Data().([]float32)
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
	}
	return true
}

// TestLinearTangentsExact: for s = x·w + b the tangent along (v_w, v_b) is x·v_w + v_b.
func TestLinearTangentsExact(t *testing.T) {
	const rows, in = 6, 3
	x := testbatch.Normal(2, 4, rows, in)
	lin, err := nn.NewMLP(nn.MLPConfig{In: in, Seed: 1})
	require.NoError(t, err)
	v := []float64{0.5, -1, 2, 0.25}
	got, err := diagnose.ScoreTangents(lin, x, rows, v)
	require.NoError(t, err)
	for r := range rows {
		want := x[r*in]*v[0] + x[r*in+1]*v[1] + x[r*in+2]*v[2] + v[3]
		near(t, "tangent", got[r], want, 1e-15)
	}
	_, err = diagnose.ScoreTangents(lin, x, rows, v[:3])
	require.ErrorIs(t, err, rocops.ErrLength, "short direction: error %v, want rocops.ErrLength", err)
	_, err = diagnose.ScoreTangents(lin, x, rows, []float64{0, math.NaN(), 0, 0})
	require.ErrorIs(t, err, rocops.ErrNonFinite, "NaN direction: error %v, want rocops.ErrNonFinite", err)
}

// severeSetup returns a model and a batch on which it ranks badly: the labels follow −x₁.
func severeSetup(t *testing.T, dt tensor.Dtype) (nn.Model, []float64, []float64) {
	t.Helper()
	const rows, in = 60, 4
	x := testbatch.Normal(7, 4, rows, in)
	labels := make([]float64, rows)
	for r := range labels {
		if x[r*in] < -0.3 {
			labels[r] = 1
		}
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{6}, Activation: nn.Tanh, Seed: 11, Dtype: dt})
	require.NoError(t, err)
	// Tilt the model towards +x₁, the wrong way, so that severe pairs exist.
	ps := m.Params()
	switch w := ps[0].Value.Data().(type) {
	case []float64:
		for c := range 6 {
			w[c] += 3 * float64(c%2*2-1)
		}
	case []float32:
		for c := range 6 {
			w[c] += 3 * float32(c%2*2-1)
		}
	}
	switch w := ps[2].Value.Data().(type) {
	case []float64:
		for c := range w {
			w[c] = float64(c%2*2 - 1)
		}
	case []float32:
		for c := range w {
			w[c] = float32(c%2*2 - 1)
		}
	}
	return m, x, labels
}

// TestSevereDirectionDescends checks by central differences that moving the parameters along
// V lowers the severe-pair loss (S fixed at the start) at the rate Norm: the directional
// derivative is −Norm. Tolerance: the five-point-free central difference with ε = 1e-4 has
// error O(ε²) ≈ 1e-8 relative for this smooth (tanh) model, so 1e-6.
func TestSevereDirectionDescends(t *testing.T) {
	m, x, labels := severeSetup(t, tensor.Float64)
	rows := len(labels)
	for _, s := range pairwise.Surrogates() {
		cfg := pairwise.Config{Surrogate: s}
		const sev = 0.5
		d, err := binSevereDirection(m, x, labels, cfg, sev)
		require.NoError(t, err)
		require.NotEqual(t, 0, d.Severe, "no severe pairs")
		var n2 float64
		for _, e := range d.V {
			n2 += e * e
		}
		near(t, "‖V‖", math.Sqrt(n2), 1, 1e-12)
		s0, err := nn.Scores(m, x, rows)
		require.NoError(t, err)
		loss := func(eps float64) float64 {
			saved, _ := nn.Snapshot(m)
			defer nn.Restore(m, saved)
			off := 0
			for _, p := range m.Params() {
				w := p.Value.Data().([]float64)
				for k := range w {
					w[k] += eps * d.V[off+k]
				}
				off += len(w)
			}
			f, err := nn.Scores(m, x, rows)
			require.NoError(t, err)
			l, n, err := diagnose.SevereLoss(f, s0, labels, cfg, sev)
			require.NoError(t, err)
			require.Equal(t, d.Severe, n, "SevereLoss counts %d pairs, SevereDirection %d", n, d.Severe)
			return l
		}
		const eps = 1e-4
		rate := (loss(eps) - loss(-eps)) / (2 * eps)
		near(t, s.String()+" directional derivative", rate, -d.Norm, 1e-6)
		require.Less(t, loss(1e-2), loss(0), "%v: a step of 0.01 along V does not lower the severe-pair loss", s)
	}
}

func TestSevereDirectionErrors(t *testing.T) {
	m, x, labels := severeSetup(t, tensor.Float64)
	cfg := pairwise.Config{}
	_, err := binSevereDirection(m, x, labels, cfg, 1e6)
	require.ErrorIs(t, err, diagnose.ErrNoSevere, "huge M: error %v, want ErrNoSevere", err)
	_, err = binSevereDirection(m, x, labels, cfg, -1)
	require.ErrorIs(t, err, rocops.ErrConfig, "negative M: error %v, want rocops.ErrConfig", err)
	zeros := make([]float64, len(labels))
	_, err = binSevereDirection(m, x, zeros, cfg, 1)
	require.ErrorIs(t, err, rocops.ErrNoPositives, "no positives: error %v, want ErrNoPositives", err)
	_, err = binSevereDirection(m, x[:10], labels, cfg, 1)
	require.ErrorIs(t, err, nn.ErrInput, "short x: error %v, want nn.ErrInput", err)
}

// TestSevereDirectionFloat32 checks that a float32 model gives the float64 model's direction
// to float32 accuracy.
func TestSevereDirectionFloat32(t *testing.T) {
	m64, x, labels := severeSetup(t, tensor.Float64)
	m32, _, _ := severeSetup(t, tensor.Float32)
	cfg := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	d64, err := binSevereDirection(m64, x, labels, cfg, 0.5)
	require.NoError(t, err)
	d32, err := binSevereDirection(m32, x, labels, cfg, 0.5)
	require.NoError(t, err)
	require.Equal(t, d64.Severe, d32.Severe, "severe pairs: float32 %d, float64 %d", d32.Severe, d64.Severe)
	for k := range d64.V {
		require.InDelta(t, d32.V[k], d64.V[k], 1e-4, "V[%d]: float64 %v, float32 %v", k, d64.V[k], d32.V[k])
	}
}

// TestSevereLossMatchesPairwise: when every pair is severe, L_M is the all-pairs loss of
// pairwise.Evaluate.
func TestSevereLossMatchesPairwise(t *testing.T) {
	scores := []float64{-3, -2.5, -4, 1, 0.5, 2, 1.5}
	labels := []float64{1, 1, 1, 0, 0, 0, 0}
	for _, s := range pairwise.Surrogates() {
		cfg := pairwise.Config{Surrogate: s, Margin: 0.5}
		got, n, err := diagnose.SevereLoss(scores, scores, labels, cfg, 1)
		require.NoError(t, err)
		want, err := pairwise.Evaluate(scores, labels, cfg)
		require.NoError(t, err)
		require.Equal(t, 12, n, "%v: %d severe pairs, want 12", s, n)
		near(t, s.String(), got, want, 1e-14)
	}
}
