package deploy

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// version4Fixtures are the operating points of the committed version-4 pairs (testdata/v4),
// by name: the guarantee of a binary model (with a recall) and of a multi-class one, both
// written when version 4 held the guarantee alone; the encoding, written when it held the
// encoding alone; both groups.
func version4Fixtures(t *testing.T) map[string]fixture {
	ce := newFixture(t, 11)
	ce.op.Threshold = 16.5
	ce.op.Confidence, ce.op.Recall = 0.9, 0.8
	mc := newClassFixture(t, 3, false, true)
	mc.op.Confidence = 0.95
	both := newEncodedFixture(t)
	both.op.Confidence = 0.95
	return map[string]fixture{"ce": ce, "mc": mc, "raw": newEncodedFixture(t), "both": both}
}

// Save writes today the bytes of every committed version-4 pair, and each loads back as the
// operating point it was saved from.
func TestVersion4PairsUnchanged(t *testing.T) {
	for name, f := range version4Fixtures(t) {
		dir := t.TempDir()
		path := f.save(t, dir, name)
		for _, file := range []string{name + ".json", filepath.Base(path)} {
			want, err := os.ReadFile(filepath.Join("testdata", "v4", file))
			require.NoError(t, err, file)
			got, err := os.ReadFile(filepath.Join(dir, file))
			require.NoError(t, err)
			require.Equal(t, string(want), string(got), file)
		}
		s, err := Load(filepath.Join("testdata", "v4", name+".params"))
		require.NoError(t, err, name)
		require.Equal(t, versionGroups, s.Version(), name)
		require.True(t, equalOp(f.op.clone(), s.OperatingPoint()), name)
		s.Close()
	}
}

// The two groups of version 4 are independent: a sidecar of both has the keys of each, and
// without either group it is the sidecar of the other, which loads; without both it is
// refused, as is either group in a sidecar of version 2 or 3.
func TestVersion4Groups(t *testing.T) {
	f := version4Fixtures(t)["both"]
	dir := t.TempDir()
	f.save(t, dir, "both")
	side := sidecarOf(dir, "both")
	keys := sidecarKeys(t, side)
	plain := f
	plain.op.Confidence, plain.op.Encoder = 0, nil
	plainDir := t.TempDir()
	plain.save(t, plainDir, "plain")
	want := slices.Sorted(slices.Values(append(sidecarKeys(t, sidecarOf(plainDir, "plain")),
		"deployed_confidence", "deployed_recall", "encoding")))
	require.Equal(t, want, keys)
	saved, err := os.ReadFile(side)
	require.NoError(t, err)
	restore := func() { require.NoError(t, os.WriteFile(side, saved, 0o644)) }

	guarantee := func(o map[string]any) { delete(o, "deployed_confidence"); delete(o, "deployed_recall") }
	encoding := func(o map[string]any) { delete(o, "encoding") }
	for _, c := range []struct {
		name       string
		edit       []func(map[string]any)
		confidence float64
		encoder    bool
		msg        string // the error's, when refused
	}{
		{"both", nil, 0.95, true, ""},
		{"guarantee only", []func(map[string]any){encoding}, 0.95, false, ""},
		{"encoding only", []func(map[string]any){guarantee}, 0, true, ""},
		{"neither", []func(map[string]any){guarantee, encoding}, 0, false, "version 4 with neither of its groups"},
		{"version 2 with the encoding", []func(map[string]any){guarantee, func(o map[string]any) { o["version"] = 2 }},
			0, false, `unknown key "encoding" in a version-2 sidecar`},
		{"version 2 with both", []func(map[string]any){func(o map[string]any) { o["version"] = 2 }},
			0, false, `unknown key "deployed_confidence" or "deployed_recall" in a version-2 sidecar`},
	} {
		restore()
		editSidecar(t, side, func(o map[string]any) bool {
			for _, e := range c.edit {
				e(o)
			}
			return true
		})
		s, err := Load(side)
		if c.msg != "" {
			require.ErrorIs(t, err, ErrSidecar, c.name)
			require.ErrorContains(t, err, c.msg, c.name)
			continue
		}
		require.NoError(t, err, c.name)
		require.Equal(t, versionGroups, s.Version(), c.name)
		op := s.OperatingPoint()
		require.Equal(t, c.confidence, op.Confidence, c.name)
		require.Equal(t, c.encoder, op.Encoder != nil, c.name)
		if c.encoder {
			require.Equal(t, f.op.Encoder.Columns, op.Encoder.Columns, c.name)
		}
		require.Equal(t, f.features, s.Features(), c.name)
		s.Close()
	}
}
