package train

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train/data"
)

// TestNewRejectsBatchSizeBelowTwo: a batch of one row cannot hold a positive and a negative,
// which every batch must (with BatchSize 1 the sampler drew positives only and cross-entropy
// drove every score up), so New rejects it with ErrConfig naming the setting.
func TestNewRejectsBatchSizeBelowTwo(t *testing.T) {
	m := mlp(t, 3, 1)
	_, err := New(m, Config{BatchSize: 1})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "BatchSize") {
		t.Fatalf("BatchSize 1: %v, want ErrConfig naming BatchSize", err)
	}
	if _, err := New(m, Config{BatchSize: 2}); err != nil {
		t.Fatalf("BatchSize 2: %v", err)
	}
}

// TestNewConfigErrorsAreNamed: every setting New rejects is an ErrConfig whose message starts
// with the package name.
func TestNewConfigErrorsAreNamed(t *testing.T) {
	m := mlp(t, 3, 1)
	for _, cfg := range []Config{
		{Epochs: -1}, {WarmupEpochs: -1}, {Patience: -1}, {BatchSize: -2}, {BatchSize: 1},
		{PositiveFraction: 1}, {PositiveFraction: math.NaN()}, {LearningRate: math.NaN()},
		{LearningRate: math.Inf(1)}, {WeightDecay: -1}, {Optimizer: Optimizer(42)},
		{Hooks: []Hook{{}}}, {Metric: PartialAUC(0)}, {Metric: TPRAtFPR(1.5)},
	} {
		_, err := New(m, cfg)
		if !errors.Is(err, ErrConfig) || !strings.HasPrefix(err.Error(), "train: ") {
			t.Errorf("%+v: %v, want ErrConfig", cfg, err)
		}
	}
	if _, err := New(nil, Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v, want ErrConfig", err)
	}
}

// TestFitRejectsFeaturesBeyondFloat32: training rows are narrowed to the model's dtype; a
// feature a float32 model cannot hold is nn.ErrRange naming the row, not a batch of ±Inf.
func TestFitRejectsFeaturesBeyondFloat32(t *testing.T) {
	m, err := nn.NewLinear(nn.LinearConfig{In: 2, Dtype: tensor.Float32})
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0, 1, 2, 3, 1e39, 5, 6, 7}
	ds, err := data.New(x, []float64{0, 1, 0, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	_, err = fit(t, m, Config{Epochs: 1}, ds, nil)
	if !errors.Is(err, nn.ErrRange) || !strings.Contains(err.Error(), "row 2, feature 0") {
		t.Fatalf("Fit: %v, want nn.ErrRange naming row 2, feature 0", err)
	}
}
