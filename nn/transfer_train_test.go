package nn_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// bits returns the bit patterns of m's parameters, by name.
func bits(t *testing.T, m nn.Model) map[string][]uint64 {
	t.Helper()
	out := map[string][]uint64{}
	for _, p := range m.Params() {
		var b []uint64
		switch d := p.Value.Data().(type) {
		case []float64:
			for _, v := range d {
				b = append(b, math.Float64bits(v))
			}
		case []float32:
			for _, v := range d {
				b = append(b, uint64(math.Float32bits(v)))
			}
		}
		out[p.Name] = b
	}
	return out
}

// TestTransferTrains: a model trained for two epochs on the embedded WDBC data and saved is
// loaded, its body kept under a new head of another width (a hidden layer of 5 units, then one
// score), frozen or with LoRA adapters, and trained again by package train: training moves
// every trainable parameter and leaves every frozen one bit for bit, the model learns (its
// validation AUC rises, above 0.97), and it saves and loads whole.
func TestTransferTrains(t *testing.T) {
	ds, err := data.WDBC()
	if err != nil {
		t.Fatal(err)
	}
	tr, val, _, _, err := data.SplitStandardized(ds, data.SplitConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, arm := range []struct {
			name string
			cfg  nn.TransferConfig
		}{
			{"frozen", nn.TransferConfig{Freeze: 2, Hidden: []int{5}, Seed: 3}},
			{"lora", nn.TransferConfig{Rank: 2, Hidden: []int{5}, Seed: 3}},
			{"lower layer frozen", nn.TransferConfig{Freeze: 1, Hidden: []int{5}, Seed: 3}},
		} {
			t.Run(fmt.Sprintf("%v/%s", dt, arm.name), func(t *testing.T) {
				baseCfg := nn.MLPConfig{In: tr.Cols, Hidden: []int{12, 8}, Seed: 1, Dtype: dt}
				saved, err := nn.NewMLP(baseCfg)
				if err != nil {
					t.Fatal(err)
				}
				pre, err := train.New(saved, train.Config{Epochs: 2, BatchSize: 64, LearningRate: 0.01, Progress: io.Discard})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := pre.Fit(context.Background(), tr, nil); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(t.TempDir(), "base.params")
				if err := nn.Save(path, saved); err != nil {
					t.Fatal(err)
				}
				baseCfg.Seed = 2
				base, err := nn.NewMLP(baseCfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := nn.Load(path, base); err != nil {
					t.Fatal(err)
				}
				m, err := nn.Transfer(base, arm.cfg)
				if err != nil {
					t.Fatal(err)
				}
				before := bits(t, m)
				s0, err := nn.Scores(m, val.X, val.Rows)
				if err != nil {
					t.Fatal(err)
				}
				auc0, err := metrics.AUC(s0, val.Y)
				if err != nil {
					t.Fatal(err)
				}
				tn, err := train.New(m, train.Config{Epochs: 10, BatchSize: 32, LearningRate: 0.01, Progress: io.Discard})
				if err != nil {
					t.Fatal(err)
				}
				hist, err := tn.Fit(context.Background(), tr, val)
				if err != nil {
					t.Fatal(err)
				}
				if auc := hist.Epochs[hist.Best].Metric; !(auc > 0.97 && auc > auc0) {
					t.Errorf("best validation AUC %v, want above 0.97 and above the %v of the start", auc, auc0)
				}
				after := bits(t, m)
				for _, p := range m.Params() {
					if same := slices.Equal(before[p.Name], after[p.Name]); same != p.Frozen {
						t.Errorf("%s (frozen %v): unchanged by training %v", p.Name, p.Frozen, same)
					}
				}

				out := filepath.Join(t.TempDir(), "tuned.params")
				if err := nn.Save(out, m); err != nil {
					t.Fatal(err)
				}
				again, err := nn.Transfer(base, arm.cfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := nn.Load(out, again); err != nil {
					t.Fatal(err)
				}
				loaded := bits(t, again)
				for name, b := range after {
					if !slices.Equal(loaded[name], b) {
						t.Errorf("%s differs after Save and Load", name)
					}
				}
			})
		}
	}
}
