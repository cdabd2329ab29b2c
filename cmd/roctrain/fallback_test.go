package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/deploy"
)

// pngSize decodes the PNG at path and returns its size in pixels.
func pngSize(t *testing.T, path string) (w, h int) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err, path)
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// A kde run whose fine-tuning runs at 10⁻¹² of the learning rate cannot beat its
// cross-entropy phase on validation (its weights move by about 10⁻¹⁵ a step), so FineTune
// keeps the cross-entropy weights: the run is then ce's model bit for bit. The JSON says so
// per seed (phases 2, kept_phases 1) and as a count (later_phase_kept 0); its paired
// comparisons with ce are 0 with [0, 0] on every figure; the table marks it and explains the
// mark; both plots draw it once, under both names.
func TestFallbackIsReported(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "roc.png")
	args := []string{"-epochs", "3", "-lr", "0.01", "-boot", "200", "-losses", "ce,kde:lr=1e-12,sqhinge", "-plot", plot, "-diagnose"}
	code, stdout, stderr := roctrain(t, append(args, "-json")...)
	require.Equal(t, 0, code, stderr)
	type paired struct {
		Diff float64    `json:"diff"`
		CI95 [2]float64 `json:"ci95"`
	}
	var got struct {
		Results []struct {
			Name           string            `json:"name"`
			Target         string            `json:"target"`
			LaterPhaseKept *int              `json:"later_phase_kept"`
			TestAUCVsFirst *paired           `json:"test_auc_vs_first"`
			TestVsFirst    map[string]paired `json:"test_vs_first"`
			PerSeed        []struct {
				Phases     int `json:"phases"`
				KeptPhases int `json:"kept_phases"`
			} `json:"per_seed"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Len(t, got.Results, 3)
	ce, kde, sq := got.Results[0], got.Results[1], got.Results[2]
	require.Equal(t, []string{"ce", "kde:lr=1e-12", "sqhinge"}, []string{ce.Name, kde.Name, sq.Name})
	require.Equal(t, []string{"test_auc", "test_tpr_at_fpr", "test_auc"}, []string{ce.Target, kde.Target, sq.Target})
	require.Nil(t, ce.LaterPhaseKept, "one phase: no count")
	require.NotNil(t, kde.LaterPhaseKept)
	require.Equal(t, 0, *kde.LaterPhaseKept)
	require.Equal(t, 2, kde.PerSeed[0].Phases)
	require.Equal(t, 1, kde.PerSeed[0].KeptPhases)
	require.Equal(t, 1, ce.PerSeed[0].Phases)
	require.Equal(t, 1, ce.PerSeed[0].KeptPhases)

	// The same model scored on the same rows: every paired difference is 0 with [0, 0].
	require.Equal(t, paired{}, *kde.TestAUCVsFirst)
	require.Len(t, kde.TestVsFirst, 4, "pAUC, TPR, deployed TPR and FPR")
	for key, p := range kde.TestVsFirst {
		require.Equal(t, paired{}, p, key)
	}
	// Another model: the intervals have width (sqhinge ranks the 113 test rows differently).
	require.NotEqual(t, paired{}, *sq.TestAUCVsFirst)
	require.Less(t, sq.TestVsFirst["test_pauc"].CI95[0], sq.TestVsFirst["test_pauc"].CI95[1])

	code, stdout, stderr = roctrain(t, args...)
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `(?m)^\s+kde:lr=1e-12†\s+0\.01\s`, stdout)
	require.Contains(t, stdout, "† kde:lr=1e-12: validation kept the cross-entropy weights, not fine-tuning; = ce bit for bit\n")
	require.NotContains(t, stdout, "sqhinge†")
	require.Contains(t, stdout, "drawn once, the same test scores bit for bit: ce = kde:lr=1e-12\n")
	for _, p := range []string{plot, filepath.Join(dir, "roc-diagnostics.png")} {
		w, h := pngSize(t, p)
		require.Equal(t, [2]int{1344, 528}, [2]int{w, h}, "%s: 14 × 5.5 inches at 96 dpi", p)
	}

	// The sidecar of the fallen-back run records it; the others' do not.
	models := filepath.Join(dir, "models")
	code, stdout, stderr = roctrain(t, "-epochs", "3", "-lr", "0.01", "-boot", "0", "-losses", "ce,kde:lr=1e-12", "-plot", "", "-out", models)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "\nthe same test scores bit for bit: ce = kde:lr=1e-12\n", "said without a plot too")
	for name, kept := range map[string]bool{"ce": false, deploy.SafeName("kde:lr=1e-12"): true} {
		side := filepath.Join(models, name+".json")
		b, err := os.ReadFile(side)
		require.NoError(t, err, name)
		require.Equal(t, kept, strings.Contains(string(b), `"first_phase_kept": true`), name)
		s, err := deploy.Load(side)
		require.NoError(t, err, name)
		require.Equal(t, kept, s.OperatingPoint().Run.FirstPhaseKept, name)
		s.Close()
	}
}
