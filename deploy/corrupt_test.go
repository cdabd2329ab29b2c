package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/internal/frame"
	"github.com/rocops/rocops/nn"
)

// The committed version-1 pair, written by roctrain -out before this package, loads, and
// scoring the CSV it was trained on prints exactly what that roctrain's -predict printed
// (testdata/v1/ce.predict.csv).
func TestVersion1PairLoads(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "v1", "ce.params"))
	require.NoError(t, err)
	require.Equal(t, 1, s.Version())
	require.Equal(t, "MLP(in=3, hidden=[3], activation=relu)", s.Spec().Architecture)
	require.Equal(t, 3.153283815385531, s.OperatingPoint().Threshold) // "threshold" in testdata/v1/ce.json
	require.Equal(t, Run{Loss: "ce", Seed: 1, LearningRate: 0.01}, s.OperatingPoint().Run)
	in, err := os.ReadFile(filepath.Join("testdata", "rows.csv"))
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join("testdata", "v1", "ce.predict.csv"))
	require.NoError(t, err)
	var out bytes.Buffer
	rows, flagged, err := s.ScoreCSV(bytes.NewReader(in), &out)
	require.NoError(t, err)
	if nn.BLAS() == "gonum" { // the build the pair was written with: the same bits
		require.Equal(t, string(want), out.String())
	} else { // OpenBLAS sums the products in another order: the same to 1e-12 (docs/reference.md)
		requireSameScores(t, string(want), out.String(), s.OperatingPoint().Threshold, 1e-12)
	}
	require.Equal(t, 300, rows)
	if nn.BLAS() == "gonum" {
		require.Equal(t, 18, flagged) // "flagged 18 of 300 rows", as that roctrain reported
	} else {
		require.InDelta(t, 18, flagged, 1) // less the row at the threshold, if an ulp drops it
	}
}

// Every defect of a sidecar is a named error, not a model applied wrongly: each row edits a
// good version-2 sidecar (signing it again, so that the value check and not the checksum
// catches it, unless the row is about the checksum).
func TestCorruptSidecars(t *testing.T) {
	set := func(key string, v any) func(map[string]any) bool {
		return func(o map[string]any) bool { o[key] = v; return true }
	}
	cases := []struct {
		name string
		edit func(map[string]any) bool
		err  error
		msg  string
	}{
		{"negated std", set("std", []float64{-2, -0.5, -3}), ErrSidecar, "standard deviation"},
		{"zero std", set("std", []float64{2, 0, 3}), ErrSidecar, "standard deviation"},
		{"NaN-like mean", set("mean", []any{1, "NaN", 0.5}), ErrSidecar, "mean"},
		{"repeated features", set("features", []string{"a", "a", "a"}), ErrSidecar, "listed twice"},
		{"too few features", set("features", []string{"a", "b"}), ErrSidecar, "2 features"},
		{"missing threshold", func(o map[string]any) bool { delete(o, "threshold"); return true }, ErrSidecar, `"threshold" missing`},
		{"missing model key", func(o map[string]any) bool { delete(o["model"].(map[string]any), "sha256"); return true }, ErrSidecar, `"model.sha256" missing`},
		{"unknown key", set("extra", 1), ErrSidecar, `unknown key "extra"`},
		{"alpha -5", set("alpha", -5), ErrSidecar, "alpha"},
		{"alpha 1", set("alpha", 1), ErrSidecar, "alpha"},
		{"rate above 1", set("test_tpr", 1.2), ErrSidecar, "test_tpr"},
		{"threshold a string", set("threshold", "inf"), ErrSidecar, "threshold"},
		{"model elsewhere", func(o map[string]any) bool { o["model"].(map[string]any)["file"] = "../x.params"; return true }, ErrSidecar, "beside the sidecar"},
		{"bad hash", func(o map[string]any) bool { o["model"].(map[string]any)["sha256"] = "xyz"; return true }, ErrSidecar, "hex"},
		{"other architecture", func(o map[string]any) bool {
			o["model"].(map[string]any)["architecture"] = "MLP(in=3, hidden=[5], activation=relu)"
			return true
		}, ErrSidecar, "the model file holds"},
		{"huge hidden layer", func(o map[string]any) bool {
			o["model"].(map[string]any)["architecture"] = "MLP(in=3, hidden=[200000000], activation=relu)"
			return true
		}, ErrSidecar, "the model file holds"},
		{"unknown architecture", func(o map[string]any) bool {
			o["model"].(map[string]any)["architecture"] = "Transformer(in=3)"
			return true
		}, ErrSidecar, "none this package rebuilds"},
		{"other dtype", func(o map[string]any) bool { o["model"].(map[string]any)["dtype"] = "float32"; return true }, ErrSidecar, "float32"},
		{"wrong size", func(o map[string]any) bool { o["model"].(map[string]any)["bytes"] = 12; return true }, ErrModel, "bytes"},
		{"edited without checksum", func(o map[string]any) bool { o["alpha"] = 0.2; return false }, ErrSidecar, "checksum"},
		{"unknown version", set("version", 5), ErrVersion, "version 5; this package reads versions 1 to 4"},
		{"other format", set("format", "something-else"), ErrSidecar, "format"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			newFixture(t, 1).save(t, dir, "ce")
			editSidecar(t, sidecarOf(dir, "ce"), c.edit)
			_, err := Load(sidecarOf(dir, "ce"))
			require.ErrorIs(t, err, c.err)
			require.ErrorContains(t, err, c.msg)
		})
	}
}

// Raw damage to the files: trailing garbage after the sidecar's object, a truncated or
// altered model file, a model file replaced by another model, a missing one.
func TestCorruptFiles(t *testing.T) {
	cases := []struct {
		name string
		harm func(t *testing.T, side, model string)
		err  error
		msg  string
	}{
		{"trailing garbage", func(t *testing.T, side, _ string) { appendTo(t, side, "{}") }, ErrSidecar, "after the JSON object"},
		{"not JSON", func(t *testing.T, side, _ string) { require.NoError(t, os.WriteFile(side, []byte("\x00\x00"), 0o644)) }, ErrSidecar, "invalid"},
		{"truncated model", func(t *testing.T, _, model string) {
			b, _ := os.ReadFile(model)
			require.NoError(t, os.WriteFile(model, b[:len(b)-5], 0o644))
		}, ErrModel, "bytes"},
		{"flipped byte", func(t *testing.T, _, model string) {
			b, _ := os.ReadFile(model)
			b[len(b)/2] ^= 1
			require.NoError(t, os.WriteFile(model, b, 0o644))
		}, ErrHash, "SHA-256"},
		{"another model", func(t *testing.T, _, model string) {
			other := newFixture(t, 9).save(t, t.TempDir(), "ce")
			b, _ := os.ReadFile(other)
			require.NoError(t, os.WriteFile(model, b, 0o644))
		}, ErrHash, "SHA-256"},
		{"missing model", func(t *testing.T, _, model string) { require.NoError(t, os.Remove(model)) }, ErrModel, "no such file"},
		{"missing sidecar", func(t *testing.T, side, _ string) { require.NoError(t, os.Remove(side)) }, ErrSidecar, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			model := newFixture(t, 1).save(t, dir, "ce")
			c.harm(t, sidecarOf(dir, "ce"), model)
			_, err := Load(filepath.Join(dir, "ce.params"))
			require.ErrorIs(t, err, c.err)
			require.ErrorContains(t, err, c.msg)
		})
	}
}

func appendTo(t *testing.T, path, s string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(s)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// A version-1 sidecar claiming a hidden layer of 200,000,000 units beside a real checkpoint
// (the model's hash unchanged) is refused against the checkpoint before the model is
// allocated: without that check nn.NewMLP would take 4.8 GB.
func TestHugeArchitectureRefusedBeforeAllocating(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"ce.params", "ce.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "v1", f))
		require.NoError(t, err)
		if f == "ce.json" {
			b = bytes.Replace(b, []byte("\"hidden\": [\n      3\n    ]"), []byte(`"hidden": [200000000]`), 1)
			require.Contains(t, string(b), "200000000")
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Load(filepath.Join(dir, "ce.params"))
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrSidecar)
	require.ErrorContains(t, err, "the model file holds")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "bytes allocated by Load")
}

// A sidecar larger than Load reads is refused by its size.
func TestOversizedSidecar(t *testing.T) {
	dir := t.TempDir()
	newFixture(t, 1).save(t, dir, "ce")
	f, err := os.OpenFile(sidecarOf(dir, "ce"), os.O_WRONLY, 0)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(maxSidecarBytes+1)) // a sparse file: no disk used
	require.NoError(t, f.Close())
	_, err = Load(sidecarOf(dir, "ce"))
	require.ErrorIs(t, err, ErrSidecar)
	require.True(t, strings.Contains(err.Error(), "more than"), err.Error())
}

// A damaged checkpoint whose damage the sidecar's hash and size were updated to match (so
// that only the checkpoint's own checks see it) is ErrModel wrapping nn's error.
func TestCorruptCheckpointWithMatchingHash(t *testing.T) {
	for _, c := range []struct {
		name string
		harm func([]byte) []byte
		err  []error
	}{
		{"flipped payload byte", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }, []error{nn.ErrDamaged, frame.ErrCorrupt}},
		{"cut short", func(b []byte) []byte { return b[:len(b)-9] }, []error{nn.ErrDamaged, frame.ErrTruncated}},
		{"not a checkpoint", func(b []byte) []byte { return append([]byte("PK"), b[2:]...) }, []error{nn.ErrNotCheckpoint}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			model := newFixture(t, 1).save(t, dir, "ce")
			b, err := os.ReadFile(model)
			require.NoError(t, err)
			b = c.harm(b)
			require.NoError(t, os.WriteFile(model, b, 0o644))
			sum := sha256.Sum256(b)
			editSidecar(t, sidecarOf(dir, "ce"), func(o map[string]any) bool {
				m := o["model"].(map[string]any)
				m["sha256"], m["bytes"] = hex.EncodeToString(sum[:]), len(b)
				return true
			})
			_, err = Load(sidecarOf(dir, "ce"))
			require.ErrorIs(t, err, ErrModel)
			for _, e := range c.err {
				require.ErrorIs(t, err, e)
			}
		})
	}
}

// lying is a model whose architecture line is not its own.
type lying struct {
	nn.Model
	arch string
}

func (l lying) Architecture() string { return l.arch }

// A checkpoint and sidecar that agree on an architecture of far more parameters than the
// checkpoint holds (a crafted pair: hashes and checksums valid) are refused before the model
// is allocated; Save refuses such a model itself.
func TestArchitectureLargerThanItsCheckpoint(t *testing.T) {
	const huge = "MLP(in=3, hidden=[200000000], activation=relu)"
	f := newFixture(t, 1)
	dir := t.TempDir()
	_, err := Save(dir, "ce", lying{f.m, huge}, f.op, f.st, f.features)
	require.ErrorIs(t, err, ErrModel)
	require.ErrorContains(t, err, "parameters")

	model := f.save(t, dir, "ce")
	var buf bytes.Buffer
	require.NoError(t, nn.Write(&buf, lying{f.m, huge}))
	require.NoError(t, os.WriteFile(model, buf.Bytes(), 0o644))
	sum := sha256.Sum256(buf.Bytes())
	editSidecar(t, sidecarOf(dir, "ce"), func(o map[string]any) bool {
		m := o["model"].(map[string]any)
		m["architecture"], m["sha256"], m["bytes"] = huge, hex.EncodeToString(sum[:]), buf.Len()
		return true
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Load(sidecarOf(dir, "ce"))
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrSidecar)
	require.ErrorContains(t, err, "more parameters than")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "bytes allocated by Load")
}

// requireSameScores fails unless two outputs of ScoreCSV have the same rows and labels, scores
// within tol of each other (relative to the larger magnitude, at least 1), and the same flags
// but where a score lies within that tolerance of the threshold t, such as the validation row
// that defines it, which one ulp flags or not.
func requireSameScores(t *testing.T, want, got string, threshold, tol float64) {
	t.Helper()
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	require.Len(t, g, len(w))
	for i := 1; i < len(w); i++ {
		wf, gf := strings.Split(w[i], ","), strings.Split(g[i], ",")
		require.Len(t, gf, len(wf), "line %d", i+1)
		if len(wf) < 3 {
			require.Equal(t, wf, gf, "line %d", i+1)
			continue
		}
		k := len(wf) - 2 // the score; the flag follows it
		require.Equal(t, wf[:k], gf[:k], "line %d", i+1)
		ws, err := strconv.ParseFloat(wf[k], 64)
		require.NoError(t, err)
		gs, err := strconv.ParseFloat(gf[k], 64)
		require.NoError(t, err)
		near := tol * max(1, math.Abs(ws), math.Abs(gs))
		require.InDelta(t, ws, gs, near, "line %d", i+1)
		if math.Abs(ws-threshold) > near {
			require.Equal(t, wf[k+1], gf[k+1], "line %d: the flag", i+1)
		}
	}
	require.Equal(t, w[0], g[0], "the header")
}

// Every defect of a version-3 sidecar, of a model of classes, is a named error: each row
// edits a good one, signed again unless the row is about the checksum.
func TestCorruptClassSidecars(t *testing.T) {
	set := func(key string, v any) func(map[string]any) bool {
		return func(o map[string]any) bool { o[key] = v; return true }
	}
	drop := func(key string) func(map[string]any) bool {
		return func(o map[string]any) bool { delete(o, key); return true }
	}
	arch := func(a string) func(map[string]any) bool {
		return func(o map[string]any) bool { o["model"].(map[string]any)["architecture"] = a; return true }
	}
	cases := []struct {
		name string
		edit func(map[string]any) bool
		err  error
		msg  string
	}{
		{"missing classes", drop("classes"), ErrSidecar, `"classes" missing`},
		{"null classes", set("classes", nil), ErrSidecar, "0 classes for a multi-class model"},
		{"no classes", set("classes", []string{}), ErrSidecar, "0 classes for a multi-class model"},
		{"one class", set("classes", []string{"cat"}), ErrSidecar, "1 classes for a multi-class model"},
		{"four classes", set("classes", []string{"a", "b", "c", "d"}), ErrSidecar, "4 classes for a model of 3 outputs"},
		{"empty class name", set("classes", []string{"cat", "", "x"}), ErrSidecar, "class 2 has the name"},
		{"repeated class", set("classes", []string{"cat", "x", "cat"}), ErrSidecar, "listed twice"},
		{"class not a string", set("classes", []any{"cat", 2, "x"}), ErrSidecar, "classes"},
		{"two thresholds", set("thresholds", []float64{0, 0}), ErrSidecar, "2 thresholds for 3 classes"},
		{"missing thresholds", drop("thresholds"), ErrSidecar, `"thresholds" missing`},
		{"NaN threshold", set("thresholds", []any{0, "NaN", nil}), ErrSidecar, "thresholds"},
		{"huge threshold", func(o map[string]any) bool { o["thresholds"] = json.RawMessage(`[0, 1e999, null]`); return true }, ErrSidecar, "thresholds"},
		{"short rates", set("class_test_tpr", []float64{0.5}), ErrSidecar, "1 values of class_test_tpr"},
		{"rate above 1", set("class_validation_fpr", []float64{0, 1.5, 0}), ErrSidecar, "class_validation_fpr"},
		{"missing multilabel", drop("multilabel"), ErrSidecar, `"multilabel" missing`},
		{"probabilities of labels", func(o map[string]any) bool {
			o["multilabel"], o["probabilities"], o["label"] = true, true, ""
			return true
		}, ErrSidecar, "probabilities"},
		{"binary threshold", set("threshold", 0.5), ErrSidecar, `unknown key "threshold"`},
		{"one output", arch("MLP(in=3, hidden=[4], activation=relu)"), ErrSidecar, "3 classes for a model of 1 outputs"},
		{"outputs=1", arch("MLP(in=3, hidden=[4], activation=relu, outputs=1)"), ErrSidecar, "outputs 1"},
		{"more outputs than the checkpoint", func(o map[string]any) bool {
			o["model"].(map[string]any)["architecture"] = "MLP(in=3, hidden=[4], activation=relu, outputs=4)"
			for _, k := range []string{"class_validation_fpr", "class_validation_tpr", "class_test_fpr", "class_test_tpr", "thresholds"} {
				o[k] = []float64{0, 0, 0, 0}
			}
			o["classes"] = []string{"a", "b", "c", "d"}
			return true
		}, ErrSidecar, "the model file holds"},
		{"edited without checksum", func(o map[string]any) bool { o["thresholds"] = []float64{9, 9, 9}; return false }, ErrSidecar, "checksum"},
		{"signed as version 2", set("version", 2), ErrSidecar, `"threshold" missing`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			newClassFixture(t, 1, false, false).save(t, dir, "mc")
			editSidecar(t, sidecarOf(dir, "mc"), c.edit)
			_, err := Load(sidecarOf(dir, "mc"))
			require.ErrorIs(t, err, c.err)
			require.ErrorContains(t, err, c.msg)
		})
	}
	// A version-2 sidecar given the keys of classes is refused too: version 2 has none.
	dir := t.TempDir()
	newFixture(t, 1).save(t, dir, "ce")
	editSidecar(t, sidecarOf(dir, "ce"), set("classes", []string{"a", "b"}))
	_, err := Load(sidecarOf(dir, "ce"))
	require.ErrorIs(t, err, ErrSidecar)
	require.ErrorContains(t, err, `unknown key "classes"`)
}
