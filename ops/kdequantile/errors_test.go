package kdequantile

import (
	"math"
	"strings"
	"testing"

	"github.com/rocops/rocops"
	"github.com/stretchr/testify/require"
)

func TestBadInput(t *testing.T) {
	ok := []float64{0.5, -1, 2}
	okLabels := []float64{1, 0, 0}
	cases := []struct {
		name           string
		scores, labels []float64
		cfg            Config
		want           error
		says           string // what the message says after the package name
	}{
		{"empty", nil, nil, Config{Alpha: 0.1}, rocops.ErrEmpty, ""},
		{"length mismatch", ok, okLabels[:2], Config{Alpha: 0.1}, rocops.ErrLength, ""},
		{"NaN score", []float64{0.5, math.NaN(), 2}, okLabels, Config{Alpha: 0.1}, rocops.ErrNonFinite, ""},
		{"+Inf score", []float64{0.5, -1, math.Inf(1)}, okLabels, Config{Alpha: 0.1}, rocops.ErrNonFinite, ""},
		{"-Inf score", []float64{math.Inf(-1), -1, 2}, okLabels, Config{Alpha: 0.1}, rocops.ErrNonFinite, ""},
		{"label 0.5", ok, []float64{1, 0.5, 0}, Config{Alpha: 0.1}, rocops.ErrLabel, ""},
		{"label -1", ok, []float64{1, -1, 0}, Config{Alpha: 0.1}, rocops.ErrLabel, ""},
		{"NaN label", ok, []float64{1, math.NaN(), 0}, Config{Alpha: 0.1}, rocops.ErrLabel, ""},
		{"no positives", ok, []float64{0, 0, 0}, Config{Alpha: 0.1}, rocops.ErrNoPositives, ""},
		{"no negatives", ok, []float64{1, 1, 1}, Config{Alpha: 0.1}, rocops.ErrNoNegatives, ""},
		{"zero config", ok, okLabels, Config{}, rocops.ErrConfig, "invalid setting: set exactly one of Alpha and Recall, got Alpha = 0 and Recall = 0"},
		{"alpha and recall", ok, okLabels, Config{Alpha: 0.1, Recall: 0.9}, rocops.ErrConfig, "invalid setting: set exactly one of Alpha and Recall, got Alpha = 0.1 and Recall = 0.9"},
		{"recall 1", ok, okLabels, Config{Recall: 1}, rocops.ErrConfig, "invalid setting: Recall = 1, want (0, 1)"},
		{"recall negative", ok, okLabels, Config{Recall: -0.5}, rocops.ErrConfig, "invalid setting: Recall = -0.5"},
		{"recall NaN", ok, okLabels, Config{Recall: math.NaN()}, rocops.ErrConfig, "invalid setting: Recall = NaN"},
		{"recall 1e-320, where 1 − recall rounds to 1", ok, okLabels, Config{Recall: 1e-320}, rocops.ErrConfig, "invalid setting: Recall = 1e-320, want (0, 1) and so large that 1 − Recall does not round to 1"},
		{"mirror: no positives", ok, []float64{0, 0, 0}, Config{Recall: 0.9}, rocops.ErrNoPositives, ""},
		{"mirror: no negatives", ok, []float64{1, 1, 1}, Config{Recall: 0.9}, rocops.ErrNoNegatives, ""},
		{"mirror: label 2", ok, []float64{1, 2, 0}, Config{Recall: 0.9}, rocops.ErrLabel, ""},
		{"alpha 1", ok, okLabels, Config{Alpha: 1}, rocops.ErrConfig, "invalid setting: Alpha = 1, want (0, 1)"},
		{"alpha negative", ok, okLabels, Config{Alpha: -0.1}, rocops.ErrConfig, "invalid setting: Alpha = -0.1"},
		{"alpha NaN", ok, okLabels, Config{Alpha: math.NaN()}, rocops.ErrConfig, "invalid setting: Alpha = NaN"},
		{"V0 negative", ok, okLabels, Config{Alpha: 0.1, V0: -1}, rocops.ErrConfig, "invalid setting: V0 = -1, want a finite inverse bandwidth ≥ 0"},
		{"V0 NaN", ok, okLabels, Config{Alpha: 0.1, V0: math.NaN()}, rocops.ErrConfig, "invalid setting: V0 = NaN"},
		{"V1 +Inf", ok, okLabels, Config{Alpha: 0.1, V1: math.Inf(1)}, rocops.ErrConfig, "invalid setting: V1 = +Inf"},
		{"V1 negative", ok, okLabels, Config{Alpha: 0.1, V1: -2}, rocops.ErrConfig, "invalid setting: V1 = -2"},
		// τ > min f + logit(1 − α)/v0 = 0 + 2.2e308 does not fit in a float64.
		{"threshold overflows", []float64{1, 1, 0}, []float64{1, 0, 0}, Config{Alpha: 0.1, V0: 1e-308}, rocops.ErrRange, "value out of range: the threshold overflows float64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Evaluate(c.scores, c.labels, c.cfg)
			wantErr(t, "Evaluate", err, c.want, c.says)
			g, _, err := Gradient(c.scores, c.labels, c.cfg)
			wantErr(t, "Gradient", err, c.want, c.says)
			require.Nil(t, g, "Gradient returned %v with its error", g)
		})
	}
}

func wantErr(t *testing.T, fn string, err, want error, says string) {
	t.Helper()
	require.ErrorIs(t, err, want, "%s: %v, want %v", fn, err, want)
	require.True(t, strings.HasPrefix(err.Error(), "kdequantile: "+says), "%s: %q does not start with %q", fn, err, "kdequantile: "+says)
}
