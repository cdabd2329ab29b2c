package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// -diagnose adds every epoch's diagnostics to each result and draws the second PNG beside
// the ROC plot, named after it.
func TestDiagnose(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "curves.png")
	code, stdout, stderr := roctrain(t, "-json", "-diagnose", "-epochs", "3", "-warmup", "2", "-lr", "0.01", "-boot", "0",
		"-losses", "ce,hinge,hinge+wu", "-plot", plot)
	require.Equal(t, 0, code, stderr)
	var got struct {
		Results []struct {
			Loss         string           `json:"loss"`
			WarmupEpochs int              `json:"warmup_epochs"`
			Diagnostics  []map[string]any `json:"diagnostics"`
		} `json:"results"`
	}
	require.NoError(t, json.NewDecoder(strings.NewReader(stdout)).Decode(&got))
	require.Len(t, got.Results, 3)
	for _, r := range got.Results {
		require.Len(t, r.Diagnostics, 3+r.WarmupEpochs, r.Loss)
		for k, d := range r.Diagnostics {
			require.Equal(t, float64(k+1), d["epoch"])
			for _, key := range []string{"misranking", "severe_mass", "ce_bound"} {
				v, ok := d[key].(float64)
				require.True(t, ok, "%s: %s = %v", r.Loss, key, d[key])
				require.True(t, v >= 0, "%s = %v", key, v)
			}
			require.LessOrEqual(t, d["severe_mass"].(float64), d["ce_bound"].(float64))
			for _, key := range []string{"drift", "var_pos", "var_neg", "var_residual", "first_order_share", "phase", "severe_pairs"} {
				_, ok := d[key]
				require.True(t, ok, "missing %s", key)
			}
		}
		wantPhase := "main"
		if r.WarmupEpochs > 0 {
			wantPhase = "warmup"
		}
		require.Equal(t, wantPhase, r.Diagnostics[0]["phase"], r.Loss)
	}
	f, err := os.Open(filepath.Join(dir, "curves-diagnostics.png"))
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	require.Greater(t, img.Bounds().Dx(), 500)

	// Without -diagnose there is no "diagnostics" key and no second plot.
	plot2 := filepath.Join(dir, "plain.png")
	code, stdout, stderr = roctrain(t, "-json", "-epochs", "1", "-lr", "0.01", "-boot", "0", "-losses", "ce", "-plot", plot2)
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stdout, `"diagnostics"`)
	_, err = os.Stat(filepath.Join(dir, "plain-diagnostics.png"))
	require.True(t, os.IsNotExist(err))
}

func TestDiagnosticsPath(t *testing.T) {
	for in, want := range map[string]string{
		"roc.png":        "roc-diagnostics.png",
		"out/figure.png": "out/figure-diagnostics.png",
		"noext":          "noext-diagnostics",
		"a.b/c.d.png":    "a.b/c.d-diagnostics.png",
	} {
		require.Equal(t, want, diagnosticsPath(in))
	}
}
