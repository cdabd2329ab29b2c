package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// -diagnose on data whose training part holds only two positives (four in all: the 60/20/20
// split deals two to training) trains every epoch and diagnoses each. Before, the logging
// pool got no positive, the first diagnosis failed, every run stopped at epoch 1 and the
// command still exited 0.
func TestDiagnoseTwoTrainingPositives(t *testing.T) {
	csv := writeRows(t, "rare.csv", "a,b,y", 120, func(i int) string {
		y := 0
		if i%30 == 0 {
			y = 1
		}
		return fmt.Sprintf("%g,%g,%d", math.Sin(float64(i))+2*float64(y), math.Cos(float64(3*i)), y)
	})
	code, stdout, stderr := roctrain(t, "-data", csv, "-label", "y", "-json", "-diagnose", "-epochs", "3", "-lr", "0.01",
		"-hidden", "", "-boot", "0", "-losses", "ce,hinge", "-plot", "")
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stderr, "keeping its best epoch")
	var got struct {
		Results []struct {
			Loss        string           `json:"loss"`
			Diagnostics []map[string]any `json:"diagnostics"`
		} `json:"results"`
	}
	require.NoError(t, json.NewDecoder(strings.NewReader(stdout)).Decode(&got))
	require.Len(t, got.Results, 2)
	for _, r := range got.Results {
		require.Len(t, r.Diagnostics, 3, "%s: every epoch diagnosed", r.Loss)
	}
}
