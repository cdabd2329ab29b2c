package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// classVsFirst is a run of the JSON output with its comparisons with the first run.
type classVsFirst struct {
	Name           string          `json:"name"`
	TestAUCVsFirst json.RawMessage `json:"test_auc_vs_first"`
	TestVsFirst    map[string]struct {
		Diff float64    `json:"diff"`
		CI95 [2]float64 `json:"ci95"`
	} `json:"test_vs_first"`
}

// On one seed of multi-class and of multi-label data, every run but the first gets the paired
// bootstrap of its macro OvR AUC against the first's with -boot > 0 (a difference inside its
// interval; DeLong's test stays null), the first none; with -boot 0 none does. The table
// shows the comparison with -boot > 0 only.
func TestClassesVsFirstOneSeed(t *testing.T) {
	dir := t.TempDir()
	for name, args := range map[string][]string{
		"classes": {"-data", writeClassCSV(t, dir, 120, []string{"a", "b", "c"}), "-label", "kind"},
		"labels":  {"-data", writeLabelsCSV(t, dir, 160), "-label", "p,q,r"},
	} {
		for _, boot := range []string{"40", "0"} {
			common := append(append([]string{}, args...), "-epochs", "2", "-lr", "0.01", "-hidden", "4",
				"-losses", "ce,sqhinge,hinge", "-plot", "", "-boot", boot)
			code, stdout, stderr := roctrain(t, append([]string{"-json"}, common...)...)
			require.Equal(t, 0, code, stderr)
			var out struct{ Results []classVsFirst }
			require.NoError(t, json.Unmarshal([]byte(stdout), &out), stdout)
			require.Len(t, out.Results, 3, name)
			for k, r := range out.Results {
				require.Equal(t, "null", string(r.TestAUCVsFirst), name+" "+r.Name)
				if k == 0 || boot == "0" {
					require.Nil(t, r.TestVsFirst, name+" "+r.Name)
					continue
				}
				keys := []string{"test_auc_ovr", "test_pauc", "test_tpr_at_fpr", "deployed_test_tpr", "deployed_test_fpr"}
				if name == "classes" {
					keys = append(keys, "test_auc_ovo")
				}
				require.Len(t, r.TestVsFirst, len(keys), name+" "+r.Name)
				for _, key := range keys {
					p, ok := r.TestVsFirst[key]
					require.True(t, ok, name+" "+r.Name+" "+key)
					require.True(t, p.CI95[0] <= p.Diff && p.Diff <= p.CI95[1], "%s %s %s: %+v", name, r.Name, key, p)
				}
				p := r.TestVsFirst["test_auc_ovr"]
				require.Less(t, p.CI95[0], p.CI95[1], "%s %s: %+v", name, r.Name, p)
			}
			code, stdout, stderr = roctrain(t, common...)
			require.Equal(t, 0, code, stderr)
			shown := strings.Contains(stdout, "each run minus ce on the same test rows")
			require.Equal(t, boot != "0", shown, "%s -boot %s:\n%s", name, boot, stdout)
			if shown {
				require.Contains(t, stdout, "the same 40 resamples of rows", name)
			}
		}
	}
}
