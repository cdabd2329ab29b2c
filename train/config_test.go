package train

import (
	"errors"
	"math"
	"strings"
	"testing"
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
