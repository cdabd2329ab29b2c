package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops/nn"
)

// loraModel returns an MLP 3→4→5→1 with rank-2 LoRA adapters (α = 3, s = 1.5) on both hidden
// layers, whose adapter matrices B are drawn (not zero, as at the start), so that the adapters
// change the scores.
func loraModel(t *testing.T, dt tensor.Dtype) *nn.MLP {
	t.Helper()
	base, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4, 5}, Seed: 7, Dtype: dt})
	require.NoError(t, err)
	m, err := nn.Transfer(base, nn.TransferConfig{Body: 3, Rank: 2, Adapt: []int{0, 1}, Alpha: 3, Seed: 7})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range m.Params() {
		if !strings.HasSuffix(p.Name, ".lora_b") {
			continue
		}
		switch v := p.Value.Data().(type) {
		case []float64:
			for k := range v {
				v[k] = rng.NormFloat64()
			}
		case []float32:
			for k := range v {
				v[k] = float32(rng.NormFloat64())
			}
		}
	}
	return m
}

// A model with LoRA adapters deploys as the plain MLP of its merged weights, which scores as
// the adapted model does: to 1e-12 in float64, to float32 rounding in float32.
func TestSaveMergesLoRAAdapters(t *testing.T) {
	for _, tc := range []struct {
		dt  tensor.Dtype
		tol float64 // the largest |merged − adapted| score difference
	}{
		{tensor.Float64, 1e-12},
		{tensor.Float32, 1e-5}, // a few float32 ulps of scores of order 1
	} {
		t.Run(tc.dt.String(), func(t *testing.T) {
			m := loraModel(t, tc.dt)
			require.Contains(t, m.Architecture(), "lora=[0 1], rank=2, alpha=3")
			f := newFixture(t, 1)
			f.m = m
			dir := t.TempDir()
			path := f.save(t, dir, "lora")
			s, err := Load(path)
			require.NoError(t, err)
			defer s.Close()
			require.Equal(t, "MLP(in=3, hidden=[4 5], activation=relu)", s.Spec().Architecture)

			const n = 50
			x := rawRows(t, n)
			got, err := s.Score(x, n)
			require.NoError(t, err)
			z := make([]float64, len(x)) // standardised as Score does
			for i := range n {
				for j := range 3 {
					z[i*3+j] = (x[i*3+j] - f.st.Mean[j]) / f.st.Std[j]
				}
			}
			var want []float64
			if tc.dt == tensor.Float32 {
				z32 := make([]float32, len(z))
				for k, v := range z {
					z32[k] = float32(v)
				}
				want, err = nn.Scores(m, z32, n)
			} else {
				want, err = nn.Scores(m, z, n)
			}
			require.NoError(t, err)
			base, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4, 5}, Seed: 7, Dtype: tc.dt})
			require.NoError(t, err)
			plain, err := nn.Scores(base, z, n)
			require.NoError(t, err)
			moved := 0.0
			for i := range n {
				require.InDelta(t, want[i], got[i], tc.tol, "row %d", i)
				moved = max(moved, math.Abs(want[i]-plain[i]))
			}
			require.Greater(t, moved, 0.1, "the adapters must change the scores for the test to mean anything")
		})
	}
}

// The init model's SHA-256 is recorded in the run group when set, round-trips, keeps the bytes
// of a sidecar without it, and a damaged value is refused.
func TestInitSHA256(t *testing.T) {
	f := newFixture(t, 1)
	dir := t.TempDir()
	plain := f.save(t, dir, "plain")
	plainJSON, err := os.ReadFile(sidecarPath(plain))
	require.NoError(t, err)
	require.NotContains(t, string(plainJSON), "init_sha256")

	sum := sha256.Sum256([]byte("a model file"))
	f.op.Run.InitSHA256 = hex.EncodeToString(sum[:])
	path := f.save(t, dir, "init")
	s, err := Load(path)
	require.NoError(t, err)
	require.Equal(t, f.op.Run.InitSHA256, s.OperatingPoint().Run.InitSHA256)
	require.Equal(t, versionBinary, s.Version())
	s.Close()
	initJSON, err := os.ReadFile(sidecarPath(path))
	require.NoError(t, err)
	require.Contains(t, string(initJSON), `"init_sha256": "`+f.op.Run.InitSHA256+`"`)

	for _, tc := range []struct {
		name string
		edit func(run map[string]any)
		want string
	}{
		{"upper case", func(run map[string]any) { run["init_sha256"] = strings.ToUpper(f.op.Run.InitSHA256) }, "init_sha256"},
		{"short", func(run map[string]any) { run["init_sha256"] = f.op.Run.InitSHA256[:63] }, "init_sha256"},
		{"empty", func(run map[string]any) { run["init_sha256"] = "" }, "init_sha256"},
		{"a number", func(run map[string]any) { run["init_sha256"] = 12 }, "init_sha256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := t.TempDir()
			p := f.save(t, d, "init")
			editSidecar(t, sidecarPath(p), func(obj map[string]any) bool {
				tc.edit(obj["run"].(map[string]any))
				return true
			})
			_, err := Load(p)
			require.ErrorIs(t, err, ErrSidecar)
			require.ErrorContains(t, err, tc.want)
		})
	}
	t.Run("changed, checksum kept", func(t *testing.T) {
		d := t.TempDir()
		p := f.save(t, d, "init")
		b, err := os.ReadFile(sidecarPath(p))
		require.NoError(t, err)
		b = bytes.Replace(b, []byte(f.op.Run.InitSHA256[:8]), []byte("00000000"), 1)
		require.NoError(t, os.WriteFile(sidecarPath(p), b, 0o644))
		_, err = Load(p)
		require.ErrorIs(t, err, ErrSidecar)
		require.ErrorContains(t, err, "checksum")
	})
	t.Run("Save refuses a bad one", func(t *testing.T) {
		g := f
		g.op.Run.InitSHA256 = "abc"
		_, err := Save(t.TempDir(), "bad", g.m, g.op, g.st, g.features)
		require.ErrorIs(t, err, ErrSidecar)
		require.ErrorContains(t, err, "init_sha256")
	})
}
