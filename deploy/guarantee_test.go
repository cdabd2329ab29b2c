package deploy

import (
	"encoding/json"
	"maps"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// sidecarKeys returns the top-level keys of the sidecar at path, sorted.
func sidecarKeys(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &obj))
	return slices.Sorted(maps.Keys(obj))
}

// An operating point chosen with a confidence is saved as version 4, the keys of version 2
// (binary) or 3 (classes) and the guarantee's two, and loads back as it was saved, with the
// same model file; without a confidence the sidecar is version 2 or 3, without those keys.
func TestGuaranteeRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name       string
		f          fixture
		confidence float64
		recall     float64
		plain      int // the version without a confidence
	}{
		{"binary", newFixture(t, 3), 0.95, 0, versionBinary},
		{"binary recall", newFixture(t, 3), 0.9, 0.8, versionBinary},
		{"multi-class", newClassFixture(t, 3, false, true), 0.95, 0, versionClasses},
		{"multi-label", newClassFixture(t, 3, true, false), 0.99, 0, versionClasses},
	} {
		plainDir, dir := t.TempDir(), t.TempDir()
		plainPath := c.f.save(t, plainDir, "run")
		f := c.f
		f.op.Confidence, f.op.Recall = c.confidence, c.recall
		path := f.save(t, dir, "run")
		require.Equal(t, plainPath[len(plainDir):], path[len(dir):], "%s: the same model file", c.name)

		s, err := Load(path)
		require.NoError(t, err, c.name)
		require.Equal(t, versionGroups, s.Version(), c.name)
		require.Equal(t, f.op, s.OperatingPoint(), c.name)
		s.Close()
		plain, err := Load(plainPath)
		require.NoError(t, err, c.name)
		require.Equal(t, c.plain, plain.Version(), c.name)
		require.Equal(t, c.f.op, plain.OperatingPoint(), c.name)
		require.Zero(t, plain.OperatingPoint().Confidence, c.name)
		plain.Close()

		keys, plainKeys := sidecarKeys(t, sidecarOf(dir, "run")), sidecarKeys(t, sidecarOf(plainDir, "run"))
		require.NotContains(t, plainKeys, "deployed_confidence", c.name)
		want := slices.Sorted(slices.Values(append(plainKeys, "deployed_confidence", "deployed_recall")))
		require.Equal(t, want, keys, c.name)
		b, err := os.ReadFile(sidecarOf(dir, "run"))
		require.NoError(t, err)
		var obj map[string]any
		require.NoError(t, json.Unmarshal(b, &obj))
		require.Equal(t, c.confidence, obj["deployed_confidence"], c.name)
		require.Equal(t, c.recall, obj["deployed_recall"], c.name)
	}
}

// A confidence or recall out of range, or a recall without a confidence, is refused by Save,
// which writes nothing; edits of a version-4 sidecar are named errors.
func TestGuaranteeRefused(t *testing.T) {
	for _, bad := range []struct{ confidence, recall float64 }{
		{1, 0}, {-0.1, 0}, {math.NaN(), 0}, {0, 0.9}, {0.95, 1.5}, {0.95, -0.2}, {0.95, math.NaN()},
	} {
		dir := t.TempDir()
		f := newFixture(t, 1)
		f.op.Confidence, f.op.Recall = bad.confidence, bad.recall
		_, err := Save(dir, "ce", f.m, f.op, f.st, f.features)
		require.ErrorIs(t, err, ErrSidecar, "%+v", bad)
		require.ErrorContains(t, err, "deployed_", "%+v", bad)
		require.Empty(t, files(t, dir), "%+v", bad)
	}

	set := func(key string, v any) func(map[string]any) bool {
		return func(o map[string]any) bool { o[key] = v; return true }
	}
	for _, c := range []struct {
		name    string
		classes bool
		edit    func(map[string]any) bool
		err     error
		msg     string
	}{
		{"missing recall", false, func(o map[string]any) bool { delete(o, "deployed_recall"); return true }, ErrSidecar, `"deployed_recall" missing`},
		{"missing confidence", true, func(o map[string]any) bool { delete(o, "deployed_confidence"); return true }, ErrSidecar, `"deployed_confidence" missing`},
		{"confidence 0", false, set("deployed_confidence", 0), ErrSidecar, "deployed_confidence 0"},
		{"confidence 1", true, set("deployed_confidence", 1), ErrSidecar, "deployed_confidence 1"},
		{"recall 1", false, set("deployed_recall", 1), ErrSidecar, "deployed_recall 1"},
		{"version 2 with the group", false, set("version", 2), ErrSidecar, `unknown key "deployed_`},
		{"version 3 with the group", true, set("version", 3), ErrSidecar, `unknown key "deployed_`},
		{"edited without checksum", false, func(o map[string]any) bool { o["deployed_confidence"] = 0.5; return false }, ErrSidecar, "checksum"},
	} {
		dir := t.TempDir()
		f := newFixture(t, 1)
		if c.classes {
			f = newClassFixture(t, 1, false, false)
		}
		f.op.Confidence = 0.95
		f.save(t, dir, "ce")
		editSidecar(t, sidecarOf(dir, "ce"), c.edit)
		_, err := Load(sidecarOf(dir, "ce"))
		require.ErrorIs(t, err, c.err, c.name)
		require.ErrorContains(t, err, c.msg, c.name)
	}
}
