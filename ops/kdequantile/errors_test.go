package kdequantile

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rocops/rocops"
)

func TestBadInput(t *testing.T) {
	ok := []float64{0.5, -1, 2}
	okLabels := []float64{1, 0, 0}
	cases := []struct {
		name           string
		scores, labels []float64
		cfg            Config
		want           error
	}{
		{"empty", nil, nil, Config{Alpha: 0.1}, rocops.ErrEmpty},
		{"length mismatch", ok, okLabels[:2], Config{Alpha: 0.1}, rocops.ErrLength},
		{"NaN score", []float64{0.5, math.NaN(), 2}, okLabels, Config{Alpha: 0.1}, rocops.ErrNonFinite},
		{"+Inf score", []float64{0.5, -1, math.Inf(1)}, okLabels, Config{Alpha: 0.1}, rocops.ErrNonFinite},
		{"-Inf score", []float64{math.Inf(-1), -1, 2}, okLabels, Config{Alpha: 0.1}, rocops.ErrNonFinite},
		{"label 0.5", ok, []float64{1, 0.5, 0}, Config{Alpha: 0.1}, rocops.ErrLabel},
		{"label -1", ok, []float64{1, -1, 0}, Config{Alpha: 0.1}, rocops.ErrLabel},
		{"NaN label", ok, []float64{1, math.NaN(), 0}, Config{Alpha: 0.1}, rocops.ErrLabel},
		{"no positives", ok, []float64{0, 0, 0}, Config{Alpha: 0.1}, rocops.ErrNoPositives},
		{"no negatives", ok, []float64{1, 1, 1}, Config{Alpha: 0.1}, rocops.ErrNoNegatives},
		{"zero config", ok, okLabels, Config{}, ErrOperatingPoint},
		{"alpha and recall", ok, okLabels, Config{Alpha: 0.1, Recall: 0.9}, ErrOperatingPoint},
		{"recall 1", ok, okLabels, Config{Recall: 1}, ErrRecall},
		{"recall negative", ok, okLabels, Config{Recall: -0.5}, ErrRecall},
		{"recall NaN", ok, okLabels, Config{Recall: math.NaN()}, ErrRecall},
		{"recall 1e-320, where 1 − recall rounds to 1", ok, okLabels, Config{Recall: 1e-320}, ErrRecall},
		{"mirror: no positives", ok, []float64{0, 0, 0}, Config{Recall: 0.9}, rocops.ErrNoPositives},
		{"mirror: no negatives", ok, []float64{1, 1, 1}, Config{Recall: 0.9}, rocops.ErrNoNegatives},
		{"mirror: label 2", ok, []float64{1, 2, 0}, Config{Recall: 0.9}, rocops.ErrLabel},
		{"alpha 1", ok, okLabels, Config{Alpha: 1}, ErrAlpha},
		{"alpha negative", ok, okLabels, Config{Alpha: -0.1}, ErrAlpha},
		{"alpha NaN", ok, okLabels, Config{Alpha: math.NaN()}, ErrAlpha},
		{"V0 negative", ok, okLabels, Config{Alpha: 0.1, V0: -1}, ErrBandwidth},
		{"V0 NaN", ok, okLabels, Config{Alpha: 0.1, V0: math.NaN()}, ErrBandwidth},
		{"V1 +Inf", ok, okLabels, Config{Alpha: 0.1, V1: math.Inf(1)}, ErrBandwidth},
		{"V1 negative", ok, okLabels, Config{Alpha: 0.1, V1: -2}, ErrBandwidth},
		// τ > min f + logit(1 − α)/v0 = 0 + 2.2e308 does not fit in a float64.
		{"threshold overflows", []float64{1, 1, 0}, []float64{1, 0, 0}, Config{Alpha: 0.1, V0: 1e-308}, ErrRange},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Evaluate(c.scores, c.labels, c.cfg)
			wantErr(t, "Evaluate", err, c.want)
			g, _, err := Gradient(c.scores, c.labels, c.cfg)
			wantErr(t, "Gradient", err, c.want)
			if g != nil {
				t.Errorf("Gradient returned %v with its error", g)
			}
		})
	}
}

func wantErr(t *testing.T, fn string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: %v, want %v", fn, err, want)
	} else if !strings.HasPrefix(err.Error(), "kdequantile: ") {
		t.Errorf("%s: %q does not start with the package name", fn, err)
	}
}
